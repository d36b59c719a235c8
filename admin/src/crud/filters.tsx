import { useEffect, useRef, useState } from 'react';
import { DatePicker, Input, Radio, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import { tagColor } from './palette';
import type { JsonSchema } from '@vigia/contract/rules/schema';
import { enumOptions } from './schema-rules';
import type { FilterDeclaration } from './types';

const SEARCH_DELAY_MS = 350;

/** Free-text filter (`q`), sent a moment after the user stops typing. */
export function SearchFilter({ filter, onChange }: { filter: FilterDeclaration; onChange: (value?: string) => void }) {
  const [text, setText] = useState('');
  // The latest callback, so the debounce below restarts only when the text changes.
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const typed = useRef(false);
  useEffect(() => {
    if (!typed.current) return;
    const timer = setTimeout(() => onChangeRef.current(text.trim() || undefined), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);
  return (
    <Input.Search
      allowClear
      aria-label={filter.label}
      placeholder={filter.placeholder ?? filter.label}
      value={text}
      onChange={(e) => {
        typed.current = true;
        setText(e.target.value);
      }}
      onSearch={(value) => onChange(value.trim() || undefined)}
      className="vigia-filter-search"
    />
  );
}

/** What an enum filter widget gets: its declaration, the parameter's schema, and where to send the value. */
interface EnumFilterProps {
  filter: FilterDeclaration;
  schema?: JsonSchema;
  onChange: (value?: string | number) => void;
}

/** Filter on an enum query parameter; its options and labels come from the contract. */
export function SelectFilter({ filter, schema, onChange }: EnumFilterProps) {
  const options = (schema ? enumOptions(schema) : []).map((o) => ({
    value: o.value,
    label:
      filter.widget === 'color-select' ? (
        <span className="vigia-option-color">
          <span className="vigia-dot" style={{ background: tagColor(o.value).background }} />
          {o.label}
        </span>
      ) : (
        o.label
      ),
    text: o.label,
  }));
  return (
    <Select
      allowClear
      aria-label={filter.label}
      placeholder={filter.placeholder ?? filter.label}
      options={options}
      optionFilterProp="text"
      onChange={(value) => onChange(value ?? undefined)}
      className="vigia-filter-select"
      popupMatchSelectWidth={false}
    />
  );
}

const ALL = '__all__';

/** An enum parameter as buttons, 'Todas' first (02 §2.6: the type toggle of 'Gestión de órdenes'). */
export function ToggleFilter({ filter, schema, onChange }: EnumFilterProps) {
  const [value, setValue] = useState<string | number>(ALL);
  const options = [{ value: ALL as string | number, label: filter.placeholder ?? 'Todas' }, ...(schema ? enumOptions(schema) : [])];
  // antd's group is a plain div: the wrapper names the native radios as one group.
  return (
    <div role="radiogroup" aria-label={filter.label}>
      <Radio.Group
        optionType="button"
        value={value}
        options={options}
        onChange={(e) => {
          setValue(e.target.value);
          onChange(e.target.value === ALL ? undefined : e.target.value);
        }}
      />
    </div>
  );
}

/** Free text sent as typed (e.g. a serial), a moment after the user stops typing. */
export function TextFilter({ filter, onChange }: { filter: FilterDeclaration; onChange: (value?: string) => void }) {
  return <SearchFilter filter={filter} onChange={onChange} />;
}

/** A date (YYYY-MM-DD) shown as dd/mm/aaaa. */
export function DateFilter({ filter, onChange }: { filter: FilterDeclaration; onChange: (value?: string) => void }) {
  return (
    <DatePicker
      aria-label={filter.label}
      placeholder={filter.placeholder ?? filter.label}
      format="DD/MM/YYYY"
      onChange={(value: Dayjs | null) => onChange(value ? value.format('YYYY-MM-DD') : undefined)}
      className="vigia-filter-select"
    />
  );
}
