import { useState } from 'react';
import { Button, DatePicker, Select, Space, Tag } from 'antd';
import { FilterOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { ELEMENT_OPTIONS, PRIORITY_OPTIONS, TYPE_OPTIONS } from '../../components/alerts.data';

export type FilterKey = 'date' | 'alert_type' | 'clinical_element' | 'priority';
export type FilterValues = { date?: [Dayjs, Dayjs] | null; alert_type?: number; clinical_element?: number; priority?: number };

const LABELS: Record<FilterKey, string> = {
  date: 'Fecha',
  alert_type: 'Tipo',
  clinical_element: 'Elemento Clínico',
  priority: 'Prioridad',
};
const OPTIONS = { alert_type: TYPE_OPTIONS, clinical_element: ELEMENT_OPTIONS, priority: PRIORITY_OPTIONS };

/** Last 7 days up to today (02 §2.9, §9). */
export const defaultRange = (): [Dayjs, Dayjs] => [dayjs().subtract(7, 'day').startOf('day'), dayjs().endOf('day')];

/** The query parameters of the active filters. */
export function toParams(active: FilterKey[], values: FilterValues): Record<string, string | number | undefined> {
  const out: Record<string, string | number | undefined> = {};
  for (const key of active) {
    if (key === 'date' && values.date) {
      out.start_at = values.date[0].format('YYYY-MM-DD');
      out.end_at = values.date[1].format('YYYY-MM-DD');
    } else if (key !== 'date') out[key] = values[key];
  }
  return out;
}

/**
 * Filter chips (02 §2.7, §2.9): each chip toggles its control; turning one off clears it; the
 * apply button is disabled while an active filter has no value. Removing every filter reloads.
 */
export function AlertFilters({
  keys,
  initial,
  onApply,
  applyLabel,
}: {
  keys: FilterKey[];
  initial?: { active: FilterKey[]; values: FilterValues };
  onApply: (params: Record<string, string | number | undefined>) => void;
  applyLabel: string;
}) {
  const [active, setActive] = useState<FilterKey[]>(initial?.active ?? []);
  const [values, setValues] = useState<FilterValues>(initial?.values ?? {});
  const incomplete = active.some((k) => (k === 'date' ? !values.date : values[k] === undefined));
  const toggle = (key: FilterKey) => {
    const on = !active.includes(key);
    const next = on ? [...active, key] : active.filter((k) => k !== key);
    const nextValues = { ...values, [key]: on && key === 'date' ? defaultRange() : undefined };
    setActive(next);
    setValues(nextValues);
    if (!next.length) onApply({});
  };
  return (
    <div className="alert-filters">
      <Space wrap size={[8, 8]}>
        {keys.map((k) => (
          <Tag.CheckableTag key={k} checked={active.includes(k)} onChange={() => toggle(k)} className="alert-filter-chip">
            {LABELS[k]}
          </Tag.CheckableTag>
        ))}
      </Space>
      {active.length > 0 && (
        <Space wrap size={[8, 8]} style={{ marginTop: 8 }}>
          {active.map((k) =>
            k === 'date' ? (
              <DatePicker.RangePicker
                key={k}
                aria-label="Fecha"
                format="DD/MM/YYYY"
                value={values.date ?? null}
                onChange={(v) => setValues({ ...values, date: v && v[0] && v[1] ? [v[0], v[1]] : null })}
              />
            ) : (
              <Select
                key={k}
                aria-label={LABELS[k]}
                placeholder={LABELS[k]}
                style={{ minWidth: 200 }}
                options={OPTIONS[k]}
                value={values[k]}
                onChange={(v) => setValues({ ...values, [k]: v })}
              />
            ),
          )}
          <Button type="primary" icon={<FilterOutlined />} disabled={incomplete} onClick={() => onApply(toParams(active, values))}>
            {applyLabel}
          </Button>
        </Space>
      )}
    </div>
  );
}
