import { Empty } from 'antd';
import type { PatientTabProps } from '../types';

/** Tab 'Variables' of the patient page. */
export default function VariablesTab(_props: PatientTabProps) {
  return <Empty description="Esta sección estará disponible próximamente." />;
}
