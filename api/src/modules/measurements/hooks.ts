import type { Sequelize, Transaction } from 'sequelize';
import type { JobRunner } from '../../jobs/queue.js';
import { checkAlarms } from '../alerts/alerts.engine.js';
import { completeActivities } from '../orders/activities.match.js';
import { queueMeasurementWebhooks } from '../webhooks/webhooks.queue.js';

/** Where a reading came from. */
export type MeasurementSource = 'staff' | 'device' | 'assistant' | 'portal';

/** A measurement as the ingestion service stored it (blood pressure is two rows: 3 and 4). */
export interface StoredMeasurement {
  id: number;
  client_id: number;
  patient_id: number;
  clinical_element: number;
  value: number;
  when: Date;
  source: MeasurementSource;
}

/** What every hook gets: the open transaction that stored the readings, so all of it commits or none. */
export interface MeasurementHookContext {
  sequelize: Sequelize;
  transaction: Transaction;
  now: Date;
  jobs: JobRunner;
}

export type MeasurementHook = (ctx: MeasurementHookContext, stored: StoredMeasurement[]) => Promise<void>;

/**
 * Everything that follows a stored reading, in order, inside the storing transaction:
 * the webhook deliveries it queues (D19; first, so a receiver gets the Observation before the
 * DetectedIssue an alarm raises on it), the alarm check (D10), the activity it completes (D11).
 */
export const MEASUREMENT_HOOKS: MeasurementHook[] = [queueMeasurementWebhooks, checkAlarms, completeActivities];

export async function runMeasurementHooks(ctx: MeasurementHookContext, stored: StoredMeasurement[]): Promise<void> {
  if (!stored.length) return;
  for (const hook of MEASUREMENT_HOOKS) await hook(ctx, stored);
}
