import type { QueryInterface, Transaction } from 'sequelize';
import { execute, insertReturningId, select } from '../api/src/db/sql.js';
import { brokenRules, ALERT_STATUS } from '@vigia/contract/rules/alarms';
import { PATIENT_STATUS } from '@vigia/contract/rules/access';

/**
 * Demo alarm rules, their assignment and alerts (02 §2.7–2.10): every client gets six rules
 * assigned to its active patients; the demo readings of the last 20 days that leave a range open
 * alerts the way the engine does (D10: later readings attach while open). Alerts older than two
 * days are closed with a nurse's entries; the recent ones stay open for the manager.
 */
const RULES = [
  { name: 'Taquicardia o bradicardia', clinical_element: 1, priority: 1, min: 50, max: 110, defaultNew: true, ia: false },
  { name: 'Desaturación', clinical_element: 2, priority: 1, min: 90, max: 100, defaultNew: true, ia: true },
  { name: 'Presión sistólica fuera de rango', clinical_element: 3, priority: 2, min: 90, max: 140, defaultNew: true, ia: false },
  { name: 'Presión diastólica fuera de rango', clinical_element: 4, priority: 2, min: 60, max: 90, defaultNew: false, ia: false },
  { name: 'Hiperglucemia', clinical_element: 6, priority: 3, min: 70, max: 180, defaultNew: false, ia: false },
  { name: 'Fiebre', clinical_element: 7, priority: 2, min: 35.5, max: 37.8, defaultNew: false, ia: false },
];
const ENTRIES = [
  'Se contacta al paciente por teléfono; refiere sentirse bien.',
  'Se solicita repetir la medición en reposo, el nuevo valor está en rango.',
  'Se informa al médico tratante, quien ajusta el tratamiento.',
];
const MAX_OPEN_PER_CLIENT = 12;
const DAY = 86_400_000;

export async function seedDemoAlerts(qi: QueryInterface, now: Date, transaction: Transaction): Promise<{ rules: number; alerts: number }> {
  const sequelize = qi.sequelize;
  const clients = await select<{ id: number }>(sequelize, 'SELECT id FROM clients ORDER BY id', {}, transaction);
  let ruleCount = 0;
  let alertCount = 0;
  for (const client of clients) {
    const rules: Array<{
      id: number;
      clinical_element: number;
      minimum_condition: number;
      maximum_condition: number;
      priority: number;
      name: string;
    }> = [];
    for (const r of RULES) {
      const id = await insertReturningId(
        sequelize,
        `INSERT INTO alarms (client_id, name, type, clinical_element, priority, minimum_condition, maximum_condition, ia_alarm, ia_script, prompt_ia,
           request_repeat_measurement, alarm_default_new_patients, status, created_at, updated_at)
         VALUES (:client, :name, 1, :element, :priority, :min, :max, :ia, :script, :prompt, :no, :defaultNew, 1, :now, :now) RETURNING id`,
        {
          client: client.id,
          name: r.name,
          element: r.clinical_element,
          priority: r.priority,
          min: r.min,
          max: r.max,
          ia: r.ia,
          script: r.ia ? 'alarma_predeterminada' : null,
          prompt: r.ia ? 'Pide al paciente repetir la medición en reposo y avisar si tiene dificultad para respirar.' : null,
          no: false,
          defaultNew: r.defaultNew,
          now,
        },
        transaction,
      );
      rules.push({
        id,
        clinical_element: r.clinical_element,
        minimum_condition: r.min,
        maximum_condition: r.max,
        priority: r.priority,
        name: r.name,
      });
      ruleCount++;
    }
    const patients = await select<{ id: number }>(
      sequelize,
      `SELECT id FROM patients WHERE client_id = :c AND status = ${PATIENT_STATUS.active} ORDER BY id`,
      { c: client.id },
      transaction,
    );
    if (!patients.length) continue;
    await qi.bulkInsert(
      'patient_alarms',
      patients.flatMap((p) => rules.map((r) => ({ patient_id: p.id, alarm_id: r.id }))),
      { transaction },
    );
    const staff = await select<{ id: number; first_name: string; last_name: string }>(
      sequelize,
      "SELECT id, first_name, last_name FROM users WHERE client_id = :c AND role_name IN ('enfermeria', 'medico') ORDER BY id",
      { c: client.id },
      transaction,
    );
    const readings = await select<{ id: number; patient_id: number; clinical_element: number; value: number; when: string }>(
      sequelize,
      `SELECT id, patient_id, clinical_element, value, "when" FROM measurements WHERE client_id = :c AND "when" >= :since AND "when" <= :now ORDER BY "when", id`,
      { c: client.id, since: new Date(now.getTime() - 20 * DAY), now },
      transaction,
    );
    const open = new Map<string, { id: number; closed: boolean; at: number }>();
    let openCount = 0;
    for (const m of readings) {
      const when = new Date(m.when);
      for (const rule of brokenRules({ clinical_element: Number(m.clinical_element), value: Number(m.value) }, rules)) {
        const key = `${m.patient_id}:${rule.id}`;
        const current = open.get(key);
        if (current && !current.closed) {
          await execute(
            sequelize,
            'INSERT INTO alert_measurements (alert_id, measurement_id) VALUES (:a, :m)',
            { a: current.id, m: m.id },
            transaction,
          );
          continue;
        }
        // A handled episode is not raised again the same day (keeps the demo history readable).
        if (current && when.getTime() - current.at < 3 * DAY) continue;
        const old = now.getTime() - when.getTime() > 2 * DAY;
        if (!old && openCount >= MAX_OPEN_PER_CLIENT) continue;
        const id = await insertReturningId(
          sequelize,
          `INSERT INTO alerts (client_id, patient_id, alert_type, status, priority, clinical_element, alarm_id, measurement_id, value, alarm_name,
             minimum_condition, maximum_condition, created_at, updated_at)
           VALUES (:c, :p, 0, 1, :priority, :element, :alarm, :m, :value, :name, :min, :max, :when, :when) RETURNING id`,
          {
            c: client.id,
            p: m.patient_id,
            priority: rule.priority,
            element: m.clinical_element,
            alarm: rule.id,
            m: m.id,
            value: m.value,
            name: rule.name,
            min: rule.minimum_condition,
            max: rule.maximum_condition,
            when,
          },
          transaction,
        );
        alertCount++;
        if (old && staff.length) {
          // Handled within a few hours: one or two entries, then closed (one in three was a false alarm).
          const author = staff[alertCount % staff.length];
          const entries = ENTRIES.slice(0, 1 + (alertCount % 2));
          let at = when.getTime();
          for (const text of entries) {
            at += 45 * 60_000;
            await execute(
              sequelize,
              'INSERT INTO alert_entries (alert_id, user_id, user_name, description, created_at) VALUES (:a, :u, :n, :d, :at)',
              { a: id, u: author.id, n: `${author.first_name} ${author.last_name}`, d: text, at: new Date(at) },
              transaction,
            );
          }
          await execute(
            sequelize,
            `UPDATE alerts SET status = ${ALERT_STATUS.closed}, close_type = :t, closed_by = :u, closed_at = :at, updated_at = :at WHERE id = :a`,
            { t: alertCount % 3 === 0 ? 'false_alert' : 'true_alert', u: author.id, at: new Date(at), a: id },
            transaction,
          );
          open.set(key, { id, closed: true, at: when.getTime() });
        } else {
          open.set(key, { id, closed: false, at: when.getTime() });
          openCount++;
        }
      }
    }
  }
  return { rules: ruleCount, alerts: alertCount };
}
