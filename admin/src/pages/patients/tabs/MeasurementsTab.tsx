import { Empty } from 'antd';
import type { PatientTabProps } from '../types';

/** Tab 'Signos' of the patient page. */
export default function MeasurementsTab(_props: PatientTabProps) {
  return <Empty description="Esta sección estará disponible próximamente." />;
}
