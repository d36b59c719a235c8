import type { Sequelize, Transaction } from 'sequelize';
import type { JobRunner } from '../../jobs/queue.js';

/** D8 alert types: 0 value out of range, 1 measurement compliance, 2 medication compliance, 3 AI assistant. */
export type AlertType = 0 | 1 | 2 | 3;

export interface RaiseAlertInput {
  client_id: number;
  patient_id: number;
  alert_type: AlertType;
  /** 1 low, 2 medium, 3 high (the rule's priority for type 0). */
  priority: number;
  clinical_element?: number | null;
  description?: string | null;
  alarm_id?: number | null;
  measurement_id?: number | null;
  activity_id?: number | null;
}

export interface RaiseAlertContext {
  sequelize: Sequelize;
  transaction?: Transaction;
  now: Date;
  jobs: JobRunner;
}

/**
 * Opens an alert (status 1) and answers its id. Shared by the alarm engine (type 0), the activity
 * scheduler (types 1 and 2), the stale-data check (type 1) and the assistant (type 3).
 * Owner: alarms/alerts work; this placeholder is replaced there.
 */
export async function raiseAlert(_ctx: RaiseAlertContext, _input: RaiseAlertInput): Promise<number> {
  throw new Error('raiseAlert: pendiente de implementar');
}
