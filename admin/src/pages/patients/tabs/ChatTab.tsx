import { Empty } from 'antd';
import type { PatientTabProps } from '../types';

/** Tab 'Chat' of the patient page. */
export default function ChatTab(_props: PatientTabProps) {
  return <Empty description="Esta sección estará disponible próximamente." />;
}
