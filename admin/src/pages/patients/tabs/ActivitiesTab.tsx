import { Empty } from 'antd';
import type { PatientTabProps } from '../types';

/** Tab 'Actividades' of the patient page. */
export default function ActivitiesTab(_props: PatientTabProps) {
  return <Empty description="Esta sección estará disponible próximamente." />;
}
