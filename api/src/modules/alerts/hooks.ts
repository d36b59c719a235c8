import type { Sequelize, Transaction } from 'sequelize';
import type { JobRunner } from '../../jobs/queue.js';
import { queueAlertWebhook } from '../webhooks/webhooks.queue.js';
import { notifyPatientOfAlarm } from '../messages/alarm-notify.js';

/** An alert as raiseAlert stored it. */
export interface RaisedAlert {
  id: number;
  client_id: number;
  patient_id: number;
  alert_type: number;
  priority: number;
  clinical_element: number | null;
  alarm_id: number | null;
  measurement_id: number | null;
}

export interface AlertHookContext {
  sequelize: Sequelize;
  transaction?: Transaction;
  now: Date;
  jobs: JobRunner;
}

export type AlertHook = (ctx: AlertHookContext, alert: RaisedAlert) => Promise<void>;

/** What follows a new alert, inside raiseAlert's transaction: the FHIR DetectedIssue delivery (D19), the patient's AI message for ia_alarm rules. */
export const ALERT_HOOKS: AlertHook[] = [queueAlertWebhook, notifyPatientOfAlarm];

export async function runAlertHooks(ctx: AlertHookContext, alert: RaisedAlert): Promise<void> {
  for (const hook of ALERT_HOOKS) await hook(ctx, alert);
}
