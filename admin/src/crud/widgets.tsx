import { lazy, Suspense, useEffect, useRef } from 'react';
import { CheckOutlined } from '@ant-design/icons';
import { Form, Input, InputNumber, Skeleton, Switch, Typography } from 'antd';
import { RadioGroup, Select } from './form-controls';
import { useApiRead } from '../providers/calls';
import type { RemoteOptions } from './types';
import { tagColor } from './palette';
import type { FieldOption, FieldSpec, WidgetKind } from './schema-rules';

const DateInput = lazy(() => import('./date-input'));

type SwatchProps = {
  value?: string;
  onChange?: (value: string) => void;
  options: FieldOption[];
  id?: string;
  'aria-invalid'?: boolean;
};

/** Colour choice as round swatches; the Spanish colour name is shown for the selected one. */
function ColorSwatchPicker({ value, onChange, options, id }: SwatchProps) {
  const selected = options.find((o) => o.value === value);
  return (
    <div id={id}>
      <div className="vigia-swatches" role="radiogroup" aria-label="Color">
        {options.map((option) => {
          const { background, text } = tagColor(option.value);
          const checked = option.value === value;
          return (
            <button
              key={option.value}
              type="button"
              role="radio"
              aria-checked={checked}
              aria-label={option.label}
              title={option.label}
              className={`vigia-swatch${checked ? ' is-checked' : ''}`}
              style={{ background, color: text }}
              onClick={() => onChange?.(String(option.value))}
            >
              {checked && <CheckOutlined />}
            </button>
          );
        })}
      </div>
      <Typography.Text type="secondary" className="vigia-swatch-caption">
        {selected ? `Color seleccionado: ${selected.label}` : 'Elija un color'}
      </Typography.Text>
    </div>
  );
}

/**
 * A drop-down whose options come from the API; it reloads when the values its query depends on
 * change, and empties itself when its `dependsOn` field changes.
 */
function RemoteSelect({
  remote,
  name,
  placeholder,
  required,
  ...control
}: {
  remote: RemoteOptions;
  name: string;
  placeholder?: string;
  required: boolean;
  [key: string]: unknown;
}) {
  const form = Form.useFormInstance();
  const values = (Form.useWatch([], { form, preserve: true }) ?? {}) as Record<string, unknown>;
  const params = remote.params ? remote.params(values) : {};
  const key = params === null ? null : JSON.stringify(params);
  const { query } = useApiRead(
    { ...remote.read, query: params ?? undefined },
    {
      queryOptions: { enabled: key !== null },
      // A listing that fails to load leaves the select empty.
      errorNotification: false,
    },
  );
  const options = key !== null && query.isSuccess ? remote.toOptions(query.data.data) : [];
  const loading = key !== null && query.isFetching;
  const parent = remote.dependsOn ? values[remote.dependsOn] : undefined;
  const previous = useRef(parent);
  useEffect(() => {
    if (previous.current !== undefined && previous.current !== parent) form.setFieldValue(name, undefined);
    previous.current = parent;
  }, [parent, form, name]);
  return (
    <Select
      {...control}
      options={options}
      loading={loading}
      disabled={key === null}
      placeholder={key === null ? 'Primero complete el campo anterior' : (placeholder ?? 'Seleccione')}
      allowClear={!required}
      showSearch
      optionFilterProp="label"
      notFoundContent={loading ? 'Cargando…' : 'Sin opciones'}
    />
  );
}

/** The input control for a field, chosen from the contract (or the declaration's override). */
export function FieldInput({
  spec,
  widget,
  placeholder,
  remote,
  ...control
}: {
  spec: FieldSpec;
  widget: WidgetKind;
  placeholder?: string;
  remote?: RemoteOptions;
  // Value and onChange are injected by Form.Item.
  [key: string]: unknown;
}) {
  const options = spec.options?.map((o) => ({ value: o.value, label: o.label }));
  switch (widget) {
    case 'textarea':
      return (
        <Input.TextArea
          {...control}
          placeholder={placeholder}
          autoSize={{ minRows: 3, maxRows: 8 }}
          maxLength={spec.maxLength}
          showCount={spec.maxLength !== undefined}
        />
      );
    case 'password':
      return <Input.Password {...control} placeholder={placeholder} maxLength={spec.maxLength} />;
    case 'email':
      return (
        <Input {...control} type="email" inputMode="email" autoComplete="email" placeholder={placeholder} maxLength={spec.maxLength} />
      );
    case 'url':
      return <Input {...control} type="url" inputMode="url" placeholder={placeholder ?? 'https://'} maxLength={spec.maxLength} />;
    case 'number':
      return (
        <InputNumber
          {...control}
          style={{ width: '100%' }}
          min={spec.minimum}
          max={spec.maximum}
          precision={spec.kind === 'integer' ? 0 : undefined}
          placeholder={placeholder}
        />
      );
    case 'switch':
      return <Switch {...control} checkedChildren="Sí" unCheckedChildren="No" />;
    case 'radio':
      return <RadioGroup {...control} options={options} optionType="button" buttonStyle="solid" />;
    case 'select':
      return (
        <Select
          {...control}
          options={options}
          placeholder={placeholder ?? 'Seleccione'}
          allowClear={!spec.required}
          showSearch
          optionFilterProp="label"
        />
      );
    case 'multi-select':
      return (
        <Select
          {...control}
          mode="multiple"
          options={options}
          placeholder={placeholder ?? 'Seleccione'}
          maxCount={spec.maxItems}
          optionFilterProp="label"
        />
      );
    case 'date':
    case 'datetime':
      return (
        <Suspense fallback={<Skeleton.Input active block />}>
          <DateInput
            {...control}
            withTime={widget === 'datetime'}
            placeholder={placeholder ?? (widget === 'date' ? 'dd/mm/aaaa' : 'dd/mm/aaaa hh:mm')}
          />
        </Suspense>
      );
    case 'remote-select':
      return remote ? (
        <RemoteSelect {...control} remote={remote} name={spec.name} placeholder={placeholder} required={spec.required} />
      ) : null;
    case 'color-swatch':
      return <ColorSwatchPicker {...(control as Omit<SwatchProps, 'options'>)} options={spec.options ?? []} />;
    default:
      return <Input {...control} placeholder={placeholder} maxLength={spec.maxLength} />;
  }
}
