import { describe, expect, it } from 'vitest';
import {
  PRIORITIES,
  SERIES_COLORS,
  alarmBands,
  alertRanges,
  axisLabel,
  NORMAL_ZONE,
  chartSummary,
  defaultLatest,
  distinctTicks,
  latestOptions,
  latestPoints,
  pairBloodPressure,
  showLatestSelector,
  timeDomain,
  timeTicks,
  valueDomain,
  valueZones,
} from './charts';

const DAY = 86_400_000;

describe('Mostrar últimos (01 §9: default 10; options 5, steps of 10 and the total; shown above 5 points)', () => {
  it.each([
    [0, false, [], 0],
    [5, false, [], 5],
    [6, true, [5, 6], 6],
    [10, true, [5, 10], 10],
    [11, true, [5, 10, 11], 10],
    [37, true, [5, 10, 20, 30, 37], 10],
    [40, true, [5, 10, 20, 30, 40], 10],
  ])('%i points → selector %s, options %j, default %i', (total, shown, options, def) => {
    expect(showLatestSelector(total)).toBe(shown);
    expect(latestOptions(total)).toEqual(options);
    expect(defaultLatest(total)).toBe(def);
  });

  it('keeps the latest n points, oldest first', () => {
    const pts = [3, 1, 2, 5, 4].map((d) => ({ when: d * DAY, value: d }));
    expect(latestPoints(pts, 2).map((p) => p.value)).toEqual([4, 5]);
    expect(latestPoints(pts, 10)).toHaveLength(5);
  });
});

describe('time axis', () => {
  it('gives a single point 15 days either side', () => {
    expect(timeDomain([{ when: 100 * DAY }])).toEqual([85 * DAY, 115 * DAY]);
  });

  it('spans the points otherwise, and nothing for no points', () => {
    expect(timeDomain([{ when: 5 }, { when: 1 }, { when: 9 }])).toEqual([1, 9]);
    expect(timeDomain([])).toBeNull();
  });

  it.each([[6], [10], [3]])('draws at most 6 ticks (asked %i), ends included', (max) => {
    const ticks = timeTicks([0, 30 * DAY], max);
    expect(ticks.length).toBeLessThanOrEqual(6);
    expect(ticks[0]).toBe(0);
    expect(ticks.at(-1)).toBe(30 * DAY);
  });
});

describe("time-axis labels (in the patient's zone; the hour instead of the day when the axis spans under two days)", () => {
  const at = Date.parse('2026-11-21T11:55:00Z');
  it.each([
    ['ten readings of one morning', [at - 3_600_000, at], 'America/Bogota', '06:55'],
    ['just under two days', [at - 2 * DAY + 60_000, at], 'America/Bogota', '06:55'],
    ['two days', [at - 2 * DAY, at], 'America/Bogota', '21/11'],
    ['a month', [at - 30 * DAY, at], 'America/Bogota', '21/11'],
    ['another zone', [at - 3_600_000, at], 'Asia/Tokyo', '20:55'],
    ['another zone, another day', [at - 30 * DAY, at], 'Pacific/Kiritimati', '22/11'],
    ['a single point (±15 days window)', [at - 15 * DAY, at + 15 * DAY], 'Europe/Madrid', '21/11'],
  ] as const)('%s → %s', (_what, domain, zone, label) => {
    expect(axisLabel(at, [domain[0], domain[1]], zone)).toBe(label);
  });
});

describe('blood pressure (01 §5: 3 and 4 must have equal length)', () => {
  it('pairs systolic and diastolic by position', () => {
    expect(
      pairBloodPressure(
        [
          { when: 2, value: 130 },
          { when: 1, value: 120 },
        ],
        [
          { when: 1, value: 80 },
          { when: 2, value: 85 },
        ],
      ),
    ).toEqual([
      { when: 1, systolic: 120, diastolic: 80 },
      { when: 2, systolic: 130, diastolic: 85 },
    ]);
  });

  it('draws nothing when the lengths differ', () => {
    expect(pairBloodPressure([{ when: 1, value: 120 }], [])).toBeNull();
  });
});

describe('alarm bands by priority (1 Alta, 2 Media, 3 Baja)', () => {
  const alarms = [
    { id: 1, name: 'Taquicardia', clinical_element: 1, priority: 1, minimum_condition: 50, maximum_condition: 120 },
    { id: 2, name: 'Vigilar', clinical_element: 1, priority: 3, minimum_condition: 60, maximum_condition: 100 },
    { id: 3, name: 'Otra', clinical_element: 2, priority: 2, minimum_condition: 90, maximum_condition: 100 },
  ];

  it("keeps the chart's elements and draws low priority first, high on top", () => {
    const bands = alarmBands(alarms, [1]);
    expect(bands.map((b) => [b.priority, b.label, b.from, b.to])).toEqual([
      [3, 'Prioridad Baja: Vigilar', 60, 100],
      [1, 'Prioridad Alta: Taquicardia', 50, 120],
    ]);
  });

  it('includes the bands in the value axis with head-room, never below zero', () => {
    expect(valueDomain([70, 80], alarmBands(alarms, [1]))).toEqual([43, 127]);
    expect(valueDomain([0.5])).toEqual([0, 2]);
    expect(valueDomain([])).toBeNull();
  });
});

describe('blood-pressure bands (issue 19: a systolic 90–140 and a diastolic 60–90 range must not read as one 60–140 band)', () => {
  const rules = [
    { id: 3, name: 'Presión sistólica fuera de rango', clinical_element: 3, priority: 2, minimum_condition: 90, maximum_condition: 140 },
    { id: 4, name: 'Presión diastólica fuera de rango', clinical_element: 4, priority: 2, minimum_condition: 60, maximum_condition: 90 },
  ];

  it('names each band after its series, in the series colour, with its own range', () => {
    expect(alarmBands(rules, [3, 4]).map((b) => [b.from, b.to, b.series])).toEqual([
      [90, 140, { name: 'Sistólica', color: SERIES_COLORS[0], caption: 'Sistólica 90–140' }],
      [60, 90, { name: 'Diastólica', color: SERIES_COLORS[1], caption: 'Diastólica 60–90' }],
    ]);
    expect(SERIES_COLORS[0]).not.toBe(SERIES_COLORS[1]);
  });

  it('keeps the priority fill (P29) and leaves one-series charts without a series', () => {
    expect(alarmBands(rules, [3, 4]).map((b) => b.color)).toEqual([PRIORITIES[2].color, PRIORITIES[2].color]);
    expect(alarmBands(rules, [3])[0].series).toBeUndefined();
  });

  it('describes the chart in words, each range on its own', () => {
    const series = [
      { name: 'Sistólica', points: [1, 2] },
      { name: 'Diastólica', points: [1, 2] },
    ];
    expect(chartSummary(series, alarmBands(rules, [3, 4]), 'mmHg')).toBe(
      'Sistólica: 2 lecturas; Diastólica: 2 lecturas. Rangos: Sistólica 90–140 mmHg (Prioridad Media: Presión sistólica fuera de rango); ' +
        'Diastólica 60–90 mmHg (Prioridad Media: Presión diastólica fuera de rango).',
    );
    expect(chartSummary([{ name: 'Glucosa', points: [1] }], [], 'mg/dL')).toBe('Glucosa: 1 lectura.');
  });
});

describe("an alert's chart draws the rule that raised it (02 §2.8)", () => {
  const assigned = [{ id: 1, name: 'Taquicardia', clinical_element: 1, priority: 1, minimum_condition: 50, maximum_condition: 110 }];
  const rule = { id: 9, name: 'Bradicardia', priority: 2, minimum_condition: 55, maximum_condition: 100 };

  it.each([
    ['rule no longer assigned: added from the alert', [], rule, 1, [[9, 55, 100]]],
    ['rule still assigned: drawn once', [{ ...rule, clinical_element: 1 }], rule, 1, [[9, 55, 100]]],
    [
      'other rules assigned: both',
      assigned,
      rule,
      1,
      [
        [1, 50, 110],
        [9, 55, 100],
      ],
    ],
    ['rule deleted (no id): added', [], { ...rule, id: null }, 1, [[undefined, 55, 100]]],
    ['no rule (an AI alert): the assigned only', assigned, null, 1, [[1, 50, 110]]],
  ] as const)('%s', (_, list, alertRule, element, expected) => {
    const ranges = alertRanges(list, alertRule, element);
    expect(ranges.map((r) => [r.id, r.minimum_condition, r.maximum_condition])).toEqual(expected);
    expect(alarmBands(ranges, [element]).length).toBe(expected.length);
  });
});

describe('time ticks (01 §2: at most 6), as the alert chart now draws them', () => {
  it.each([2, 6, 9, 30])('asked for %i ticks over 30 days → at most 6', (asked) => {
    expect(timeTicks([0, 30 * DAY], asked).length).toBeLessThanOrEqual(6);
  });
});

describe('value zones (issue 50: the normal range is never tinted as danger)', () => {
  const band = (priority: number, from: number, to: number, series?: boolean) =>
    alarmBands(
      [{ id: priority, clinical_element: series ? 3 : 1, priority, minimum_condition: from, maximum_condition: to }],
      series ? [3, 4] : [1],
    )[0];
  const zones = (bands: ReturnType<typeof band>[], domain: [number, number]) =>
    valueZones(bands, domain).map((z) => [z.from, z.to, z.priority, z.color]);
  const RED = PRIORITIES[1].color;
  const AMBER = PRIORITIES[2].color;
  const GREEN = NORMAL_ZONE.color;

  it.each([
    ['no rule: no zones', [], [0, 100], []],
    [
      'one Alta rule: green inside, red either side',
      [band(1, 60, 100)],
      [43, 127],
      [
        [43, 60, 1, RED],
        [60, 100, null, GREEN],
        [100, 127, 1, RED],
      ],
    ],
    [
      'Media inside Alta: green, amber, then red further out',
      [band(2, 60, 100), band(1, 50, 120)],
      [40, 130],
      [
        [40, 50, 1, RED],
        [50, 60, 2, AMBER],
        [60, 100, null, GREEN],
        [100, 120, 2, AMBER],
        [120, 130, 1, RED],
      ],
    ],
    ['a range past the axis: green to the edge', [band(1, 0, 200)], [43, 127], [[43, 127, null, GREEN]]],
    [
      'a range beside the readings: all below it is red',
      [band(2, 90, 100)],
      [70, 110],
      [
        [70, 90, 2, AMBER],
        [90, 100, null, GREEN],
        [100, 110, 2, AMBER],
      ],
    ],
    ['blood pressure (two series): none, each range is drawn in range only', [band(1, 90, 140, true)], [50, 160], []],
  ] as const)('%s', (_what, bands, domain, expected) => {
    expect(zones([...bands], [domain[0], domain[1]])).toEqual(expected);
  });

  it('never gives the in-range zone a priority colour, and names it', () => {
    const inRange = valueZones([band(1, 60, 100)], [0, 200]).find((z) => z.priority == null)!;
    expect([inRange.from, inRange.to, inRange.label]).toEqual([60, 100, 'En rango']);
    expect(Object.values(PRIORITIES).map((p) => p.color)).not.toContain(inRange.color);
  });
});

describe('one time tick per date (issue 50: a phone showed 21/11 21/11 22/11)', () => {
  const at = Date.parse('2026-11-21T11:55:00Z');
  const label = (domain: [number, number]) => (t: number) => axisLabel(t, domain, 'America/Bogota');
  it.each([
    ['three days: six ticks, four dates', [at, at + 3 * DAY], ['21/11', '22/11', '23/11', '24/11']],
    ['a month: six dates, none dropped', [at, at + 30 * DAY], ['21/11', '27/11', '03/12', '09/12', '15/12', '21/12']],
    ['one morning: the hours, all kept', [at, at + 5 * 3_600_000], ['06:55', '07:55', '08:55', '09:55', '10:55', '11:55']],
  ] as const)('%s', (_what, domain, expected) => {
    const d: [number, number] = [domain[0], domain[1]];
    expect(distinctTicks(timeTicks(d), label(d)).map(label(d))).toEqual(expected);
  });
});
