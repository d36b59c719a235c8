import { Empty } from 'antd';
import type { PatientTabProps } from '../types';

/** Tab 'Instrucciones IA' of the patient page. */
export default function PromptsTab(_props: PatientTabProps) {
  return <Empty description="Esta sección estará disponible próximamente." />;
}
