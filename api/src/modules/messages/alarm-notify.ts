import { select } from '../../db/sql.js';
import type { AlertHook } from '../alerts/hooks.js';

/** Job kind of the patient's message for an ia_alarm rule (handled in assistant.service.ts). */
export const ALARM_MESSAGE_JOB = 'assistant.alarm';

/**
 * Alarm rules with ia_alarm message the patient (ia_script / prompt_ia) when they fire: the message
 * is composed and sent by a durable job queued in the alert's own transaction, so it exists only
 * if the alert does, and a model or channel outage only delays it.
 */
export const notifyPatientOfAlarm: AlertHook = async (ctx, alert) => {
  if (!alert.alarm_id) return;
  const [alarm] = await select<{ ia_alarm: boolean | number }>(
    ctx.sequelize,
    'SELECT ia_alarm FROM alarms WHERE id = :id AND client_id = :clientId',
    {
      id: alert.alarm_id,
      clientId: alert.client_id,
    },
    ctx.transaction,
  );
  if (!alarm || !alarm.ia_alarm) return;
  await ctx.jobs.enqueue(
    {
      kind: ALARM_MESSAGE_JOB,
      payload: { alert_id: alert.id },
      key: `${ALARM_MESSAGE_JOB}:${alert.id}`,
      clientId: alert.client_id,
      maxAttempts: 5,
    },
    ctx.transaction,
  );
};
