import { Empty } from 'antd';
import type { PatientTabProps } from '../types';

/** Tab 'Alertas' of the patient page. */
export default function AlertsTab(_props: PatientTabProps) {
  return <Empty description="Esta sección estará disponible próximamente." />;
}
