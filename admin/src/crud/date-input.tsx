import { DatePicker } from 'antd';
import type { DatePickerProps } from 'antd';

/** Date and date-time pickers (dd/mm/aaaa), in their own chunk: few forms need them. */
export default function DateInput({ withTime, ...props }: DatePickerProps & { withTime?: boolean }) {
  return withTime ? (
    <DatePicker {...props} showTime={{ format: 'HH:mm' }} format="DD/MM/YYYY HH:mm" style={{ width: '100%' }} />
  ) : (
    <DatePicker {...props} format="DD/MM/YYYY" style={{ width: '100%' }} />
  );
}
