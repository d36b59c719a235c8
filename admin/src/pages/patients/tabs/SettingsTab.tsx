import { Empty } from 'antd';
import type { PatientTabProps } from '../types';

/** Tab 'Ajustes' of the patient page. */
export default function SettingsTab(_props: PatientTabProps) {
  return <Empty description="Esta sección estará disponible próximamente." />;
}
