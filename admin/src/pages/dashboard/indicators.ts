import type { Schemas } from '../../contract';

type IndicatorMonth = Schemas['IndicatorMonth'];

const MONTHS = ['ene', 'feb', 'mar', 'abr', 'may', 'jun', 'jul', 'ago', 'sep', 'oct', 'nov', 'dic'];

/** 'nov 2026' for '2026-11'. */
export function monthLabel(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return `${MONTHS[m - 1]} ${y}`;
}

/** The three shares of the trend chart, named as the card names them. */
export const SERIES = {
  hypertension: 'Hipertensión controlada',
  silent: 'Sin lecturas en 90 días',
  glucose: 'Glucosa en rango',
} as const;

export function trendPoints(months: IndicatorMonth[]) {
  return months.flatMap((m) =>
    [
      { serie: SERIES.hypertension, value: m.hypertension_control.percent },
      { serie: SERIES.silent, value: m.without_readings.percent },
      { serie: SERIES.glucose, value: m.glucose_in_range.percent },
    ]
      .filter((p) => p.value != null)
      .map((p) => ({ month: monthLabel(m.month), serie: p.serie, value: p.value as number })),
  );
}

const BANDS = [
  ['low', 'Bajo (50 % o menos)'],
  ['medium', 'Medio'],
  ['good', 'Bueno (más de 70 %)'],
  ['none', 'Sin actividades'],
] as const;

export function adherencePoints(months: IndicatorMonth[]) {
  return months.flatMap((m) => BANDS.map(([key, band]) => ({ month: monthLabel(m.month), band, patients: m.adherence[key] })));
}

export const ADHERENCE_BAND_NAMES = BANDS.map(([, name]) => name);

const CSV_COLUMNS: Array<[string, (m: IndicatorMonth) => string | number | null]> = [
  ['Mes', (m) => m.month],
  ['Mes cerrado', (m) => (m.complete ? 'Sí' : 'No')],
  ['Hipertensión: pacientes', (m) => m.hypertension_control.eligible],
  ['Hipertensión: con presión en 90 días', (m) => m.hypertension_control.measured],
  ['Hipertensión: controlados (<140/90)', (m) => m.hypertension_control.controlled],
  ['Hipertensión: % controlados', (m) => m.hypertension_control.percent],
  ['Pacientes activos', (m) => m.without_readings.active],
  ['Sin lecturas en 90 días', (m) => m.without_readings.count],
  ['% sin lecturas en 90 días', (m) => m.without_readings.percent],
  ['Pacientes con glucometrías', (m) => m.glucose_in_range.patients],
  ['Glucometrías', (m) => m.glucose_in_range.readings],
  ['Glucometrías en 70–180 mg/dL', (m) => m.glucose_in_range.in_range],
  ['% glucometrías en rango', (m) => m.glucose_in_range.percent],
  ['Cumplimiento bajo', (m) => m.adherence.low],
  ['Cumplimiento medio', (m) => m.adherence.medium],
  ['Cumplimiento bueno', (m) => m.adherence.good],
  ['Sin actividades', (m) => m.adherence.none],
];

const cell = (v: string | number | null) => {
  const text = v == null ? '' : String(v);
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** The card's figures as CSV (UTF-8 with the BOM Excel needs for accents), one row per month. */
export function indicatorsCsv(months: IndicatorMonth[]): string {
  const lines = [
    CSV_COLUMNS.map(([name]) => cell(name)).join(','),
    ...months.map((m) => CSV_COLUMNS.map(([, of]) => cell(of(m))).join(',')),
  ];
  return `\ufeff${lines.join('\r\n')}\r\n`;
}
