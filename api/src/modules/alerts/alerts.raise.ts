import type { Sequelize, Transaction } from 'sequelize';
import type { JobRunner } from '../../jobs/queue.js';
import { runAlertHooks } from './hooks.js';
import { execute, insertReturningId, select } from '../../db/sql.js';
import { ALERT_STATUS } from '@vigia/contract/rules/alarms';

/** D8 alert types: 0 value out of range, 1 measurement compliance, 2 medication compliance, 3 AI assistant. */
type AlertType = 0 | 1 | 2 | 3;

export interface RaiseAlertInput {
  client_id: number;
  patient_id: number;
  alert_type: AlertType;
  /** 1 Alta, 2 Media, 3 Baja (02 §9; the rule's priority for type 0). */
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

export interface OpenedAlert {
  id: number;
  /** False when an alert for the same patient and rule was already open (D10): nothing was stored. */
  created: boolean;
}

/**
 * Stores an open alert unless one is already open for the same patient and rule; the unique
 * partial index alerts_one_open_per_rule decides, so two readings stored at once cannot open two.
 * The hooks (webhook, patient message) run only for an alert really created, in the same transaction.
 */
export async function openAlert(
  ctx: RaiseAlertContext,
  input: RaiseAlertInput,
  snapshot: {
    value?: number | null;
    alarm_name?: string | null;
    minimum_condition?: number | null;
    maximum_condition?: number | null;
  } = {},
): Promise<OpenedAlert> {
  const { sequelize, transaction, now } = ctx;
  const replacements = {
    client: input.client_id,
    patient: input.patient_id,
    type: input.alert_type,
    priority: input.priority,
    element: input.clinical_element ?? null,
    description: input.description ?? null,
    alarm: input.alarm_id ?? null,
    measurement: input.measurement_id ?? null,
    activity: input.activity_id ?? null,
    value: snapshot.value ?? null,
    alarmName: snapshot.alarm_name ?? null,
    min: snapshot.minimum_condition ?? null,
    max: snapshot.maximum_condition ?? null,
    now,
  };
  const insert = `INSERT INTO alerts (client_id, patient_id, alert_type, status, priority, clinical_element, description, alarm_id, measurement_id, activity_id,
       value, alarm_name, minimum_condition, maximum_condition, created_at, updated_at)
     VALUES (:client, :patient, :type, 1, :priority, :element, :description, :alarm, :measurement, :activity, :value, :alarmName, :min, :max, :now, :now)`;
  const hook = (id: number) =>
    runAlertHooks(ctx, {
      id,
      client_id: input.client_id,
      patient_id: input.patient_id,
      alert_type: input.alert_type,
      priority: input.priority,
      clinical_element: input.clinical_element ?? null,
      alarm_id: input.alarm_id ?? null,
      measurement_id: input.measurement_id ?? null,
    });
  if (input.alarm_id == null) {
    const id = await insertReturningId(sequelize, `${insert} RETURNING id`, replacements, transaction);
    await hook(id);
    return { id, created: true };
  }
  const inserted = await execute(
    sequelize,
    `${insert} ON CONFLICT (patient_id, alarm_id) WHERE status = ${ALERT_STATUS.open} AND alarm_id IS NOT NULL DO NOTHING`,
    replacements,
    transaction,
  );
  const [existing] = await select<{ id: number }>(
    sequelize,
    `SELECT id FROM alerts WHERE patient_id = :patient AND alarm_id = :alarm AND status = ${ALERT_STATUS.open}`,
    replacements,
    transaction,
  );
  if (!existing) throw new Error('openAlert: conflicting open alert vanished');
  const id = Number(existing.id);
  if (inserted === 1) await hook(id);
  return { id, created: inserted === 1 };
}

/**
 * Opens an alert (status 1) and answers its id. Shared by the alarm engine (type 0), the activity
 * scheduler (types 1 and 2), the stale-data check (type 1) and the assistant (type 3). With an
 * alarm_id, an alert already open for that patient and rule is answered instead of a new one.
 */
export async function raiseAlert(ctx: RaiseAlertContext, input: RaiseAlertInput): Promise<number> {
  return (await openAlert(ctx, input)).id;
}
