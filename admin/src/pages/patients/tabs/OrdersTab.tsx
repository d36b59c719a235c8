import { Empty } from 'antd';
import type { PatientTabProps } from '../types';

/** Tab 'Ordenes' of the patient page. */
export default function OrdersTab(_props: PatientTabProps) {
  return <Empty description="Esta sección estará disponible próximamente." />;
}
