import { DatePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';

/** The app's date format (01 §1): what every date picker shows, whatever the browser's language. */
export const DAY_FORMAT = 'DD/MM/YYYY';

/**
 * A calendar day ('YYYY-MM-DD') picked as dd/mm/aaaa: the form value stays the day the API takes,
 * where the browser's own `<input type="date">` would show the browser's order (11/25/2026 in
 * English). `min` disables the days before it.
 */
export function DayPicker({
  value,
  onChange,
  min,
  id,
  disabled,
}: {
  value?: string | null;
  onChange?: (day: string) => void;
  min?: string;
  id?: string;
  disabled?: boolean;
}) {
  return (
    <DatePicker
      id={id}
      disabled={disabled}
      format={DAY_FORMAT}
      placeholder="dd/mm/aaaa"
      style={{ width: '100%' }}
      value={value ? dayjs(value) : null}
      onChange={(d: Dayjs | null) => onChange?.(d ? d.format('YYYY-MM-DD') : '')}
      disabledDate={min ? (d: Dayjs) => d.isBefore(dayjs(min), 'day') : undefined}
    />
  );
}
