import { lazy, Suspense } from 'react';
import { Skeleton } from 'antd';
import type { PatientTabProps } from '../types';

// FullCalendar is large: it lands in its own chunk, loaded when the tab opens.
const ActivityCalendar = lazy(() => import('../../../components/orders/ActivityCalendar'));

/** Tab 'Actividades' (01 §2, 02 §2.13): the activities calendar for the visible range; reloads when it becomes active. */
export default function ActivitiesTab({ patient, active }: PatientTabProps) {
  return (
    <Suspense fallback={<Skeleton active />}>
      <ActivityCalendar
        patientId={patient.id}
        timeZone={patient.time_zone}
        canManage={patient.permissions?.manage_activities === true}
        active={active}
      />
    </Suspense>
  );
}
