import { Tag, Tooltip } from 'antd';
import { PATIENT_STATUS_DISPLAY } from './patient-status';

/** The status badge in its colour (01 §4); 'Incompleto' explains how to activate. */
export function PatientStatusTag({ status }: { status: number }) {
  const s = PATIENT_STATUS_DISPLAY[status] ?? { label: String(status), color: '#8c8c8c' };
  const tag = (
    <Tag className="patient-status-tag" style={{ background: s.color, borderColor: s.color, color: '#fff' }}>
      {s.label}
    </Tag>
  );
  return s.hint ? <Tooltip title={s.hint}>{tag}</Tooltip> : tag;
}
