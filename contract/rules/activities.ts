/**
 * The one activity generator (D12): a pure function of an order and the patient's IANA time zone
 * that answers the order's activity times in UTC. Single scheduling, bulk creation, the permanent
 * orders' rolling horizon (D11) and the bulk dialog's summary and calendar preview all call it, so
 * the counts the dialog shows are the ones the server creates.
 *
 * Times are wall-clock times in the patient's zone (D5): a 08:00 activity stays at 08:00 local
 * across a daylight-saving change, and "every 8 hours" keeps 08:00, 16:00, 00:00 local.
 */

import { addDays, localParts, localToUtc, weekdayOf } from './dates';
import { CLINICAL_ELEMENTS } from './vitals';

export const ORDER_TYPE = { measurement: 0, medication: 1 } as const;
export const ORDER_STATUS = { unmanaged: 0, scheduled: 1, running: 2, cancelled: 3, completed: 4 } as const;
export const ORDER_STATUS_NAMES: Record<number, string> = {
  0: 'No Gestionada',
  1: 'Programada',
  2: 'En ejecución',
  3: 'Cancelada',
  4: 'Completada',
};
export const ORDER_TYPE_NAMES: Record<number, string> = { 0: 'Signos Vitales', 1: 'Medicamentos' };
export const ACTIVITY_STATUS = {
  scheduled: 0,
  inProgress: 1,
  completed: 2,
  cancelled: 3,
  failed: 4,
  suspended: 5,
  notReported: 6,
} as const;
/** Activities the lifecycle still moves (activityStatusAt): Programada and En proceso. */
export const PENDING_ACTIVITY_STATUSES = [ACTIVITY_STATUS.scheduled, ACTIVITY_STATUS.inProgress] as const;
/** Orders the lifecycle still moves (orderStatusAt): Programada and En ejecución. */
export const LIVE_ORDER_STATUSES = [ORDER_STATUS.scheduled, ORDER_STATUS.running] as const;
export const ACTIVITY_STATUS_NAMES: Record<number, string> = {
  0: 'Programada',
  1: 'En proceso',
  2: 'Completada',
  3: 'Cancelada',
  4: 'Fallida',
  5: 'Suspendida',
  6: 'No reportada',
};
/** Clinical elements an order measures (D6); blood pressure is one order for both readings (3 and 4). */
export const ORDER_ELEMENT_NAMES: Record<number, string> = {
  ...Object.fromEntries(CLINICAL_ELEMENTS.map((e) => [e.id, e.name])),
  3: 'Presión arterial',
  4: 'Presión arterial',
};
/** The choices the order forms offer (4 is reached through 3). */
export const ORDER_ELEMENTS = [1, 2, 3, 5, 6, 7] as const;
export const MEDICATION_UNITS: Record<number, string> = {
  0: 'cc',
  1: 'mL',
  2: 'UI',
  3: 'tableta(s)',
  4: 'gragea(s)',
  5: 'cápsula(s)',
  6: 'gota(s)',
};
export const DOSE_AMOUNTS = ['1/4', '1/2', '1', '1 1/2', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12'] as const;
export const TIME_UNITS: Record<number, string> = { 0: 'Horas', 1: 'Días', 2: 'Semanas' };
export const FREQUENCY_TYPES: Record<number, string> = { 0: 'Diario', 1: 'Semanal' };
export const WEEKDAYS = ['Domingo', 'Lunes', 'Martes', 'Miércoles', 'Jueves', 'Viernes', 'Sábado'] as const;
export const ALL_DAYS = [0, 1, 2, 3, 4, 5, 6] as const;
/** 24 hourly slots 00:00 to 23:00 for vital-sign orders. */
export const HOUR_SLOTS = Array.from({ length: 24 }, (_, h) => `${String(h).padStart(2, '0')}:00`);
/** An activity is 'En proceso' from its time for one hour (D11). */
export const ACTIVITY_WINDOW_MS = 60 * 60_000;
/** Permanent orders keep this many days of activities ahead (D11). */
export const PERMANENT_HORIZON_DAYS = 30;
/** Bulk and single medication orders that only carry a start date take their first dose at this local time (P51). */
export const DEFAULT_FIRST_DOSE = '08:00';

export interface MedicationSchedule {
  order_type: 1;
  /** Every `frecuency` hours (time_unit 0), days (1) or weeks (2). */
  frecuency: number;
  time_unit: number;
  /** Days of treatment. */
  during: number;
  permanent?: boolean;
}

export interface VitalSignSchedule {
  order_type: 0;
  /** 0 daily, 1 on the selected weekdays. */
  frequency_type: number;
  /** 0 Sunday to 6 Saturday; ignored when daily. */
  days: number[];
  /** 'HH:MM' local times. */
  hours: string[];
  /** Days when daily, weeks when weekly (02 §9). */
  during: number;
  permanent?: boolean;
}

export type OrderSchedule = MedicationSchedule | VitalSignSchedule;

/** Where the schedule starts, in the patient's zone. */
export interface LocalStart {
  /** 'YYYY-MM-DD' */
  date: string;
  /** 'HH:MM', the first dose of a medication order; vital-sign orders use their own hours. */
  time: string;
}

export interface GenerateOptions {
  /** Times before this instant are left out (an order created today at 15:00 does not get 08:00). */
  notBefore?: Date;
  /** Required for permanent orders: no time after this instant (now + 30 days, D11). */
  until?: Date;
}

// Time in the patient's zone is dates.ts's; these names stay importable from here for the callers.
export { addDays, localParts, localToUtc, weekdayOf } from './dates';

export function minutesOf(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number);
  return h * 60 + (m || 0);
}

export function isHour(value: unknown): value is string {
  return typeof value === 'string' && /^([01]\d|2[0-3]):[0-5]\d$/.test(value);
}

/** 02 §5: daily means all seven days; otherwise the selected days, sorted and without repeats. */
export function normaliseDays(frequencyType: number, days: readonly number[] | null | undefined): number[] {
  if (frequencyType === 0) return [...ALL_DAYS];
  return [...new Set(days ?? [])].filter((d) => Number.isInteger(d) && d >= 0 && d <= 6).sort((a, b) => a - b);
}

export function normaliseHours(hours: readonly string[] | null | undefined): string[] {
  return [...new Set(hours ?? [])].filter(isHour).sort();
}

// ── The formulas of 02 §9 ──

/** Number of activities of a medication order: hours = floor(24 / f × days); days = floor(days / f); weeks = floor(days / (7 f)). */
export function medicationActivityCount(o: Pick<MedicationSchedule, 'frecuency' | 'time_unit' | 'during'>): number {
  const f = o.frecuency;
  if (!(f > 0) || !(o.during > 0)) return 0;
  if (o.time_unit === 0) return Math.floor((24 * o.during) / f);
  if (o.time_unit === 2) return Math.floor(o.during / (7 * f));
  return Math.floor(o.during / f);
}

/** Units taken (02 §9 "dose count"): the activity count × amount ('1/4', '1 1/2', '2'…). */
export function doseCount(o: Pick<MedicationSchedule, 'frecuency' | 'time_unit' | 'during'> & { amount: string }): number {
  return medicationActivityCount(o) * parseAmount(o.amount);
}

export function parseAmount(amount: string | null | undefined): number {
  const text = String(amount ?? '').trim();
  let total = 0;
  for (const part of text.split(/\s+/)) {
    const frac = /^(\d+)\/(\d+)$/.exec(part);
    if (frac) total += Number(frac[1]) / Number(frac[2]);
    else if (/^\d+(\.\d+)?$/.test(part)) total += Number(part);
    else return NaN;
  }
  return total;
}

/** Vital-sign activities: daily = days × hours; weekly = weeks × selected days × hours (weeks = duration). */
export function vitalSignActivityCount(o: Pick<VitalSignSchedule, 'frequency_type' | 'days' | 'hours' | 'during'>): number {
  const hours = normaliseHours(o.hours).length;
  if (!(o.during > 0)) return 0;
  if (o.frequency_type === 0) return o.during * hours;
  return o.during * normaliseDays(1, o.days).length * hours;
}

export function activityCount(o: OrderSchedule): number {
  return o.order_type === 1 ? medicationActivityCount(o) : vitalSignActivityCount(o);
}

/** Calendar days an order spans: weekly vital-sign durations are weeks (× 7). */
export function durationDays(o: OrderSchedule): number {
  return o.order_type === 0 && o.frequency_type === 1 ? o.during * 7 : o.during;
}

// ── The generator ──

/** Every activity time of the order, ascending, in UTC. */
export function generateActivityTimes(o: OrderSchedule, start: LocalStart, timeZone: string, opts: GenerateOptions = {}): Date[] {
  if (o.permanent && !opts.until) throw new Error('Una orden permanente necesita un horizonte (until).');
  const out: Date[] = [];
  const keep = (t: Date) => !opts.notBefore || t.getTime() >= opts.notBefore.getTime();
  const past = (t: Date) => !!opts.until && t.getTime() > opts.until.getTime();
  if (o.order_type === 1) {
    const n = o.permanent ? Infinity : medicationActivityCount(o);
    const stepMin = o.time_unit === 0 ? o.frecuency * 60 : o.time_unit === 2 ? o.frecuency * 7 * 1440 : o.frecuency * 1440;
    if (!(stepMin > 0)) return out;
    const first = minutesOf(start.time);
    for (let i = 0; i < n; i++) {
      const total = first + i * stepMin;
      const t = localToUtc(addDays(start.date, Math.floor(total / 1440)), total % 1440, timeZone);
      if (past(t)) break;
      if (keep(t)) out.push(t);
    }
    return out;
  }
  const hours = normaliseHours(o.hours).map(minutesOf);
  const days = new Set(normaliseDays(o.frequency_type, o.days));
  if (!hours.length || !days.size) return out;
  const span = o.permanent ? Infinity : durationDays(o);
  for (let d = 0; d < span; d++) {
    const date = addDays(start.date, d);
    if (opts.until && localToUtc(date, 0, timeZone).getTime() > opts.until.getTime()) break;
    if (!days.has(weekdayOf(date))) continue;
    for (const m of hours) {
      const t = localToUtc(date, m, timeZone);
      if (past(t)) break;
      if (keep(t)) out.push(t);
    }
  }
  return out;
}

/** The start of an order from its `start_at` instant, read in the patient's zone. */
export function startFromInstant(startAt: Date, timeZone: string): LocalStart {
  const p = localParts(startAt, timeZone);
  return { date: p.date, time: p.time };
}

/** Bulk items carry the day as 'YYYY-MM-DDT00:00:00Z' (02 §5): the day is the local date; the first dose 08:00. */
export function startFromBulkDate(startAt: string): LocalStart {
  return { date: startAt.slice(0, 10), time: DEFAULT_FIRST_DOSE };
}

/**
 * Where a bulk order starts (02 §5): its 'Fecha de inicio' at the first dose's time, and a date
 * already past in the patient's zone becomes today. The dialog's preview and the server both ask
 * this, so the counts the dialog shows are the ones the server creates.
 */
export function bulkStart(startAt: string, now: Date, timeZone: string): LocalStart {
  const start = startFromBulkDate(startAt);
  const today = localParts(now, timeZone).date;
  return start.date < today ? { ...start, date: today } : start;
}

export interface BulkSummary {
  orders: number;
  activities: number;
  /** Estimated duration in days: the longest order (02 §9). */
  duration: number;
  /** Activities per day over the estimated duration, one decimal. */
  averagePerDay: number;
}

/** The bulk dialog's summary, computed from the same generated times the server stores. */
export function summarise(timesPerOrder: Date[][], orders: OrderSchedule[]): BulkSummary {
  const activities = timesPerOrder.reduce((n, t) => n + t.length, 0);
  const duration = orders.reduce((max, o) => Math.max(max, durationDays(o)), 0);
  return { orders: orders.length, activities, duration, averagePerDay: duration ? Math.round((activities / duration) * 10) / 10 : 0 };
}

// ── Order lifecycle rules (D7, D11), pure ──

/** Progress shown on 'En ejecución': completed activities / activities due (time already reached), in %. */
export function orderProgress(completed: number, due: number): number {
  return due > 0 ? Math.round((completed / due) * 100) : 0;
}

/** The order status its activity times imply at `now` (only moves 1 → 2 → 4; 0 and 3 are left alone). */
export function orderStatusAt(status: number, firstAt: Date | null, lastAt: Date | null, permanent: boolean, now: Date): number {
  if (!(LIVE_ORDER_STATUSES as readonly number[]).includes(status)) return status;
  if (!firstAt) return status;
  if (!permanent && lastAt && lastAt.getTime() + ACTIVITY_WINDOW_MS <= now.getTime()) return ORDER_STATUS.completed;
  if (firstAt.getTime() <= now.getTime()) return ORDER_STATUS.running;
  return status;
}

/** What the scheduler does with an activity at `now`: 0 → 1 at its time, 1 → 6 when its hour has passed. */
export function activityStatusAt(status: number, programmedAt: Date, now: Date): number {
  const t = programmedAt.getTime();
  const n = now.getTime();
  if ((PENDING_ACTIVITY_STATUSES as readonly number[]).includes(status) && n >= t + ACTIVITY_WINDOW_MS) return ACTIVITY_STATUS.notReported;
  if (status === ACTIVITY_STATUS.scheduled && n >= t) return ACTIVITY_STATUS.inProgress;
  return status;
}

// ── Text ──

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The order's text (to_human). Permanent orders are shown with describeOrder. */
export function orderText(
  o:
    | (MedicationSchedule & { amount: string; medication_unit: number; medicine_name: string })
    | (VitalSignSchedule & { clinical_element_name: string }),
): string {
  if (o.order_type === 1) {
    const amount = o.amount.includes('/') ? `${o.amount} de` : o.amount;
    const every =
      o.time_unit === 0
        ? plural(o.frecuency, 'hora', 'horas')
        : o.time_unit === 2
          ? plural(o.frecuency, 'semana', 'semanas')
          : plural(o.frecuency, 'día', 'días');
    return `Tomar ${amount} ${MEDICATION_UNITS[o.medication_unit] ?? ''} de ${o.medicine_name} cada ${every} durante ${plural(o.during, 'día', 'días')}`.replace(
      /\s+/g,
      ' ',
    );
  }
  const hours = normaliseHours(o.hours).join(', ');
  if (o.frequency_type === 0)
    return `Medir ${o.clinical_element_name} todos los días a las ${hours} durante ${plural(o.during, 'día', 'días')}`;
  const days = normaliseDays(1, o.days)
    .map((d) => WEEKDAYS[d].toLowerCase())
    .join(', ');
  return `Medir ${o.clinical_element_name} los días ${days} a las ${hours} durante ${plural(o.during, 'semana', 'semanas')}`;
}

/** 02 §2.5: permanent → the text before 'durante' + ', por tiempo indefinido.'; otherwise the text + '.'. */
export function describeOrder(toHuman: string | null | undefined, permanent: boolean): string | null {
  if (!toHuman) return null;
  if (permanent) {
    const i = toHuman.indexOf('durante');
    const head = (i >= 0 ? toHuman.slice(0, i) : toHuman).trim();
    return `${head}, por tiempo indefinido.`;
  }
  return `${toHuman}.`;
}
