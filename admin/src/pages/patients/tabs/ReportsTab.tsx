import { Empty } from 'antd';
import type { PatientTabProps } from '../types';

/** Tab 'Reportes' of the patient page. */
export default function ReportsTab(_props: PatientTabProps) {
  return <Empty description="Esta sección estará disponible próximamente." />;
}
