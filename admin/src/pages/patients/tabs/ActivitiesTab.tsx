import { lazy, Suspense, useEffect, useState } from 'react';
import { Navigate } from 'react-router';
import { App, Skeleton } from 'antd';
import type { PatientTabProps } from '../types';

// FullCalendar is large: it lands in its own chunk, loaded when the tab opens.
const ActivityCalendar = lazy(() => import('../../orders/ActivityCalendar'));

/** Tab 'Actividades' (01, 02 §2.13): the activities calendar for the visible range; reloads when it becomes active. */
export default function ActivitiesTab({ patient, active }: PatientTabProps) {
  const { notification } = App.useApp();
  const [reloadKey, setReloadKey] = useState(0);
  const [missing, setMissing] = useState(false);
  useEffect(() => {
    if (active) setReloadKey((k) => k + 1);
  }, [active]);
  if (missing) return <Navigate to="/404notfound" replace />;
  return (
    <Suspense fallback={<Skeleton active />}>
      <ActivityCalendar
        patientId={patient.id}
        timeZone={patient.time_zone}
        canManage={patient.permissions?.manage_activities === true}
        reloadKey={reloadKey}
        onError={(e) => {
          // 01 §8: activity list failure shows the server notification and a not-found view.
          const err = e as { statusCode?: number; message?: string };
          if (err.statusCode === 0) return;
          notification.error({ message: err.message ?? 'No fue posible cargar las actividades' });
          setMissing(true);
        }}
      />
    </Suspense>
  );
}
