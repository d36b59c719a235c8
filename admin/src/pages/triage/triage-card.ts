/**
 * What a Priorización card says in a line each (issue 50): the flag's short chip, where a flag
 * leads, the last reading with its value and unit, and how long ago it was taken.
 */
import dayjs from 'dayjs';
import relativeTime from 'dayjs/plugin/relativeTime';
import 'dayjs/locale/es';
import { canonicalElement, elementUnit } from '@vigia/contract/rules/alarms';
import { ORDER_ELEMENT_NAMES } from '@vigia/contract/rules/activities';
import { CHARTS, type ChartKey } from '@vigia/contract/rules/charts';
import { TRIAGE_FLAG_NAMES, triageFlagDef, type TriageFlagCode } from '@vigia/contract/rules/triage';

dayjs.extend(relativeTime);

interface FlagLike {
  code: TriageFlagCode;
  clinical_element: number | null;
  tab: string;
}

/**
 * A flag's name on a phone's chip: the table's name, shortened where it runs long (TIR is the
 * diabetes clinics' own short name for 'tiempo en rango'; the chip's title says the whole name).
 */
export const CHIP_NAMES: Record<TriageFlagCode, string> = {
  open_alerts: 'Alertas abiertas',
  out_of_range: 'Fuera de rango',
  out_of_range_few: 'Algunas fuera de rango',
  news2_critical: 'Valor crítico',
  glucose_tir_low: 'Glucosa: TIR bajo',
  glucose_below_70: 'Glucosa < 70',
  glucose_below_54: 'Glucosa < 54',
  glucose_tir_drop: 'Glucosa: TIR cae',
  glucose_little_data: 'Glucosa: pocos datos',
  weight_gain: 'Aumento de peso',
  no_readings: 'Sin lecturas',
  adherence_low: 'Cumplimiento bajo',
  missed_medication: 'Medicación no tomada',
};

/** A vital sign on a chip, as the nurses write it (the chip's title and 'Ver cifras' give it whole). */
export const ELEMENT_SHORT: Record<number, string> = { 1: 'FC', 2: 'SpO₂', 3: 'PA', 4: 'PA', 5: 'Peso', 6: 'Glucosa', 7: 'Temp.' };

/**
 * A phone's chips (issue 50: a card listed 'Valor crítico (NEWS2): …' once per sign and ran 560 px):
 * one chip per flag, its signs inside it (each leading to its own chart), its points summed, its
 * explanations as the chip's title, in the order the flags came.
 */
export function flagChips<F extends FlagLike & { points: number; label: string }>(
  flags: readonly F[],
): Array<{ code: TriageFlagCode; name: string; points: number; title: string; signs: Array<{ short: string; flag: F }>; flag: F }> {
  const chips = new Map<TriageFlagCode, ReturnType<typeof flagChips<F>>[number]>();
  for (const f of flags) {
    const chip = chips.get(f.code) ?? {
      code: f.code,
      name: CHIP_NAMES[f.code] ?? TRIAGE_FLAG_NAMES[f.code],
      points: 0,
      title: '',
      signs: [],
      flag: f,
    };
    chip.points += f.points;
    chip.title = chip.title ? `${chip.title}; ${f.label}` : f.label;
    const short =
      f.clinical_element != null && triageFlagDef(f.code).perElement ? ELEMENT_SHORT[canonicalElement(f.clinical_element)] : undefined;
    if (short && !chip.signs.some((x) => x.short === short)) chip.signs.push({ short, flag: f });
    chips.set(f.code, chip);
  }
  return [...chips.values()];
}
/** How many chips a phone's card shows: the rest are counted in its 'Ver cifras', which lists every flag. */
export const CHIPS_SHOWN = 4;

/**
 * The chips a card shows (the heaviest first, ties in the order they came) and how many it leaves to
 * 'Ver cifras': a patient with seven flags ran a card past 260 px, over half a phone's screen.
 */
export function chipsShown<C extends { points: number }>(chips: readonly C[], max = CHIPS_SHOWN): { shown: C[]; more: number } {
  const ordered = chips.map((c, i) => ({ c, i })).sort((a, b) => b.c.points - a.c.points || a.i - b.i);
  return { shown: ordered.slice(0, max).map((x) => x.c), more: Math.max(0, chips.length - max) };
}

export interface LastReading {
  when: string;
  values: ReadonlyArray<{ clinical_element: number; value: number }>;
}

/** The flag's name, followed by the vital sign's for the flags raised once per sign. */
export function flagTitle(f: FlagLike): string {
  return f.clinical_element != null && triageFlagDef(f.code).perElement
    ? `${TRIAGE_FLAG_NAMES[f.code]}: ${ORDER_ELEMENT_NAMES[canonicalElement(f.clinical_element)] ?? ''}`
    : TRIAGE_FLAG_NAMES[f.code];
}

/** The Signos chart a flag is about (its vital sign's), when the flag leads to Signos. */
export function flagChart(f: FlagLike): ChartKey | null {
  if (f.tab !== 'signs' || f.clinical_element == null) return null;
  const element = canonicalElement(f.clinical_element);
  return CHARTS.find((c) => (c.elements as readonly number[]).includes(element))?.key ?? null;
}

/** The patient page on the tab that explains the flag, and on its chart for a Signos flag. */
export function flagLink(patientId: number, f: FlagLike | undefined): string {
  if (!f) return `/patients/${patientId}`;
  const chart = flagChart(f);
  return `/patients/${patientId}?tab=${f.tab}${chart ? `&chart=${chart}` : ''}`;
}

const number = (v: number) => v.toLocaleString('es-CO', { maximumFractionDigits: 1 });

/**
 * The reading's values, each with its sign: blood pressure as one figure ('150/85 mmHg'), then any
 * other sign read at the same instant ('72,5 kg'). `short` is the chip's name ('PA'), `name` the
 * whole one.
 */
export function readingItems(last: LastReading): Array<{ short: string; name: string; text: string }> {
  const of = (element: number) => last.values.find((v) => v.clinical_element === element);
  const systolic = of(3);
  const diastolic = of(4);
  const items: Array<{ short: string; name: string; text: string }> = [];
  if (systolic && diastolic)
    items.push({
      short: ELEMENT_SHORT[3],
      name: ORDER_ELEMENT_NAMES[3],
      text: `${number(systolic.value)}/${number(diastolic.value)} ${elementUnit(3)}`,
    });
  for (const v of last.values) {
    const element = canonicalElement(v.clinical_element);
    if (systolic && diastolic && (element === 3 || element === 4)) continue;
    items.push({
      short: ELEMENT_SHORT[element] ?? '',
      name: ORDER_ELEMENT_NAMES[element] ?? '',
      text: `${number(v.value)} ${elementUnit(element)}`.trim(),
    });
  }
  return items;
}

/** 'hace 3 horas', in Spanish, from the page's clock; a reading stamped ahead of it reads 'hace unos segundos'. */
export function readingAge(when: string, now: number): string {
  const at = Math.min(Date.parse(when), now);
  return dayjs(at).locale('es').from(dayjs(now));
}
