import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brokenRules, ALARM_STATUS, ALERT_STATUS } from '@vigia/contract/rules/alarms';
import { select } from '../../api/src/db/sql.js';
import { seedDeps } from '../../api/src/seed-deps.js';
import { seedDemo } from '../../seeds/demo.js';
import { startTestProduct, type TestProduct } from '../support/product.js';

/**
 * The demo obeys the product's rules (issue 19): every demo reading outside one of its patient's
 * assigned, active alarm rules has an alert for that rule, raised by it or attached to the alert
 * open at that moment (D10), like a reading stored through the API.
 */
describe('demo data and the alarm engine', () => {
  let t: TestProduct;
  const now = new Date('2026-11-20T15:00:00Z');

  beforeAll(async () => {
    t = await startTestProduct({ now: () => now });
    await seedDemo(seedDeps, t.sequelize.getQueryInterface(), { now });
  }, 180_000);
  afterAll(async () => t?.stop());

  interface Rule {
    id: number;
    patient_id: number;
    clinical_element: number;
    minimum_condition: number;
    maximum_condition: number;
  }
  interface Alert {
    id: number;
    patient_id: number;
    alarm_id: number;
    measurement_id: number;
    status: number;
    created_at: string;
    closed_at: string | null;
  }

  it('gives every out-of-range reading an alert of the broken rule, open or closed', async () => {
    const rules = (
      await select<Rule>(
        t.sequelize,
        `SELECT a.id, pa.patient_id, a.clinical_element, a.minimum_condition, a.maximum_condition
         FROM patient_alarms pa JOIN alarms a ON a.id = pa.alarm_id WHERE a.status = ${ALARM_STATUS.active}`,
      )
    ).map((r) => ({
      ...r,
      id: Number(r.id),
      patient_id: Number(r.patient_id),
      minimum_condition: Number(r.minimum_condition),
      maximum_condition: Number(r.maximum_condition),
    }));
    const readings = await select<{ id: number; patient_id: number; clinical_element: number; value: number; when: string }>(
      t.sequelize,
      'SELECT id, patient_id, clinical_element, value, "when" FROM measurements ORDER BY "when", id',
    );
    const alerts = await select<Alert>(
      t.sequelize,
      'SELECT id, patient_id, alarm_id, measurement_id, status, created_at, closed_at FROM alerts WHERE alarm_id IS NOT NULL',
    );
    const links = await select<{ alert_id: number; measurement_id: number }>(
      t.sequelize,
      'SELECT alert_id, measurement_id FROM alert_measurements',
    );
    const alertById = new Map(alerts.map((a) => [Number(a.id), a]));
    /** measurement id → the rule ids of the alerts it raised or is attached to. */
    const covered = new Map<number, Set<number>>();
    const cover = (measurementId: number, alert: Alert | undefined) => {
      if (!alert) return;
      const set = covered.get(Number(measurementId)) ?? new Set<number>();
      set.add(Number(alert.alarm_id));
      covered.set(Number(measurementId), set);
    };
    for (const a of alerts) cover(a.measurement_id, a);
    for (const l of links) cover(l.measurement_id, alertById.get(Number(l.alert_id)));

    const byPatient = new Map<number, Rule[]>();
    for (const r of rules) byPatient.set(r.patient_id, [...(byPatient.get(r.patient_id) ?? []), r]);

    const missing: string[] = [];
    let outOfRange = 0;
    for (const m of readings) {
      const own = byPatient.get(Number(m.patient_id)) ?? [];
      for (const rule of brokenRules({ clinical_element: Number(m.clinical_element), value: Number(m.value) }, own)) {
        outOfRange++;
        if (!covered.get(Number(m.id))?.has(rule.id))
          missing.push(`reading ${m.id} (${m.value}) of patient ${m.patient_id}, rule ${rule.id}`);
      }
    }
    expect(outOfRange).toBeGreaterThan(0);
    expect(missing.slice(0, 20), `${missing.length} out-of-range readings without their alert`).toEqual([]);

    // And no alert without its reason: its reading breaks that rule, assigned to that patient.
    const valueOf = new Map(readings.map((m) => [Number(m.id), m]));
    const unfounded = alerts.filter((a) => {
      const m = valueOf.get(Number(a.measurement_id));
      const rule = (byPatient.get(Number(a.patient_id)) ?? []).find((r) => r.id === Number(a.alarm_id));
      return !m || !rule || !brokenRules({ clinical_element: Number(m.clinical_element), value: Number(m.value) }, [rule]).length;
    });
    expect(unfounded.slice(0, 20), `${unfounded.length} alerts without an out-of-range reading of an assigned rule`).toEqual([]);

    // D10: at most one open alert per patient and rule, and an attached reading came while its alert was open.
    const open = alerts.filter((a) => Number(a.status) === ALERT_STATUS.open);
    expect(new Set(open.map((a) => `${a.patient_id}:${a.alarm_id}`)).size).toBe(open.length);
    const whenOf = new Map(readings.map((m) => [Number(m.id), new Date(m.when).getTime()]));
    for (const l of links) {
      const a = alertById.get(Number(l.alert_id))!;
      const at = whenOf.get(Number(l.measurement_id))!;
      expect(at).toBeGreaterThanOrEqual(new Date(a.created_at).getTime());
      if (a.closed_at) expect(at).toBeLessThan(new Date(a.closed_at).getTime());
    }
  });
});
