import { Empty } from 'antd';
import type { PatientTabProps } from '../types';

/** Tab 'Anotaciones' of the patient page. */
export default function ObservationsTab(_props: PatientTabProps) {
  return <Empty description="Esta sección estará disponible próximamente." />;
}
