import { ADHERENCE_WINDOW_DAYS, adherenceBand, ADHERENCE_BANDS } from '@vigia/contract/rules/adherence';
import { ORDER_ELEMENT_NAMES } from '@vigia/contract/rules/activities';
import { canonicalElement, elementName, elementUnit } from '@vigia/contract/rules/alarms';
import { NEWS2_SCORE_3, triageFlagBit, type TriageFlagCode, type TriageSettings } from '@vigia/contract/rules/triage';
import { CLINICAL_ELEMENT } from '@vigia/contract/rules/vitals';
import type { components } from '@vigia/contract/openapi';

/**
 * The flags of 'Priorización' (issue 21) from one patient's facts, pure and with `now` passed in.
 * Thresholds are the client's settings (contract/rules/triage.ts, defaults and sources in
 * docs/triage.md); the summary job and the rebuild command both call scorePatient, so a rebuild
 * from the readings answers exactly what the job kept.
 */

export const DAY_MS = 86_400_000;
/** A summary is recomputed at least this often, so the window moves even for a patient nothing happens to. */
export const TRIAGE_REFRESH_MS = 6 * 3600_000;

const {
  blood_glucose: GLUCOSE,
  systolic_bp: SYSTOLIC,
  diastolic_bp: DIASTOLIC,
  body_weight: WEIGHT,
  oxygen_saturation: SPO2,
  body_temperature: TEMPERATURE,
  heart_rate: HEART_RATE,
} = CLINICAL_ELEMENT;
/** The vital signs flagged by their share out of range, in the order the flags are listed; glucose has its TIDE flags. */
const RANGE_ELEMENTS = [SYSTOLIC, SPO2, TEMPERATURE, HEART_RATE, WEIGHT] as const;

export interface FactReading {
  clinical_element: number;
  value: number;
  /** ms since the epoch. */
  when: number;
}

export interface AssignedRange {
  clinical_element: number;
  minimum: number;
  maximum: number;
}

export interface RunningOrder {
  clinical_element: number;
  /** ms; null when the order has no start. */
  start_at: number | null;
}

/** What the summary job reads about one patient. */
export interface PatientFacts {
  /** Valid readings of the last two windows (current and previous), any order. */
  readings: FactReading[];
  /** The latest valid reading of each element, any age (ms). */
  lastReadingAt: Record<number, number>;
  ranges: AssignedRange[];
  openAlerts: { high: number; medium: number; low: number };
  runningVitalOrders: RunningOrder[];
  /** 30-day adherence (contract/rules/adherence.ts), null when nothing was due. */
  adherencePercent: number | null;
  /** Medication activities of the window that failed or were not reported. */
  missedMedication: number;
}

export type Figures = Record<string, number | null>;

/** A flag as the summaries store it: the contract's TriageFlag but its tab (the table gives that when it is read). */
export type TriageFlag = Omit<components['schemas']['TriageFlag'], 'tab'>;

export interface PatientScore {
  score: number;
  mask: number;
  flags: TriageFlag[];
  lastReadingAt: number | null;
  /** When the flags change with time alone (the next refresh, or a no-reading flag coming due). */
  validUntil: number;
}

/**
 * 1 decimal, Spanish decimal comma. One formatter for every call: Number#toLocaleString with
 * options builds a new Intl.NumberFormat each time, and that was 74% of the summary job's CPU (a
 * bench profile), the job itself running beside ingestion every minute.
 */
const ONE_DECIMAL = new Intl.NumberFormat('es-CO', { maximumFractionDigits: 1 });
const num = (v: number) => ONE_DECIMAL.format(Math.round(v * 10) / 10);
const pct = (part: number, total: number) => (total ? (part / total) * 100 : 0);
const round1 = (v: number) => Math.round(v * 10) / 10;
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function openAlertsFlag(f: PatientFacts, s: TriageSettings): TriageFlag | null {
  const { high, medium, low } = f.openAlerts;
  const total = high + medium + low;
  if (!total) return null;
  const parts = [
    [high, 'alta', 'altas'],
    [medium, 'media', 'medias'],
    [low, 'baja', 'bajas'],
  ]
    .filter(([n]) => Number(n) > 0)
    .map(([n, one, many]) => `${n} ${Number(n) === 1 ? one : many}`);
  return {
    code: 'open_alerts',
    label: `${plural(total, 'alerta abierta', 'alertas abiertas')} (${parts.join(', ')})`,
    points: high * s.weights.open_alert_high + medium * s.weights.open_alert_medium + low * s.weights.open_alert_low,
    clinical_element: null,
    figures: { high, medium, low },
  };
}

interface Judged {
  out: boolean;
  /** How far outside its bound (0 when in range): the worst reading is the farthest. */
  distance: number;
  text: string;
}

/** Out of range by the patient's assigned rules for the element (any rule broken), or by the clinical default. */
function judge(element: number, value: number, diastolic: number | null, ranges: AssignedRange[], s: TriageSettings): Judged {
  const text = diastolic == null ? num(value) : `${num(value)}/${num(diastolic)}`;
  const assigned = ranges.filter((r) => r.clinical_element === element || (element === SYSTOLIC && r.clinical_element === DIASTOLIC));
  if (assigned.length) {
    let distance = 0;
    for (const r of assigned) {
      const v = r.clinical_element === DIASTOLIC ? diastolic : value;
      if (v == null) continue;
      distance = Math.max(distance, r.minimum - v, v - r.maximum);
    }
    return { out: distance > 0, distance, text };
  }
  switch (element) {
    case SYSTOLIC: {
      const distance = Math.max(value - s.systolic_max, (diastolic ?? 0) - s.diastolic_max);
      return { out: value >= s.systolic_max || (diastolic ?? 0) >= s.diastolic_max, distance, text };
    }
    case SPO2:
      return { out: value < s.spo2_min, distance: s.spo2_min - value, text };
    case TEMPERATURE:
      return { out: value >= s.temperature_max, distance: value - s.temperature_max, text };
    default:
      return { out: false, distance: 0, text };
  }
}

const DEFAULT_RANGE_TEXT = (element: number, s: TriageSettings) =>
  ({
    [SYSTOLIC]: `meta: menos de ${s.systolic_max}/${s.diastolic_max} mmHg`,
    [SPO2]: `meta: ${s.spo2_min} % o más`,
    [TEMPERATURE]: `meta: menos de ${num(s.temperature_max)} °C`,
  })[element] ?? '';

/** Blood pressure is one reading of two rows (3 and 4) with the same time. */
function pressurePairs(readings: FactReading[]): Array<{ value: number; diastolic: number; when: number }> {
  const diastolic = new Map<number, number>();
  for (const r of readings) if (r.clinical_element === DIASTOLIC) diastolic.set(r.when, r.value);
  return readings
    .filter((r) => r.clinical_element === SYSTOLIC && diastolic.has(r.when))
    .map((r) => ({ value: r.value, diastolic: diastolic.get(r.when)!, when: r.when }));
}

/**
 * Readings out of range below the flag's share still order patients: the out-of-range weight in
 * proportion to the share of the threshold it reached (1 of 10 against 25 %: 20 × 10/25 = 8 points),
 * at least 1 point and always under the full flag's.
 */
export function partialPoints(weight: number, share: number, threshold: number): number {
  if (weight <= 1) return weight;
  return Math.min(weight - 1, Math.max(1, Math.round((weight * share) / threshold)));
}

/** Every critical reading of one NEWS2 rule in the window, and the most extreme of them. */
function news2Flags(current: FactReading[], s: TriageSettings): TriageFlag[] {
  const flags: TriageFlag[] = [];
  for (const rule of NEWS2_SCORE_3) {
    const beyond = (v: number) =>
      Math.max(rule.atMost == null ? -Infinity : rule.atMost - v, rule.atLeast == null ? -Infinity : v - rule.atLeast);
    const critical = current.filter((r) => canonicalElement(r.clinical_element) === rule.element && beyond(r.value) >= 0);
    if (!critical.length) continue;
    // The farthest past its level; of equals, the latest.
    const worst = critical.reduce((a, b) =>
      beyond(b.value) > beyond(a.value) || (beyond(b.value) === beyond(a.value) && b.when > a.when) ? b : a,
    );
    const unit = elementUnit(rule.element);
    const levels = [
      rule.atMost != null && `${num(rule.atMost)} ${unit} o menos`,
      rule.atLeast != null && `${num(rule.atLeast)} ${unit} o más`,
    ];
    flags.push({
      code: 'news2_critical',
      label: `${elementName(rule.element)}: ${num(worst.value)} ${unit}, un valor que NEWS2 puntúa 3 (${levels.filter(Boolean).join(' o ')}); ${plural(critical.length, 'lectura crítica', 'lecturas críticas')} en ${s.window_days} días`,
      points: s.weights.news2_critical,
      clinical_element: rule.element,
      figures: { element: rule.element, value: worst.value, when: worst.when, readings: critical.length },
    });
  }
  return flags;
}

function outOfRangeFlags(current: FactReading[], f: PatientFacts, s: TriageSettings): TriageFlag[] {
  const flags: TriageFlag[] = [];
  for (const element of RANGE_ELEMENTS) {
    const readings =
      element === SYSTOLIC
        ? pressurePairs(current)
        : current.filter((r) => r.clinical_element === element).map((r) => ({ value: r.value, diastolic: null, when: r.when }));
    if (!readings.length) continue;
    const judged = readings.map((r) => judge(element, r.value, r.diastolic, f.ranges, s));
    const out = judged.filter((j) => j.out);
    const share = pct(out.length, readings.length);
    if (!out.length) continue;
    const full = share > s.out_of_range_percent;
    const worst = out.reduce((a, b) => (b.distance > a.distance ? b : a));
    const name = element === SYSTOLIC ? 'Presión arterial' : elementName(element);
    const assigned = f.ranges.some((r) => r.clinical_element === element || (element === SYSTOLIC && r.clinical_element === DIASTOLIC));
    const basis = assigned ? 'según sus reglas de alarma' : DEFAULT_RANGE_TEXT(element, s);
    const worstIndex = judged.indexOf(worst);
    flags.push({
      code: full ? 'out_of_range' : 'out_of_range_few',
      label: `${name}: ${out.length} de ${plural(readings.length, 'lectura', 'lecturas')} fuera de rango (${num(share)} %, ${basis}${full ? '' : `; señal completa con más de ${num(s.out_of_range_percent)} %`}); la peor ${worst.text} ${elementUnit(element)}`,
      points: full ? s.weights.out_of_range : partialPoints(s.weights.out_of_range, share, s.out_of_range_percent),
      clinical_element: element,
      figures: {
        readings: readings.length,
        out_of_range: out.length,
        percent: round1(share),
        worst: readings[worstIndex].value,
        worst_diastolic: readings[worstIndex].diastolic,
      },
    });
  }
  return flags;
}

/** In the glucose target: the patient's assigned glucose rules when there are, else 70–180 mg/dL (both ends in range). */
function glucoseInRange(value: number, ranges: AssignedRange[], s: TriageSettings): boolean {
  const assigned = ranges.filter((r) => r.clinical_element === GLUCOSE);
  if (assigned.length) return assigned.every((r) => value >= r.minimum && value <= r.maximum);
  return value >= s.glucose_low && value <= s.glucose_high;
}

function glucoseFlags(current: FactReading[], previous: FactReading[], f: PatientFacts, s: TriageSettings): TriageFlag[] {
  const now = current.filter((r) => r.clinical_element === GLUCOSE).map((r) => r.value);
  const before = previous.filter((r) => r.clinical_element === GLUCOSE).map((r) => r.value);
  const ordered = f.runningVitalOrders.some((o) => o.clinical_element === GLUCOSE);
  if (!now.length && !before.length && !ordered) return [];
  const flags: TriageFlag[] = [];
  const flag = (code: TriageFlagCode, label: string, points: number, figures: Figures) =>
    flags.push({ code, label, points, clinical_element: GLUCOSE, figures });
  const target = f.ranges.some((r) => r.clinical_element === GLUCOSE) ? 'sus reglas de alarma' : `${s.glucose_low}–${s.glucose_high} mg/dL`;
  const tirOf = (values: number[]) => pct(values.filter((v) => glucoseInRange(v, f.ranges, s)).length, values.length);
  if (now.length) {
    const tir = tirOf(now);
    const low = pct(now.filter((v) => v < s.glucose_low).length, now.length);
    const veryLow = pct(now.filter((v) => v < s.glucose_very_low).length, now.length);
    if (tir < s.tir_min_percent)
      flag(
        'glucose_tir_low',
        `Glucosa: ${num(tir)} % de las lecturas en rango (${target}); meta: ${s.tir_min_percent} % o más`,
        s.weights.glucose_tir_low,
        { readings: now.length, percent: round1(tir) },
      );
    if (low > s.below_low_max_percent)
      flag(
        'glucose_below_70',
        `Glucosa: ${num(low)} % de las lecturas bajo ${s.glucose_low} mg/dL; máximo ${s.below_low_max_percent} %`,
        s.weights.glucose_below_70,
        { readings: now.length, percent: round1(low) },
      );
    if (veryLow > s.below_very_low_max_percent)
      flag(
        'glucose_below_54',
        `Glucosa: ${num(veryLow)} % de las lecturas bajo ${s.glucose_very_low} mg/dL; máximo ${s.below_very_low_max_percent} %`,
        s.weights.glucose_below_54,
        { readings: now.length, percent: round1(veryLow) },
      );
    if (before.length) {
      const previousTir = tirOf(before);
      const drop = previousTir - tir;
      if (drop >= s.tir_drop_points)
        flag(
          'glucose_tir_drop',
          `Glucosa: el tiempo en rango bajó ${num(drop)} puntos (de ${num(previousTir)} % a ${num(tir)} %) frente a los ${s.window_days} días anteriores`,
          s.weights.glucose_tir_drop,
          { previous_percent: round1(previousTir), percent: round1(tir), drop: round1(drop) },
        );
    }
  }
  if (now.length < s.glucose_min_readings)
    flag(
      'glucose_little_data',
      `Glucosa: ${plural(now.length, 'lectura', 'lecturas')} en ${s.window_days} días; se esperan al menos ${s.glucose_min_readings}`,
      s.weights.glucose_little_data,
      { readings: now.length, minimum: s.glucose_min_readings },
    );
  return flags;
}

/** The largest rise between two weights at most `weight_gain_days` apart (later minus earlier). */
function weightGainFlag(current: FactReading[], s: TriageSettings): TriageFlag | null {
  const weights = current.filter((r) => r.clinical_element === WEIGHT).sort((a, b) => a.when - b.when);
  let best: { gain: number; from: FactReading; to: FactReading } | null = null;
  for (let j = 0; j < weights.length; j++)
    for (let i = 0; i < j; i++) {
      if (weights[j].when - weights[i].when > s.weight_gain_days * DAY_MS) continue;
      const gain = weights[j].value - weights[i].value;
      if (!best || gain > best.gain) best = { gain, from: weights[i], to: weights[j] };
    }
  // Compared in tenths: 72.0 - 70.0 is exactly 2, but 71.3 - 69.3 is 1.9999999999999.
  if (!best || Math.round(best.gain * 10) < Math.round(s.weight_gain_kg * 10)) return null;
  return {
    code: 'weight_gain',
    label: `Peso: subió ${num(best.gain)} kg en ${s.weight_gain_days} días o menos (de ${num(best.from.value)} a ${num(best.to.value)} kg)`,
    points: s.weights.weight_gain,
    clinical_element: WEIGHT,
    figures: { gain: round1(best.gain), from: best.from.value, to: best.to.value },
  };
}

/** The running vital-sign order that has waited longest for a reading (since its last reading or its start). */
function silentOrder(f: PatientFacts): { element: number; since: number | null } | null {
  let worst: { element: number; since: number | null } | null = null;
  for (const o of f.runningVitalOrders) {
    const last = f.lastReadingAt[o.clinical_element] ?? (o.clinical_element === SYSTOLIC ? f.lastReadingAt[DIASTOLIC] : undefined);
    const since = Math.max(last ?? -Infinity, o.start_at ?? -Infinity);
    const s = Number.isFinite(since) ? since : null;
    if (!worst || (s ?? -Infinity) < (worst.since ?? -Infinity)) worst = { element: o.clinical_element, since: s };
  }
  return worst;
}

function noReadingsFlag(f: PatientFacts, s: TriageSettings, now: number): TriageFlag | null {
  const silent = silentOrder(f);
  if (!silent) return null;
  const days = silent.since == null ? null : Math.floor((now - silent.since) / DAY_MS);
  if (days != null && days < s.no_reading_days) return null;
  const name = ORDER_ELEMENT_NAMES[silent.element] ?? elementName(silent.element);
  return {
    code: 'no_readings',
    label:
      days == null
        ? `Sin lecturas de ${name} con una orden en ejecución`
        : `Sin lecturas de ${name} hace ${plural(days, 'día', 'días')} con una orden en ejecución`,
    points: s.weights.no_readings,
    clinical_element: silent.element,
    figures: { days },
  };
}

function adherenceFlag(f: PatientFacts, s: TriageSettings): TriageFlag | null {
  if (adherenceBand(f.adherencePercent) !== 'low') return null;
  return {
    code: 'adherence_low',
    label: `Cumplimiento de ${f.adherencePercent} % en los últimos ${ADHERENCE_WINDOW_DAYS} días (bajo: ${ADHERENCE_BANDS.low} % o menos)`,
    points: s.weights.adherence_low,
    clinical_element: null,
    figures: { percent: f.adherencePercent },
  };
}

function missedMedicationFlag(f: PatientFacts, s: TriageSettings): TriageFlag | null {
  if (f.missedMedication <= 0) return null;
  return {
    code: 'missed_medication',
    label: `${plural(f.missedMedication, 'toma de medicación no realizada', 'tomas de medicación no realizadas')} en ${s.window_days} días`,
    points: s.weights.missed_medication,
    clinical_element: null,
    figures: { missed: f.missedMedication },
  };
}

/** Every flag of the patient at `now`, the score (their points) and when they next change with time alone. */
export function scorePatient(f: PatientFacts, s: TriageSettings, now: number): PatientScore {
  const windowStart = now - s.window_days * DAY_MS;
  const previousStart = windowStart - s.window_days * DAY_MS;
  const current = f.readings.filter((r) => r.when > windowStart && r.when <= now);
  const previous = f.readings.filter((r) => r.when > previousStart && r.when <= windowStart);
  const flags = [
    openAlertsFlag(f, s),
    ...news2Flags(current, s),
    ...glucoseFlags(current, previous, f, s),
    ...outOfRangeFlags(current, f, s),
    weightGainFlag(current, s),
    noReadingsFlag(f, s, now),
    adherenceFlag(f, s),
    missedMedicationFlag(f, s),
  ].filter((x): x is TriageFlag => x !== null);
  let validUntil = now + TRIAGE_REFRESH_MS;
  const silent = silentOrder(f);
  if (silent?.since != null) {
    const due = silent.since + s.no_reading_days * DAY_MS;
    if (due > now) validUntil = Math.min(validUntil, due);
  }
  const lasts = Object.values(f.lastReadingAt);
  return {
    score: flags.reduce((sum, x) => sum + x.points, 0),
    mask: flags.reduce((m, x) => m | triageFlagBit(x.code), 0),
    flags,
    lastReadingAt: lasts.length ? Math.max(...lasts) : null,
    validUntil,
  };
}

/**
 * Splits `ids` (in order) into runs whose weights (readings in the window) add up to at most `max`,
 * so one read of a batch's readings stays bounded: a batch of patients with glucose sensors (288
 * readings a day each) came back as one result of 600,000 rows and +265 MB of memory. A patient
 * heavier than `max` alone makes a run of its own; a patient without a weight weighs nothing.
 */
export function chunkByWeight(ids: number[], weights: ReadonlyMap<number, number>, max: number): number[][] {
  const runs: number[][] = [];
  let run: number[] = [];
  let total = 0;
  for (const id of ids) {
    const w = weights.get(id) ?? 0;
    if (run.length && total + w > max) {
      runs.push(run);
      run = [];
      total = 0;
    }
    run.push(id);
    total += w;
  }
  if (run.length) runs.push(run);
  return runs;
}
