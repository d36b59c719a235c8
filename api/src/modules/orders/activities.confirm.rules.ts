import { ACTIVITY_STATUS, ACTIVITY_WINDOW_MS, ORDER_TYPE } from '@vigia/contract/rules/activities';

/**
 * Whether a medication activity can be confirmed at `now` (D11, P53): a medication order's
 * activity, Programada or En proceso, during its hour [programmed_at, programmed_at + 1 h).
 * Who may confirm (the patient, staff with manage_activities) is checked apart.
 */
export function isConfirmableAt(a: { order_type: number; status: number; programmed_at: Date }, now: Date): boolean {
  if (a.order_type !== ORDER_TYPE.medication) return false;
  if (a.status !== ACTIVITY_STATUS.scheduled && a.status !== ACTIVITY_STATUS.inProgress) return false;
  const t = a.programmed_at.getTime();
  return now.getTime() >= t && now.getTime() < t + ACTIVITY_WINDOW_MS;
}
