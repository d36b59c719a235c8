import type { QueryInterface, Transaction } from 'sequelize';
import type { SeedDeps } from '../api/src/seed-deps.js';
import { brokenRules, ALERT_STATUS } from '@vigia/contract/rules/alarms';
import { PATIENT_STATUS } from '@vigia/contract/rules/access';

/**
 * Demo alarm rules, their assignment and alerts (02 §2.7–2.10): every client gets six rules
 * assigned to its active patients; every demo reading that leaves a range has its alert, raised
 * the way the engine does (D10: a reading opens one unless the rule's alert is open at that moment,
 * then it attaches). Alerts older than two days are closed with a nurse's entries; the recent ones
 * stay open for the manager. tests/api/demo-alerts.test.ts checks every reading against the rules.
 */
const RULES = [
  { name: 'Taquicardia o bradicardia', clinical_element: 1, priority: 1, min: 50, max: 110, defaultNew: true, ia: false },
  { name: 'Desaturación', clinical_element: 2, priority: 1, min: 90, max: 100, defaultNew: true, ia: true },
  {
    name: 'Presión sistólica fuera de rango',
    clinical_element: 3,
    priority: 2,
    min: 90,
    max: 140,
    defaultNew: true,
    ia: false,
    hta: false,
  },
  {
    name: 'Presión diastólica fuera de rango',
    clinical_element: 4,
    priority: 2,
    min: 60,
    max: 90,
    defaultNew: false,
    ia: false,
    hta: false,
  },
  // Patients tagged HIPERTENSIÓN live around 140/87 (demo.rules): their own blood-pressure rules
  // alert on a crisis, not on every reading of their usual level.
  {
    name: 'Presión sistólica en hipertensión',
    clinical_element: 3,
    priority: 2,
    min: 90,
    max: 160,
    defaultNew: false,
    ia: false,
    hta: true,
  },
  {
    name: 'Presión diastólica en hipertensión',
    clinical_element: 4,
    priority: 2,
    min: 60,
    max: 100,
    defaultNew: false,
    ia: false,
    hta: true,
  },
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

export async function seedDemoAlerts(
  deps: SeedDeps,
  qi: QueryInterface,
  now: Date,
  transaction: Transaction,
): Promise<{ rules: number; alerts: number }> {
  const { execute, insertReturningId, select } = deps.sql;
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
      hta?: boolean;
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
        hta: 'hta' in r ? r.hta : undefined,
      });
      ruleCount++;
    }
    const patients = await select<{ id: number; hta: number }>(
      sequelize,
      `SELECT p.id, (SELECT COUNT(*) FROM patient_tags pt JOIN tags t ON t.id = pt.tag_id
                      WHERE pt.patient_id = p.id AND t.name = 'HIPERTENSIÓN') AS hta
       FROM patients p WHERE p.client_id = :c AND p.status = ${PATIENT_STATUS.active} ORDER BY p.id`,
      { c: client.id },
      transaction,
    );
    if (!patients.length) continue;
    const assigned = new Map(
      patients.map((p) => [Number(p.id), rules.filter((r) => r.hta === undefined || r.hta === Number(p.hta) > 0)] as const),
    );
    await qi.bulkInsert(
      'patient_alarms',
      patients.flatMap((p) => assigned.get(Number(p.id))!.map((r) => ({ patient_id: p.id, alarm_id: r.id }))),
      { transaction },
    );
    const staff = await select<{ id: number; first_name: string; last_name: string }>(
      sequelize,
      "SELECT id, first_name, last_name FROM users WHERE client_id = :c AND role_name IN ('enfermeria', 'medico') ORDER BY id",
      { c: client.id },
      transaction,
    );
    // Every reading, oldest first, goes through the engine's rule (D10, alarms.rules planAlarmActions):
    // a reading outside a rule's range opens an alert for that rule unless one is open at that
    // moment, in which case it attaches to it. The demo story only decides when an alert is closed.
    const readings = await select<{ id: number; patient_id: number; clinical_element: number; value: number; when: string }>(
      sequelize,
      `SELECT m.id, m.patient_id, m.clinical_element, m.value, m."when" FROM measurements m
       WHERE m.client_id = :c AND m.patient_id IN (SELECT patient_id FROM patient_alarms) ORDER BY m."when", m.id`,
      { c: client.id },
      transaction,
    );
    /** Per patient and rule: the last alert and when it was closed (null while open). */
    const last = new Map<string, { id: number; closedAt: number | null }>();
    let openCount = 0;
    for (const m of readings) {
      const when = new Date(m.when);
      const own = assigned.get(Number(m.patient_id)) ?? [];
      for (const rule of brokenRules({ clinical_element: Number(m.clinical_element), value: Number(m.value) }, own)) {
        const key = `${m.patient_id}:${rule.id}`;
        const current = last.get(key);
        if (current && (current.closedAt === null || when.getTime() < current.closedAt)) {
          await execute(
            sequelize,
            'INSERT INTO alert_measurements (alert_id, measurement_id) VALUES (:a, :m)',
            { a: current.id, m: m.id },
            transaction,
          );
          continue;
        }
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
        // Alerts of the last two days stay open for the manager (at most MAX_OPEN_PER_CLIENT); the
        // others were handled within a few hours by a nurse or doctor.
        const recent = now.getTime() - when.getTime() <= 2 * DAY;
        if ((recent && openCount < MAX_OPEN_PER_CLIENT) || !staff.length) {
          last.set(key, { id, closedAt: null });
          openCount++;
          continue;
        }
        // One or two entries, then closed (one in three was a false alarm).
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
        last.set(key, { id, closedAt: at });
      }
    }
  }
  return { rules: ruleCount, alerts: alertCount };
}
