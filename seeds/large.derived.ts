/**
 * The benchmark's alarm rules, their assignments, alerts, orders and activities (issue 7), built
 * per batch of patients by seeds/large.ts as multi-row INSERT text. Deterministic: every draw comes
 * from the batch's rng, and every time is relative to the seed's `now`.
 *
 * Shapes (per patient, on average): one alarm rule assigned per element the patient measures,
 * `alertsPerPatient` alerts over the last year (only the newest per rule may be open, as the
 * unique index of D10 requires), `ordersPerPatient` vital-signs orders of `activitiesPerOrder`
 * daily activities (past ones completed or not reported, future ones scheduled).
 */
import { ACTIVITY_STATUS, ORDER_STATUS, ORDER_TYPE } from '@vigia/contract/rules/activities';
import { ALERT_STATUS, elementName } from '@vigia/contract/rules/alarms';
import type { DemoPatient } from './demo.rules.js';
import type { Rng } from './random.js';

export interface DerivedOptions {
  alertsPerPatient: number;
  ordersPerPatient: number;
  activitiesPerOrder: number;
}

export interface BenchAlarm {
  id: number;
  element: number;
  name: string;
  priority: number;
  min: number;
  max: number;
}

/** One rule per clinical element: name, priority (1 Alta, 2 Media, 3 Baja) and range. */
const ALARM_SHAPES: Array<[element: number, priority: number, min: number, max: number]> = [
  [1, 2, 50, 120],
  [2, 1, 90, 100],
  [3, 1, 90, 160],
  [4, 2, 50, 100],
  [5, 3, 30, 150],
  [6, 2, 70, 250],
  [7, 3, 35, 38],
];

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

type Fmt = (d: Date) => string;
const q = (s: string) => `'${s.replace(/'/g, "''")}'`;

export function buildAlarms(firstId: number): BenchAlarm[] {
  return ALARM_SHAPES.map(([element, priority, min, max], i) => ({
    id: firstId + i,
    element,
    priority,
    min,
    max,
    name: `${elementName(element)} fuera de rango`,
  }));
}

export function alarmInserts(clientId: number, alarms: BenchAlarm[], nowText: string): string {
  const tuples = alarms.map(
    (a) => `(${a.id},${clientId},${q(a.name)},1,${a.element},${a.priority},${a.min},${a.max},FALSE,FALSE,TRUE,1,'${nowText}','${nowText}')`,
  );
  return `INSERT INTO "alarms" ("id","client_id","name","type","clinical_element","priority","minimum_condition","maximum_condition","ia_alarm","request_repeat_measurement","alarm_default_new_patients","status","created_at","updated_at") VALUES ${tuples.join(',')}`;
}

export interface DerivedContext {
  clientId: number;
  adminUserId: number;
  now: Date;
  alarms: Map<number, BenchAlarm>;
  /** Next free order id (orders get explicit ids so their activities can name them). */
  nextOrderId: () => number;
  fmt: Fmt;
}

export interface DerivedRows {
  patientAlarms: string[];
  alerts: string[];
  orders: string[];
  activities: string[];
}

/** Tuples (without the INSERT head) for one batch; see `derivedStatements` for the heads. */
export function buildDerivedRows(
  rng: Rng,
  batch: Array<{ id: number; patient: DemoPatient }>,
  ctx: DerivedContext,
  o: DerivedOptions,
): DerivedRows {
  const out: DerivedRows = { patientAlarms: [], alerts: [], orders: [], activities: [] };
  const nowMs = ctx.now.getTime();
  const { fmt } = ctx;
  for (const { id, patient } of batch) {
    const elements = patient.profile.elements.map((e) => (e === 0 ? 1 : e)).filter((e) => ctx.alarms.has(e));
    if (!elements.length) continue;
    const rules = elements.map((e) => ctx.alarms.get(e)!);
    for (const a of rules) out.patientAlarms.push(`(${id},${a.id})`);
    const until = Math.min(nowMs, patient.measuredUntil.getTime());
    const from = Math.max(nowMs - 365 * DAY_MS, patient.measuredFrom.getTime());
    if (until <= from) continue;

    // Alerts: a Poisson-ish count around the mean, times spread over the patient's last year.
    const count = o.alertsPerPatient <= 0 ? 0 : rng.int(0, 2 * o.alertsPerPatient);
    const alerts: Array<{ at: number; rule: BenchAlarm }> = [];
    for (let k = 0; k < count; k++) alerts.push({ at: Math.floor(rng.float(from, until)), rule: rng.pick(rules) });
    alerts.sort((x, y) => x.at - y.at);
    const newest = new Map<number, number>();
    alerts.forEach((a, k) => newest.set(a.rule.id, k));
    alerts.forEach((a, k) => {
      const open = newest.get(a.rule.id) === k && patient.row.status === 1 && rng.chance(0.3);
      const high = rng.chance(0.5);
      const value = high
        ? a.rule.max + Math.max(1, Math.round(a.rule.max * rng.float(0.02, 0.2)))
        : Math.max(0, a.rule.min - Math.max(1, Math.round(a.rule.min * rng.float(0.02, 0.2))));
      const created = fmt(new Date(a.at));
      const closedAt = open ? 'NULL' : `'${fmt(new Date(Math.min(nowMs, a.at + rng.int(1, 48) * HOUR_MS)))}'`;
      const closeType = open ? 'NULL' : rng.chance(0.8) ? "'true_alert'" : "'false_alert'";
      out.alerts.push(
        `(${ctx.clientId},${id},0,${open ? ALERT_STATUS.open : ALERT_STATUS.closed},${a.rule.priority},${a.rule.element},${q(`Valor ${value} fuera del rango ${a.rule.min}–${a.rule.max}`)},${a.rule.id},${value},${q(a.rule.name)},${a.rule.min},${a.rule.max},${closeType},${open ? 'NULL' : ctx.adminUserId},${closedAt},'${created}',${open ? `'${created}'` : closedAt})`,
      );
    });

    // Orders: daily vital-signs orders at 08:00 UTC-5, their activities one per day.
    for (let k = 0; k < o.ordersPerPatient; k++) {
      const orderId = ctx.nextOrderId();
      const element = rng.pick(elements);
      const during = Math.max(1, o.activitiesPerOrder);
      const startDay = Math.floor(rng.float(Math.max(from, nowMs - 60 * DAY_MS), nowMs + 7 * DAY_MS) / DAY_MS) * DAY_MS;
      const firstAt = startDay + 13 * HOUR_MS;
      const lastAt = firstAt + (during - 1) * DAY_MS;
      const status = lastAt + HOUR_MS <= nowMs ? ORDER_STATUS.completed : firstAt <= nowMs ? ORDER_STATUS.running : ORDER_STATUS.scheduled;
      const startText = fmt(new Date(firstAt));
      out.orders.push(
        `(${orderId},${ctx.clientId},${id},${ctx.adminUserId},${ORDER_TYPE.measurement},${status},TRUE,FALSE,${element},${during},0,'[]','["08:00"]','${startText}',${q(`${elementName(element)}: diario a las 08:00 durante ${during} días`)},'${startText}','${startText}')`,
      );
      for (let d = 0; d < during; d++) {
        const at = firstAt + d * DAY_MS;
        const text = fmt(new Date(at));
        let st: number = ACTIVITY_STATUS.scheduled;
        let completed = 'NULL';
        if (at + HOUR_MS <= nowMs) {
          if (rng.chance(patient.profile.adherence)) {
            st = ACTIVITY_STATUS.completed;
            completed = `'${fmt(new Date(at + rng.int(0, 50) * 60_000))}'`;
          } else st = ACTIVITY_STATUS.notReported;
        } else if (at <= nowMs) st = ACTIVITY_STATUS.inProgress;
        out.activities.push(`(${ctx.clientId},${id},${orderId},'${text}','${text}',${st},${completed},'${startText}','${startText}')`);
      }
    }
  }
  return out;
}

const HEADS: Record<keyof DerivedRows, string> = {
  patientAlarms: 'INSERT INTO "patient_alarms" ("patient_id","alarm_id") VALUES ',
  alerts:
    'INSERT INTO "alerts" ("client_id","patient_id","alert_type","status","priority","clinical_element","description","alarm_id","value","alarm_name","minimum_condition","maximum_condition","close_type","closed_by","closed_at","created_at","updated_at") VALUES ',
  orders:
    'INSERT INTO "orders" ("id","client_id","patient_id","user_id","order_type","status","notify","permanent","clinical_element","during","frequency_type","days","hours","start_at","to_human","created_at","updated_at") VALUES ',
  activities:
    'INSERT INTO "activities" ("client_id","patient_id","order_id","slot_at","programmed_at","status","completed_at","created_at","updated_at") VALUES ',
};

export function derivedStatements(rows: DerivedRows, rowsPerStatement: number): string[] {
  const out: string[] = [];
  // Orders before activities (foreign key).
  for (const key of ['patientAlarms', 'alerts', 'orders', 'activities'] as const) {
    const list = rows[key];
    for (let s = 0; s < list.length; s += rowsPerStatement) out.push(HEADS[key] + list.slice(s, s + rowsPerStatement).join(','));
  }
  return out;
}
