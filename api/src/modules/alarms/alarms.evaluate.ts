import type { Sequelize, Transaction } from 'sequelize';
import { select } from '../../db/sql.js';
import type { MeasurementHook, MeasurementHookContext, StoredMeasurement } from '../measurements/hooks.js';
import { openAlert } from '../alerts/alerts.raise.js';
import { planAlarmActions, type Reading } from './alarms.rules.js';
import { ALARM_STATUS, ALERT_STATUS, ruleElements } from '@vigia/contract/rules/alarms';

/** A patient's active rule, with the rule's open alert for that patient if there is one. */
interface AssignedRule {
  id: number;
  patient_id: number;
  name: string;
  clinical_element: number;
  priority: number;
  minimum_condition: number;
  maximum_condition: number;
  open_alert_id: number | string | null;
}

export interface AlarmCheckDeps {
  /** Links readings to alerts already open: the alerts module writes alert_measurements. */
  attachReadings(sequelize: Sequelize, links: Array<[alertId: number, measurementId: number]>, transaction?: Transaction): Promise<void>;
}

/**
 * D10: checks each stored reading against the patient's alarm rules, inside the storing
 * transaction. One statement per batch, sent with the INSERT: the patients' active rules (by
 * patient) with each rule's open alert (by patient and rule: at most one, alerts_one_open_per_rule).
 * Nothing is cached, so nothing can leak between clients or go stale. The readings attached to
 * already open alerts are linked in one INSERT at the end (one per batch, not per reading).
 */
export const alarmsHook = (deps: AlarmCheckDeps): MeasurementHook<AssignedRule[]> => ({
  load: async (ctx, planned) => {
    const { sequelize, transaction } = ctx;
    const patientIds = [...new Set(planned.map((m) => m.patient_id))];
    // Issue 22: one statement instead of two; at a steady rate a group holds one reading, and each
    // statement is a round trip through the event loop (or the network, on PostgreSQL). Issue 52:
    // only the rules of the readings' elements (a patient of the full-size data set has ~30 rules,
    // each read with its open alert, where a reading can break two at most).
    return select<AssignedRule>(
      sequelize,
      `SELECT a.id, pa.patient_id, a.name, a.clinical_element, a.priority, a.minimum_condition, a.maximum_condition, al.id AS open_alert_id
       FROM patient_alarms pa JOIN alarms a ON a.id = pa.alarm_id
       LEFT JOIN alerts al ON al.patient_id = pa.patient_id AND al.alarm_id = a.id AND al.status = ${ALERT_STATUS.open} AND al.alarm_id IS NOT NULL
       WHERE pa.patient_id IN (:patientIds) AND a.clinical_element IN (:elements) AND a.status = ${ALARM_STATUS.active}`,
      { patientIds, elements: ruleElements(planned.map((m) => m.clinical_element)) },
      transaction,
    );
  },
  apply: (ctx, stored, loaded) => checkAlarms(deps, ctx, stored, loaded),
});

async function checkAlarms(
  deps: AlarmCheckDeps,
  ctx: MeasurementHookContext,
  stored: StoredMeasurement[],
  rules: AssignedRule[],
): Promise<void> {
  if (!rules.length) return;
  // Client by client, patient by patient, so a group opens its alerts in one fixed order.
  const byClient = [...stored].sort((x, y) => x.client_id - y.client_id || x.patient_id - y.patient_id);
  const patientIds = [...new Set(byClient.map((m) => m.patient_id))];
  const links: Array<[alertId: number, measurementId: number]> = [];
  for (const patientId of patientIds) {
    const own = rules
      .filter((r) => Number(r.patient_id) === patientId)
      .map((r) => ({
        ...r,
        id: Number(r.id),
        minimum_condition: Number(r.minimum_condition),
        maximum_condition: Number(r.maximum_condition),
      }));
    if (!own.length) continue;
    const openByRule = new Map(own.filter((r) => r.open_alert_id != null).map((r) => [r.id, Number(r.open_alert_id)]));
    const readings: Reading[] = stored.filter((m) => m.patient_id === patientId);
    const clientId = stored.find((m) => m.patient_id === patientId)!.client_id;
    for (const action of planAlarmActions(readings, own, openByRule)) {
      let alertId = action.kind === 'attach' ? (action.alertId ?? openByRule.get(action.rule.id) ?? null) : null;
      if (alertId == null) {
        const opened = await openAlert(
          ctx,
          {
            client_id: clientId,
            patient_id: patientId,
            alert_type: 0,
            priority: Number(action.rule.priority),
            clinical_element: action.reading.clinical_element,
            alarm_id: action.rule.id,
            measurement_id: action.reading.id,
          },
          {
            value: action.reading.value,
            alarm_name: action.rule.name,
            minimum_condition: action.rule.minimum_condition,
            maximum_condition: action.rule.maximum_condition,
          },
        );
        openByRule.set(action.rule.id, opened.id);
        if (opened.created) continue;
        alertId = opened.id;
      }
      links.push([alertId, action.reading.id]);
    }
  }
  await deps.attachReadings(ctx.sequelize, links, ctx.transaction);
}
