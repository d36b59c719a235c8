import { Empty } from 'antd';
import type { PatientTabProps } from '../types';

/** Tab 'Antecedentes' of the patient page. */
export default function ConditionsTab(_props: PatientTabProps) {
  return <Empty description="Esta sección estará disponible próximamente." />;
}
