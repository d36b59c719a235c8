import { describe, expect, it } from 'vitest';
import { TRIAGE_DEFAULTS, triageSettingsOf } from '@vigia/contract/rules/triage';
import { chunkByWeight, DAY_MS, partialPoints, scorePatient, TRIAGE_REFRESH_MS, type FactReading, type PatientFacts } from './triage.rules';

const NOW = Date.UTC(2026, 10, 26, 12);
const S = TRIAGE_DEFAULTS;

function facts(over: Partial<PatientFacts> = {}): PatientFacts {
  return {
    readings: [],
    lastReadingAt: {},
    ranges: [],
    openAlerts: { high: 0, medium: 0, low: 0 },
    runningVitalOrders: [],
    adherencePercent: null,
    missedMedication: 0,
    ...over,
  };
}

/** `values` of one element, one a day going back from `daysAgo` (inside the current 14-day window by default). */
const series = (element: number, values: number[], daysAgo = 1): FactReading[] =>
  values.map((value, i) => ({ clinical_element: element, value, when: NOW - (daysAgo + i * 0.2) * DAY_MS }));
const times = (n: number, v: number) => Array.from({ length: n }, () => v);
const codes = (f: PatientFacts, s = S) => scorePatient(f, s, NOW).flags.map((x) => x.code);

describe('TIDE glucose flags (issue 21: TIR 70–180 under 65 %, below 70 over 4 %, below 54 over 1 %, drop of 15 points, too little data)', () => {
  const cases: Array<[string, number[], number[], string[]]> = [
    // [case, current 14 days, previous 14 days, flags]
    ['all 20 in 70–180', times(20, 120), [], []],
    ['70 and 180 are in range (both ends)', [...times(10, 70), ...times(10, 180)], [], []],
    ['TIR 65 % exactly is not under 65 %', [...times(13, 120), ...times(7, 250)], [], []],
    ['TIR 60 % is under 65 %', [...times(12, 120), ...times(8, 250)], [], ['glucose_tir_low']],
    ['below 70 at 4 % exactly is not over 4 %', [...times(24, 120), 65], [], []],
    ['below 70 at 5 % is over 4 %', [...times(19, 120), 65], [], ['glucose_below_70']],
    ['below 54 at 4 %: over 1 %, and below 70 at 4 % is not over 4 %', [...times(24, 120), 50], [], ['glucose_below_54']],
    ['TIR down 15 points against the previous 14 days', [...times(16, 120), ...times(4, 200)], times(20, 120), ['glucose_tir_drop']],
    ['TIR down 14 points is not a drop', [...times(43, 120), ...times(7, 200)], times(50, 120), []],
    ['13 readings is too little data (fewer than 14)', times(13, 120), [], ['glucose_little_data']],
    ['no reading in 14 days but some before: too little data', [], times(20, 120), ['glucose_little_data']],
  ];
  it.each(cases)('%s', (_name, current, previous, expected) => {
    const readings = [...series(6, current), ...series(6, previous, 15)];
    expect(codes(facts({ readings }))).toEqual(expected);
  });

  it('a patient without glucose readings nor a glucose order has no glucose flag', () => {
    expect(codes(facts())).toEqual([]);
  });

  it("uses the patient's assigned glucose range instead of 70–180", () => {
    const readings = series(6, [...times(12, 150), ...times(8, 100)]);
    const ranges = [{ clinical_element: 6, minimum: 120, maximum: 200 }];
    const flag = scorePatient(facts({ readings, ranges }), S, NOW).flags[0];
    expect(flag).toMatchObject({ code: 'glucose_tir_low', figures: { readings: 20, percent: 60 } });
    expect(flag.label).toBe('Glucosa: 60 % de las lecturas en rango (sus reglas de alarma); meta: 65 % o más');
  });
});

describe('a single reading NEWS2 scores 3 on its own raises news2_critical (SpO2 ≤ 91 %, systolic ≤ 90 or ≥ 220 mmHg, heart rate ≤ 40 or ≥ 131/min, temperature ≤ 35.0 °C)', () => {
  const one = (element: number, value: number, rest: number) => [...series(element, times(9, rest), 2), ...series(element, [value], 0.5)];
  const cases: Array<[string, FactReading[], number | null]> = [
    ['SpO2 91 % once in 10', one(2, 91, 97), 2],
    ['SpO2 92 % is not critical', one(2, 92, 97), null],
    ['systolic 90 mmHg', one(3, 90, 120), 3],
    ['systolic 91 mmHg is not critical', one(3, 91, 120), null],
    ['systolic 220 mmHg', one(3, 220, 120), 3],
    ['systolic 219 mmHg is not critical', one(3, 219, 120), null],
    ['heart rate 40/min', one(1, 40, 70), 1],
    ['heart rate 41/min is not critical', one(1, 41, 70), null],
    ['heart rate 131/min', one(1, 131, 70), 1],
    ['heart rate 130/min is not critical', one(1, 130, 70), null],
    ['heart rate 131/min under the legacy code 0', one(0, 131, 70), 1],
    ['temperature 35.0 °C', one(7, 35, 36.8), 7],
    ['temperature 35.1 °C is not critical', one(7, 35.1, 36.8), null],
    ['temperature 39.5 °C scores 2 in NEWS2, not 3', one(7, 39.5, 36.8), null],
    ['a critical reading older than the window does not count', series(2, [85], 15), null],
  ];
  it.each(cases)('%s', (_name, readings, element) => {
    const flags = scorePatient(facts({ readings }), S, NOW).flags.filter((f) => f.code === 'news2_critical');
    expect(flags.map((f) => f.clinical_element)).toEqual(element == null ? [] : [element]);
  });

  it('names the most extreme reading, when it was and how many there were, with its weight', () => {
    const readings = [...series(2, [97, 90, 88, 91]), { clinical_element: 2, value: 88, when: NOW - 0.1 * DAY_MS }];
    const [flag] = scorePatient(facts({ readings }), S, NOW).flags.filter((f) => f.code === 'news2_critical');
    expect(flag).toEqual({
      code: 'news2_critical',
      points: 30,
      clinical_element: 2,
      label: 'Saturación de oxígeno: 88 %, un valor que NEWS2 puntúa 3 (91 % o menos); 4 lecturas críticas en 14 días',
      figures: { element: 2, value: 88, when: NOW - 0.1 * DAY_MS, readings: 4 },
    });
  });

  it('takes its points from the client weight, per vital sign', () => {
    const readings = [...one(2, 91, 97), ...one(1, 150, 70)];
    const s = { ...S, weights: { ...S.weights, news2_critical: 50 } };
    const flags = scorePatient(facts({ readings }), s, NOW).flags.filter((f) => f.code === 'news2_critical');
    expect(flags.map((f) => [f.clinical_element, f.points])).toEqual([
      [2, 50],
      [1, 50],
    ]);
  });
});

describe('readings out of range below the share threshold still order patients (out_of_range_few)', () => {
  const cases: Array<[string, number, number, number, number]> = [
    // [case, weight, share %, threshold %, points]
    ['1 of 10 against 25 %: 20 × 10/25', 20, 10, 25, 8],
    ['1 of 4 (25 %, not more than 25 %): one under the full flag', 20, 25, 25, 19],
    ['1 of 100 against 25 %: at least 1', 20, 1, 25, 1],
    ['a weight of 0 adds nothing', 0, 10, 25, 0],
    ['a weight of 1 adds its 1', 1, 10, 25, 1],
  ];
  it.each(cases)('%s', (_name, weight, share, threshold, points) => {
    expect(partialPoints(weight, share, threshold)).toBe(points);
  });

  it('a patient with 1 of 10 blood pressures at 150/85 scores above one with every reading in range', () => {
    const pressures = (first: number) =>
      [first, ...times(9, 120)].flatMap((sys, i) => [
        { clinical_element: 3, value: sys, when: NOW - (1 + i) * DAY_MS },
        { clinical_element: 4, value: sys === 150 ? 85 : 80, when: NOW - (1 + i) * DAY_MS },
      ]);
    const some = scorePatient(facts({ readings: pressures(150) }), S, NOW);
    expect(some.flags).toEqual([
      {
        code: 'out_of_range_few',
        points: 8,
        clinical_element: 3,
        label:
          'Presión arterial: 1 de 10 lecturas fuera de rango (10 %, meta: menos de 140/90 mmHg; señal completa con más de 25 %); la peor 150/85 mmHg',
        figures: { readings: 10, out_of_range: 1, percent: 10, worst: 150, worst_diastolic: 85 },
      },
    ]);
    expect(some.score).toBeGreaterThan(scorePatient(facts({ readings: pressures(120) }), S, NOW).score);
  });

  it('more readings out of range below the threshold score more: 2 of 10 over 1 of 10', () => {
    const spo2 = (low: number) => series(2, [...times(low, 91.5), ...times(10 - low, 97)]);
    expect(scorePatient(facts({ readings: spo2(2) }), S, NOW).score).toBeGreaterThan(
      scorePatient(facts({ readings: spo2(1) }), S, NOW).score,
    );
  });
});

describe('vital signs out of range (HEARTS360 under 140/90 controlled; SpO2 under 92 %; temperature 38 °C or more; more than 25 % of readings)', () => {
  const pressure = (pairs: Array<[number, number]>) =>
    pairs.flatMap(([sys, dia], i) => [
      { clinical_element: 3, value: sys, when: NOW - (1 + i) * DAY_MS },
      { clinical_element: 4, value: dia, when: NOW - (1 + i) * DAY_MS },
    ]);
  const cases: Array<[string, FactReading[], number | null]> = [
    ['139/89 is controlled', pressure(times(4, 0).map(() => [139, 89])), null],
    ['140/80: systolic 140 is not under 140', pressure(times(4, 0).map(() => [140, 80])), 3],
    ['130/90: diastolic 90 is not under 90', pressure(times(4, 0).map(() => [130, 90])), 3],
    [
      '1 of 4 blood pressures out (25 %) is not more than 25 %',
      pressure([
        [150, 95],
        [120, 80],
        [120, 80],
        [120, 80],
      ]),
      null,
    ],
    ['SpO2 92 % is in range', series(2, times(4, 92)), null],
    ['SpO2 91 % is out of range', series(2, times(4, 91)), 2],
    ['temperature 37.9 °C is in range', series(7, times(4, 37.9)), null],
    ['temperature 38 °C is out of range', series(7, times(4, 38)), 7],
    ['heart rate has no clinical default', series(1, times(4, 190)), null],
  ];
  it.each(cases)('%s', (_name, readings, element) => {
    const flags = scorePatient(facts({ readings }), S, NOW).flags.filter((f) => f.code === 'out_of_range');
    expect(flags.map((f) => f.clinical_element)).toEqual(element == null ? [] : [element]);
  });

  it('reports the share and the worst reading, in Spanish', () => {
    const readings = pressure([
      [150, 85],
      [165, 95],
      [120, 80],
      [118, 76],
    ]);
    const [flag] = scorePatient(facts({ readings }), S, NOW).flags;
    expect(flag).toMatchObject({
      code: 'out_of_range',
      points: 20,
      figures: { readings: 4, out_of_range: 2, percent: 50, worst: 165, worst_diastolic: 95 },
    });
    expect(flag.label).toBe('Presión arterial: 2 de 4 lecturas fuera de rango (50 %, meta: menos de 140/90 mmHg); la peor 165/95 mmHg');
  });

  it("judges by the patient's assigned rules when the element has them", () => {
    const readings = series(1, [55, 58, 70, 72]);
    const ranges = [{ clinical_element: 1, minimum: 60, maximum: 100 }];
    const [flag] = scorePatient(facts({ readings, ranges }), S, NOW).flags;
    expect(flag.figures).toMatchObject({ out_of_range: 2, worst: 55 });
    expect(flag.label).toContain('según sus reglas de alarma');
  });
});

describe('trends, silence, adherence, medication', () => {
  it('weight up 2 kg within 3 days is flagged; 1.9 kg is not; 2 kg over 4 days is not', () => {
    const at = (days: number, value: number) => ({ clinical_element: 5, value, when: NOW - days * DAY_MS });
    expect(codes(facts({ readings: [at(4, 70), at(1, 72)] }))).toEqual(['weight_gain']);
    expect(codes(facts({ readings: [at(4, 70), at(1, 71.9)] }))).toEqual([]);
    expect(codes(facts({ readings: [at(5, 70), at(1, 72)] }))).toEqual([]);
    expect(scorePatient(facts({ readings: [at(4, 69.3), at(1, 71.3)] }), S, NOW).flags[0].label).toBe(
      'Peso: subió 2 kg en 3 días o menos (de 69,3 a 71,3 kg)',
    );
  });

  it('no reading for 3 days while a vital-sign order is running', () => {
    const order = [{ clinical_element: 6, start_at: NOW - 30 * DAY_MS }];
    const readings = series(6, times(20, 120), 1);
    const flagged = facts({ runningVitalOrders: order, readings, lastReadingAt: { 6: NOW - 3 * DAY_MS } });
    expect(codes(flagged)).toEqual(['no_readings']);
    expect(scorePatient(flagged, S, NOW).flags[0].label).toBe('Sin lecturas de Glucosa hace 3 días con una orden en ejecución');
    const recent = facts({ runningVitalOrders: order, readings, lastReadingAt: { 6: NOW - 2.9 * DAY_MS } });
    expect(codes(recent)).toEqual([]);
    // It becomes due exactly 3 days after the last reading: the summary is recomputed then.
    expect(scorePatient(recent, S, NOW).validUntil).toBe(NOW + 0.1 * DAY_MS);
    const noOrder = facts({ lastReadingAt: { 6: NOW - 10 * DAY_MS } });
    expect(codes(noOrder)).toEqual([]);
    expect(scorePatient(noOrder, S, NOW).validUntil).toBe(NOW + TRIAGE_REFRESH_MS);
  });

  it('an order started 2 days ago has not waited 3 days yet', () => {
    expect(codes(facts({ runningVitalOrders: [{ clinical_element: 3, start_at: NOW - 2 * DAY_MS }] }))).toEqual([]);
  });

  it('adherence in the red band (50 % or less, contract/rules/adherence.ts)', () => {
    expect(codes(facts({ adherencePercent: 50 }))).toEqual(['adherence_low']);
    expect(codes(facts({ adherencePercent: 51 }))).toEqual([]);
    expect(codes(facts({ adherencePercent: null }))).toEqual([]);
  });

  it('missed medication activities', () => {
    const r = scorePatient(facts({ missedMedication: 3 }), S, NOW);
    expect(r.flags.map((f) => [f.code, f.label])).toEqual([['missed_medication', '3 tomas de medicación no realizadas en 14 días']]);
  });
});

describe('score', () => {
  it('adds the points of every flag; open alerts count per alert and priority (30, 20, 10)', () => {
    const r = scorePatient(facts({ openAlerts: { high: 1, medium: 2, low: 0 }, missedMedication: 1 }), S, NOW);
    expect(r.flags[0].label).toBe('3 alertas abiertas (1 alta, 2 medias)');
    expect(r.score).toBe(30 + 2 * 20 + 10);
    expect(r.mask).toBe((1 << 0) | (1 << 10));
  });

  it("follows the client's settings over the defaults", () => {
    const s = triageSettingsOf({ tir_min_percent: 70, weights: { glucose_tir_low: 50 } });
    expect(s.below_low_max_percent).toBe(4);
    const readings = series(6, [...times(13, 120), ...times(7, 250)]);
    expect(scorePatient(facts({ readings }), s, NOW)).toMatchObject({ score: 50, flags: [{ code: 'glucose_tir_low' }] });
  });

  it('readings older than two windows or in the future do not count', () => {
    const readings = [
      { clinical_element: 2, value: 80, when: NOW - 29 * DAY_MS },
      { clinical_element: 2, value: 80, when: NOW + DAY_MS },
    ];
    expect(codes(facts({ readings }))).toEqual([]);
  });
});

describe('chunkByWeight: a batch split so one read of its readings stays bounded', () => {
  const w = (pairs: Array<[number, number]>) => new Map(pairs);
  it.each([
    ['nothing', [], w([]), 10, []],
    [
      'all light: one run',
      [1, 2, 3],
      w([
        [1, 2],
        [2, 3],
        [3, 4],
      ]),
      10,
      [[1, 2, 3]],
    ],
    [
      'exactly the limit stays in one run',
      [1, 2],
      w([
        [1, 5],
        [2, 5],
      ]),
      10,
      [[1, 2]],
    ],
    [
      'one over the limit starts a new run',
      [1, 2, 3],
      w([
        [1, 5],
        [2, 5],
        [3, 1],
      ]),
      10,
      [[1, 2], [3]],
    ],
    [
      'a patient heavier than the limit runs alone',
      [1, 2, 3],
      w([
        [1, 1],
        [2, 50],
        [3, 1],
      ]),
      10,
      [[1], [2], [3]],
    ],
    ['no readings weigh nothing', [1, 2, 3], w([[2, 10]]), 10, [[1, 2, 3]]],
    [
      'order kept',
      [9, 4, 7],
      w([
        [9, 6],
        [4, 6],
        [7, 6],
      ]),
      10,
      [[9], [4], [7]],
    ],
  ] as const)('%s', (_name, ids, weights, max, runs) => {
    expect(chunkByWeight([...ids], weights, max)).toEqual(runs);
  });
});
