import { describe, expect, it } from 'vitest';
import {
  alarmBands,
  axisLabel,
  defaultLatest,
  latestOptions,
  latestPoints,
  pairBloodPressure,
  showLatestSelector,
  timeDomain,
  timeTicks,
  valueDomain,
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
