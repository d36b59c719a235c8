/**
 * Measurement-chart rules (01 §2 Tab Signos, §9; 03 §2 portal charts), shared by the admin's
 * Signos tab, the patient portal and the PDF report so the numbers exist once.
 */
import { formatWhen } from './dates';
import { countOf } from './plural';

/** Points drawn by default. */
export const CHART_DEFAULT_POINTS = 10;
/** The 'Mostrar últimos' selector appears only with more points than this. */
export const CHART_SELECTOR_THRESHOLD = 5;
/** Readings listed under the chart in the staff tab (the portal lists 10). */
export const LAST_READINGS = 5;
export const PORTAL_LAST_READINGS = 10;
/** A single point gets this many days either side. */
export const SINGLE_POINT_WINDOW_DAYS = 15;
/** At most this many axis ticks. */
export const MAX_TICKS = 6;
/** The most readings one chart loads (the 'total' option shows at most these). */
export const CHART_MAX_POINTS = 1000;

export const CHART_LOAD_ERROR = 'Error al cargar los datos. Intente nuevamente.';
export const MEASUREMENT_DELETE_ERROR = 'Error al eliminar la medición. Intente nuevamente.';
export const CHART_EMPTY = 'No existen datos que mostrar';

const DAY_MS = 86_400_000;

export interface ChartPoint {
  when: number;
  value: number;
}

/** The charts in the order the tab and the portal show them; blood pressure draws 3 and 4 together. */
export const CHARTS = [
  { key: 'heart_rate', title: 'Frecuencia Cardiaca', elements: [1], unit: 'lpm' },
  { key: 'oximetry', title: 'Oximetría', elements: [2], unit: '%' },
  { key: 'blood_pressure', title: 'Presión Arterial', elements: [3, 4], unit: 'mmHg' },
  { key: 'glucose', title: 'Glucosa', elements: [6], unit: 'mg/dL' },
  { key: 'temperature', title: 'Temperatura', elements: [7], unit: '°C' },
  { key: 'weight', title: 'Peso', elements: [5], unit: 'kg' },
] as const;

export type ChartKey = (typeof CHARTS)[number]['key'];

/** Series names of the blood-pressure chart (02 §2.8). */
export const SERIES_NAMES: Record<number, string> = { 3: 'Sistólica', 4: 'Diastólica' };

/** Line colours of a chart's series, in order (systolic, diastolic); a series' bands are edged in it. */
export const SERIES_COLORS = ['#0a6fa8', '#c41d7f'] as const;

export function showLatestSelector(total: number): boolean {
  return total > CHART_SELECTOR_THRESHOLD;
}

/** 'Mostrar últimos' options: 5, then steps of 10 below the total, then the total. */
export function latestOptions(total: number): number[] {
  if (!showLatestSelector(total)) return [];
  const options = [5];
  for (let n = 10; n < total; n += 10) options.push(n);
  options.push(total);
  return options;
}

export function defaultLatest(total: number): number {
  return Math.min(CHART_DEFAULT_POINTS, total);
}

/** The latest `n` points, oldest first (input in any order). */
export function latestPoints<T extends { when: number }>(points: readonly T[], n: number): T[] {
  const sorted = [...points].sort((a, b) => a.when - b.when);
  return n >= sorted.length ? sorted : sorted.slice(sorted.length - n);
}

/** The time axis: the points' span, or 15 days either side of a single instant. */
export function timeDomain(points: readonly { when: number }[]): [number, number] | null {
  if (!points.length) return null;
  let min = Infinity;
  let max = -Infinity;
  for (const p of points) {
    if (p.when < min) min = p.when;
    if (p.when > max) max = p.when;
  }
  if (min === max) return [min - SINGLE_POINT_WINDOW_DAYS * DAY_MS, max + SINGLE_POINT_WINDOW_DAYS * DAY_MS];
  return [min, max];
}

/** At most `max` evenly spaced ticks across the domain, both ends included. */
export function timeTicks(domain: [number, number], max = MAX_TICKS): number[] {
  const [from, to] = domain;
  if (from === to) return [from];
  const count = Math.max(2, Math.min(max, MAX_TICKS));
  const step = (to - from) / (count - 1);
  return Array.from({ length: count }, (_, i) => Math.round(from + i * step));
}

/** Below this span the time axis names the hour too: ten readings of one morning are not six '21/11'. */
export const AXIS_HOURS_BELOW_MS = 2 * 86_400_000;

/**
 * A time-axis label in the patient's zone: 'dd/mm', or 'hh:mm' when the axis spans under two days
 * (as short, so the six labels still fit a card; the tooltip and the latest readings give the day).
 */
export function axisLabel(when: number, domain: [number, number], timeZone: string): string {
  const full = formatWhen(when, timeZone);
  return domain[1] - domain[0] < AXIS_HOURS_BELOW_MS ? full.slice(-5) : full.slice(0, 5);
}

/**
 * Systolic and diastolic lists pair up by position; when their lengths differ the chart is not
 * drawn (01 §5, 03 §5) and this answers null.
 */
export function pairBloodPressure<T extends { when: number; value: number }>(
  systolic: readonly T[],
  diastolic: readonly T[],
): Array<{ when: number; systolic: number; diastolic: number }> | null {
  if (systolic.length !== diastolic.length) return null;
  const s = [...systolic].sort((a, b) => a.when - b.when);
  const d = [...diastolic].sort((a, b) => a.when - b.when);
  return s.map((p, i) => ({ when: p.when, systolic: p.value, diastolic: d[i].value }));
}

/**
 * Alarm priorities (02 §3, 03 §3): 1 Alta, 2 Media, 3 Baja; colours error, amber, primary, each dark
 * enough for white text on it (4.5:1, WCAG 1.4.3: the staff app's priority tags).
 */
export const PRIORITIES: Record<number, { label: string; color: string; fill: string }> = {
  1: { label: 'Prioridad Alta', color: '#d4380d', fill: 'rgba(212, 56, 13, 0.10)' },
  2: { label: 'Prioridad Media', color: '#9a5b00', fill: 'rgba(212, 136, 6, 0.12)' },
  3: { label: 'Prioridad Baja', color: '#0e7c7b', fill: 'rgba(14, 124, 123, 0.10)' },
};

export interface AlarmRange {
  id?: number;
  name?: string;
  clinical_element?: number | null;
  clinical_element_id?: number | null;
  priority: number;
  minimum_condition: number;
  maximum_condition: number;
}

export interface AlarmBand {
  key: string;
  label: string;
  priority: number;
  from: number;
  to: number;
  color: string;
  fill: string;
  /**
   * On a chart of two series (blood pressure), the series the range is about: its name, its line
   * colour for the band's edges, and the caption written in the band ('Sistólica 90–140'). Without
   * them a systolic 90–140 and a diastolic 60–90 range of one priority read as one 60–140 band.
   */
  series?: { name: string; color: string; caption: string };
}

/** 90, 37.5: the range ends as the rule states them. */
const rangeEnd = (v: number) => String(Math.round(v * 10) / 10);

/**
 * Alarm ranges as bands: low priority drawn first so a high-priority band lies on top. A range is
 * where the value is in range; the chart shades it by the rule's priority. When the chart draws
 * more than one element, each band also names its series and takes that series' colour.
 */
export function alarmBands(alarms: readonly AlarmRange[], elements: readonly number[]): AlarmBand[] {
  const elementOf = (a: AlarmRange) => Number(a.clinical_element ?? a.clinical_element_id);
  return alarms
    .filter((a) => elements.includes(elementOf(a)) && PRIORITIES[a.priority])
    .filter((a) => Number.isFinite(a.minimum_condition) && Number.isFinite(a.maximum_condition))
    .sort((a, b) => b.priority - a.priority)
    .map((a, i) => {
      const from = Math.min(a.minimum_condition, a.maximum_condition);
      const to = Math.max(a.minimum_condition, a.maximum_condition);
      const index = elements.indexOf(elementOf(a));
      const name = SERIES_NAMES[elementOf(a)];
      return {
        key: `${a.id ?? i}`,
        label: a.name ? `${PRIORITIES[a.priority].label}: ${a.name}` : PRIORITIES[a.priority].label,
        priority: a.priority,
        from,
        to,
        color: PRIORITIES[a.priority].color,
        fill: PRIORITIES[a.priority].fill,
        ...(elements.length > 1 && name
          ? { series: { name, color: SERIES_COLORS[index % SERIES_COLORS.length], caption: `${name} ${rangeEnd(from)}–${rangeEnd(to)}` } }
          : {}),
      };
    });
}

/** The rule an alert carries (its own copy of the minimum and maximum, 02 §2.8). */
export interface AlertRule {
  id?: number | null;
  name: string;
  priority: number;
  minimum_condition: number;
  maximum_condition: number;
}

/**
 * The ranges an alert's chart draws: the rules assigned to the patient now, plus the rule that
 * raised the alert when it is no longer among them (unassigned or deleted since), so the reading
 * that fired is always shown against the range it broke.
 */
export function alertRanges(assigned: readonly AlarmRange[], rule: AlertRule | null, element: number | null): AlarmRange[] {
  if (!rule || element == null || (rule.id != null && assigned.some((a) => a.id === rule.id))) return [...assigned];
  return [...assigned, { ...rule, id: rule.id ?? undefined, clinical_element: element }];
}

/**
 * What a chart shows, in words, for those who cannot see the canvas (and for the browser tests):
 * the series and their readings, then each range.
 */
export function chartSummary(
  series: readonly { name: string; points: readonly unknown[] }[],
  bands: readonly AlarmBand[],
  unit: string,
): string {
  const readings = series.map((s) => `${s.name}: ${countOf(s.points.length, 'lectura', 'lecturas')}`).join('; ');
  const ranges = bands.map((b) => `${b.series?.caption ?? `${rangeEnd(b.from)}–${rangeEnd(b.to)}`} ${unit} (${b.label})`);
  return ranges.length ? `${readings}. Rangos: ${ranges.join('; ')}.` : `${readings}.`;
}

/** The value axis: the readings (and bands) with 10 % head-room, never below zero. */
export function valueDomain(values: readonly number[], bands: readonly AlarmBand[] = []): [number, number] | null {
  const all = [...values, ...bands.flatMap((b) => [b.from, b.to])];
  if (!all.length) return null;
  const min = Math.min(...all);
  const max = Math.max(...all);
  const pad = max === min ? Math.max(1, Math.abs(max) * 0.1) : (max - min) * 0.1;
  return [Math.max(0, Math.floor(min - pad)), Math.ceil(max + pad)];
}

/** The in-range part of a chart's value axis: neutral green, whatever the rule's priority (issue 50). */
export const NORMAL_ZONE = { label: 'En rango', color: '#389e0d', fill: 'rgba(56, 158, 13, 0.10)' } as const;

/** A horizontal stretch of a chart's value axis and what a reading there means. */
export interface ValueZone {
  from: number;
  to: number;
  /** The highest priority (1 Alta) a reading here breaks; null where it breaks none. */
  priority: number | null;
  label: string;
  color: string;
  fill: string;
}

/**
 * The value axis of a one-series chart cut into zones (issue 50): where a reading breaks no range it
 * is in range (green), elsewhere it takes the colour of the highest priority it breaks (a range is
 * where the value is fine, D10: a bound is in range). So a Prioridad Alta rule of 60–100 paints
 * 60–100 green and above and below it red, never the normal range red. One rule for the staff app at
 * every width, the alert's chart and the portal. A chart of two series (blood pressure) gets no zones:
 * its ranges overlap across series, so each is drawn in range only, edged in its series' colour.
 */
export function valueZones(bands: readonly AlarmBand[], domain: [number, number]): ValueZone[] {
  if (!bands.length || bands.some((b) => b.series)) return [];
  const [low, high] = domain;
  const cuts = [...new Set([low, high, ...bands.flatMap((b) => [b.from, b.to]).filter((v) => v > low && v < high)])].sort((a, b) => a - b);
  const zones: ValueZone[] = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    const [from, to] = [cuts[i], cuts[i + 1]];
    const middle = (from + to) / 2;
    const broken = bands.filter((b) => middle < b.from || middle > b.to).map((b) => b.priority);
    const priority = broken.length ? Math.min(...broken) : null;
    const last = zones.at(-1);
    if (last && last.priority === priority) {
      last.to = to;
      continue;
    }
    const look = priority == null ? NORMAL_ZONE : { ...PRIORITIES[priority], label: `Fuera de rango: ${PRIORITIES[priority].label}` };
    zones.push({ from, to, priority, label: look.label, color: look.color, fill: look.fill });
  }
  return zones;
}

/** The ticks whose labels differ, first of each kept: 'dd/mm' once per date on the time axis (issue 50). */
export function distinctTicks(ticks: readonly number[], label: (t: number) => string): number[] {
  const seen = new Set<string>();
  return ticks.filter((t) => {
    const text = label(t);
    if (seen.has(text)) return false;
    seen.add(text);
    return true;
  });
}
