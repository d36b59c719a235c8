import { describe, expect, it } from 'vitest';
import { chipsShown, flagChart, flagChips, flagLink, flagTitle, readingAge, readingItems } from './triage-card';

const NOW = Date.parse('2026-12-05T12:00:00Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

describe("a card's last reading: value, unit and age (issue 50: 'Última lectura' showed no value)", () => {
  it.each([
    [
      'blood pressure as one figure',
      [
        [3, 150],
        [4, 85],
      ],
      'PA 150/85 mmHg',
      'Presión arterial',
    ],
    ['a weight with its decimal comma', [[5, 72.5]], 'Peso 72,5 kg', 'Peso'],
    ['a temperature', [[7, 38.4]], 'Temp. 38,4 °C', 'Temperatura'],
    ['oximetry', [[2, 91]], 'SpO₂ 91 %', 'Saturación de oxígeno'],
    ['the legacy heart-rate code', [[0, 88]], 'FC 88 lpm', 'Frecuencia cardiaca'],
    [
      'two signs read at once',
      [
        [1, 70],
        [6, 110],
      ],
      'FC 70 lpm, Glucosa 110 mg/dL',
      'Frecuencia cardiaca, Glucosa',
    ],
    [
      'a pressure and a heart rate at once',
      [
        [1, 80],
        [3, 169],
        [4, 100],
      ],
      'PA 169/100 mmHg, FC 80 lpm',
      'Presión arterial, Frecuencia cardiaca',
    ],
    ['a systolic alone', [[3, 150]], 'PA 150 mmHg', 'Presión arterial'],
  ] as const)('%s → %s', (_what, values, text, name) => {
    const last = { when: ago(HOUR), values: values.map(([clinical_element, value]) => ({ clinical_element, value })) };
    const items = readingItems(last);
    expect(items.map((i) => `${i.short} ${i.text}`).join(', ')).toBe(text);
    expect(items.map((i) => i.name).join(', ')).toBe(name);
  });

  it.each([
    [10_000, 'hace unos segundos'],
    [3 * MIN, 'hace 3 minutos'],
    [3 * HOUR, 'hace 3 horas'],
    [26 * HOUR, 'hace un día'],
    [5 * DAY, 'hace 5 días'],
    [-HOUR, 'hace unos segundos'],
  ])('taken %i ms before the clock → %s', (before, text) => {
    expect(readingAge(ago(before), NOW)).toBe(text);
  });
});

describe('one chip per flag, its signs inside (issue 50: a card repeated its signals)', () => {
  const flag = (code: string, clinical_element: number | null, points: number) =>
    ({ code, clinical_element, points, tab: clinical_element == null ? 'alerts' : 'signs', label: `${code} ${clinical_element}` }) as const;
  it.each([
    ['no flags', [], []],
    ['one alert flag', [flag('open_alerts', null, 50)], [['Alertas abiertas', [], 50]]],
    [
      'NEWS2 on two signs: one chip, both signs, points summed',
      [flag('news2_critical', 2, 30), flag('news2_critical', 1, 30), flag('open_alerts', null, 50)],
      [
        ['Valor crítico', ['SpO₂', 'FC'], 60],
        ['Alertas abiertas', [], 50],
      ],
    ],
    ['systolic and diastolic: one PA', [flag('out_of_range', 3, 20), flag('out_of_range', 4, 10)], [['Fuera de rango', ['PA'], 30]]],
    ['weight gain names no sign (not per element)', [flag('weight_gain', 5, 30)], [['Aumento de peso', [], 30]]],
  ] as const)('%s', (_what, flags, expected) => {
    const chips = flagChips(flags.map((f) => ({ ...f, code: f.code as never })));
    expect(chips.map((c) => [c.name, c.signs.map((x) => x.short), c.points])).toEqual(expected);
  });
  it("keeps every explanation in the chip's title", () => {
    expect(
      flagChips([flag('news2_critical', 2, 30), flag('news2_critical', 1, 30)].map((f) => ({ ...f, code: f.code as never })))[0].title,
    ).toBe('news2_critical 2; news2_critical 1');
  });
});

describe('a flag leads to the chart it is about (issue 50: the chart was below the fold)', () => {
  it.each([
    [
      { code: 'out_of_range', clinical_element: 3, tab: 'signs' },
      '/patients/7?tab=signs&chart=blood_pressure',
      'Lecturas fuera de rango: Presión arterial',
    ],
    [
      { code: 'out_of_range', clinical_element: 4, tab: 'signs' },
      '/patients/7?tab=signs&chart=blood_pressure',
      'Lecturas fuera de rango: Presión arterial',
    ],
    [
      { code: 'news2_critical', clinical_element: 2, tab: 'signs' },
      '/patients/7?tab=signs&chart=oximetry',
      'Valor crítico (NEWS2): Saturación de oxígeno',
    ],
    [{ code: 'weight_gain', clinical_element: 5, tab: 'signs' }, '/patients/7?tab=signs&chart=weight', 'Aumento de peso'],
    [
      { code: 'out_of_range', clinical_element: 0, tab: 'signs' },
      '/patients/7?tab=signs&chart=heart_rate',
      'Lecturas fuera de rango: Frecuencia cardiaca',
    ],
    [{ code: 'open_alerts', clinical_element: null, tab: 'alerts' }, '/patients/7?tab=alerts', 'Alertas abiertas'],
    [{ code: 'no_readings', clinical_element: 6, tab: 'orders' }, '/patients/7?tab=orders', 'Sin lecturas con orden activa'],
  ] as const)('%o → %s', (flag, link, title) => {
    expect(flagLink(7, flag)).toBe(link);
    expect(flagTitle(flag)).toBe(title);
  });

  it('a patient without flags opens on the page', () => {
    expect(flagLink(7, undefined)).toBe('/patients/7');
    expect(flagChart({ code: 'out_of_range', clinical_element: 99, tab: 'signs' })).toBeNull();
  });
});

describe("a phone card's chips: at most four, the heaviest first, the rest counted for 'Ver cifras'", () => {
  it.each([
    ['none', [], [], 0],
    ['fewer than four, in their order', [10, 30, 20], [30, 20, 10], 0],
    ['exactly four', [5, 5, 5, 5], [5, 5, 5, 5], 0],
    ['seven: the four heaviest, three more', [20, 60, 30, 10, 40, 11, 30], [60, 40, 30, 30], 3],
  ])('%s', (_name, points, shown, more) => {
    const chips = points.map((p, i) => ({ points: p, order: i }));
    const result = chipsShown(chips);
    expect(result.shown.map((c) => c.points)).toEqual(shown);
    expect(result.more).toBe(more);
  });
  it('keeps ties in the order the flags came', () => {
    const chips = [
      { points: 30, name: 'a' },
      { points: 40, name: 'b' },
      { points: 30, name: 'c' },
    ];
    expect(chipsShown(chips, 2).shown.map((c) => c.name)).toEqual(['b', 'a']);
  });
});
