import { describe, expect, it } from 'vitest';
import {
  activityCount,
  activityStatusAt,
  describeOrder,
  doseCount,
  durationDays,
  generateActivityTimes,
  localParts,
  localToUtc,
  medicationActivityCount,
  normaliseDays,
  orderProgress,
  orderStatusAt,
  orderText,
  parseAmount,
  startFromBulkDate,
  bulkStart,
  startFromInstant,
  summarise,
  vitalSignActivityCount,
  type MedicationSchedule,
  type VitalSignSchedule,
} from './activities';
import { ACTIVITY_LIFECYCLE_CASES, CASE_FIRST_AT, CASE_LAST_AT, CASE_PROGRAMMED_AT, ORDER_LIFECYCLE_CASES } from './activities.cases';

const med = (frecuency: number, time_unit: number, during: number, extra: Partial<MedicationSchedule> = {}): MedicationSchedule => ({
  order_type: 1,
  frecuency,
  time_unit,
  during,
  ...extra,
});
const vital = (
  frequency_type: number,
  days: number[],
  hours: string[],
  during: number,
  extra: Partial<VitalSignSchedule> = {},
): VitalSignSchedule => ({
  order_type: 0,
  frequency_type,
  days,
  hours,
  during,
  ...extra,
});
const local = (times: Date[], tz: string) =>
  times.map((t) => {
    const p = localParts(t, tz);
    return `${p.date} ${p.time}`;
  });

describe('02 §9 "Dose count: hours unit = floor(24 / frequency × days) × amount; days unit = floor(days / frequency) × amount"', () => {
  it.each([
    // frecuency, time_unit, days, amount, activities, doses
    [8, 0, 7, '1', 21, 21],
    [6, 0, 1, '2', 4, 8],
    [5, 0, 3, '1', 14, 14], // floor(24/5 × 3) = floor(14.4)
    [7, 0, 7, '1/2', 24, 12],
    [12, 0, 10, '1 1/2', 20, 30],
    [1, 0, 1, '1', 24, 24],
    [2, 1, 7, '1', 3, 3], // floor(7/2)
    [1, 1, 30, '1/4', 30, 7.5],
    [3, 1, 2, '1', 0, 0],
    [1, 2, 21, '1', 3, 3], // weeks: floor(21 / 7)
  ])('every %s (unit %s) for %s days, amount %s → %s activities, %s units', (f, unit, days, amount, activities, doses) => {
    const o = med(f, unit, days);
    expect(medicationActivityCount(o)).toBe(activities);
    expect(doseCount({ ...o, amount })).toBe(doses);
    expect(generateActivityTimes(o, { date: '2026-03-02', time: '08:00' }, 'America/Bogota')).toHaveLength(activities);
  });
});

describe('02 §9 "Vital-sign activities: daily = days × number of hours; weekly = weeks × selected days × hours, where weeks = duration"', () => {
  it.each([
    [0, [], ['08:00'], 7, 7],
    [0, [], ['08:00', '20:00'], 7, 14],
    [0, [1, 3], ['08:00', '12:00', '18:00'], 2, 6], // daily ignores days
    [1, [1, 3, 5], ['08:00'], 2, 6],
    [1, [0, 6], ['07:00', '19:00'], 4, 16],
    [1, [0, 1, 2, 3, 4, 5, 6], ['08:00'], 1, 7],
    [1, [], ['08:00'], 3, 0],
    [0, [], [], 7, 0],
  ])('frequency_type %s days %j hours %j during %s → %s', (type, days, hours, during, expected) => {
    const o = vital(type, days, hours, during);
    expect(vitalSignActivityCount(o)).toBe(expected);
    for (const date of ['2026-03-01', '2026-03-04', '2026-10-22']) {
      expect(generateActivityTimes(o, { date, time: '00:00' }, 'Europe/Madrid')).toHaveLength(expected);
    }
  });
});

describe('02 §9 "Estimated duration: maximum of the orders durations, with weekly durations multiplied by 7"', () => {
  it.each([
    [[med(8, 0, 7)], 7],
    [[med(8, 0, 7), vital(1, [1], ['08:00'], 2)], 14],
    [[vital(0, [], ['08:00'], 10), vital(1, [1], ['08:00'], 1)], 10],
  ])('%#', (orders, expected) => {
    expect(Math.max(...orders.map(durationDays))).toBe(expected);
    const times = orders.map((o) => generateActivityTimes(o, { date: '2026-05-04', time: '08:00' }, 'America/Bogota'));
    const s = summarise(times, orders);
    expect(s.duration).toBe(expected);
    expect(s.orders).toBe(orders.length);
    expect(s.activities).toBe(orders.reduce((n, o) => n + activityCount(o), 0));
    expect(s.averagePerDay).toBe(Math.round((s.activities / expected) * 10) / 10);
  });
});

describe('daylight saving (D5): a 08:00 activity stays at 08:00 local', () => {
  it('Europe/Madrid across the spring-forward of 2026-03-29', () => {
    const times = generateActivityTimes(vital(0, [], ['08:00'], 3), { date: '2026-03-28', time: '00:00' }, 'Europe/Madrid');
    expect(local(times, 'Europe/Madrid')).toEqual(['2026-03-28 08:00', '2026-03-29 08:00', '2026-03-30 08:00']);
    expect(times.map((t) => t.toISOString())).toEqual(['2026-03-28T07:00:00.000Z', '2026-03-29T06:00:00.000Z', '2026-03-30T06:00:00.000Z']);
  });
  it('Europe/Madrid across the fall-back of 2026-10-25, every 8 hours keeps 08, 16, 00', () => {
    const times = generateActivityTimes(med(8, 0, 3), { date: '2026-10-24', time: '08:00' }, 'Europe/Madrid');
    expect(local(times, 'Europe/Madrid')).toEqual([
      '2026-10-24 08:00',
      '2026-10-24 16:00',
      '2026-10-25 00:00',
      '2026-10-25 08:00',
      '2026-10-25 16:00',
      '2026-10-26 00:00',
      '2026-10-26 08:00',
      '2026-10-26 16:00',
      '2026-10-27 00:00',
    ]);
  });
  it('daily medication keeps its time of day across the change', () => {
    const times = generateActivityTimes(med(1, 1, 4), { date: '2026-03-27', time: '21:30' }, 'Europe/Madrid');
    expect(local(times, 'Europe/Madrid')).toEqual(['2026-03-27 21:30', '2026-03-28 21:30', '2026-03-29 21:30', '2026-03-30 21:30']);
  });
  it('America/Bogota has no DST: UTC-5 all year', () => {
    const times = generateActivityTimes(vital(0, [], ['08:00'], 2), { date: '2026-03-28', time: '00:00' }, 'America/Bogota');
    expect(times.map((t) => t.toISOString())).toEqual(['2026-03-28T13:00:00.000Z', '2026-03-29T13:00:00.000Z']);
  });
  it('a time skipped by spring-forward lands after the gap, never before', () => {
    const t = localToUtc('2026-03-29', 2 * 60 + 30, 'Europe/Madrid');
    expect(localParts(t, 'Europe/Madrid').time).toBe('03:30');
  });
});

describe('weekdays (02 §5): daily = all seven, weekly sorted', () => {
  it.each([
    [0, [3, 1], [0, 1, 2, 3, 4, 5, 6]],
    [1, [5, 1, 3, 1], [1, 3, 5]],
    [1, [], []],
    [1, [9, -1, 2], [2]],
  ])('type %s %j → %j', (type, days, expected) => expect(normaliseDays(type, days)).toEqual(expected));
  it('weekly orders land only on the chosen weekdays', () => {
    const times = generateActivityTimes(vital(1, [1, 5], ['09:00'], 2), { date: '2026-06-01', time: '00:00' }, 'America/Bogota');
    expect(local(times, 'America/Bogota')).toEqual(['2026-06-01 09:00', '2026-06-05 09:00', '2026-06-08 09:00', '2026-06-12 09:00']);
  });
});

describe('permanent orders: rolling 30-day horizon (D11)', () => {
  it('generates up to `until` and no further', () => {
    const now = new Date('2026-06-01T12:00:00Z');
    const until = new Date(now.getTime() + 30 * 86_400_000);
    const times = generateActivityTimes(
      vital(0, [], ['08:00'], 1, { permanent: true }),
      { date: '2026-06-01', time: '00:00' },
      'America/Bogota',
      { until },
    );
    expect(times).toHaveLength(30);
    expect(times.at(-1)!.getTime()).toBeLessThanOrEqual(until.getTime());
    const meds = generateActivityTimes(med(12, 0, 1, { permanent: true }), { date: '2026-06-01', time: '08:00' }, 'America/Bogota', {
      until,
    });
    expect(meds).toHaveLength(60);
  });
  it('refuses to run without a horizon', () => {
    expect(() => generateActivityTimes(med(8, 0, 1, { permanent: true }), { date: '2026-06-02', time: '08:00' }, 'UTC')).toThrow();
  });
});

describe('notBefore leaves out times already past', () => {
  it('an order created at 15:00 starting today skips today 08:00', () => {
    const notBefore = new Date('2026-06-01T20:00:00Z'); // 15:00 in Bogotá
    const times = generateActivityTimes(vital(0, [], ['08:00', '18:00'], 2), { date: '2026-06-01', time: '00:00' }, 'America/Bogota', {
      notBefore,
    });
    expect(local(times, 'America/Bogota')).toEqual(['2026-06-01 18:00', '2026-06-02 08:00', '2026-06-02 18:00']);
  });
});

describe('start dates', () => {
  it('a bulk date is the local day, first dose 08:00', () => {
    expect(startFromBulkDate('2026-06-01T00:00:00Z')).toEqual({ date: '2026-06-01', time: '08:00' });
  });
  it.each([
    // start date, now, zone, start: a past date becomes today in the patient's zone (02 §5)
    ['2026-11-30T00:00:00Z', '2026-11-25T15:00:00Z', 'America/Bogota', '2026-11-30'],
    ['2026-11-25T00:00:00Z', '2026-11-25T15:00:00Z', 'America/Bogota', '2026-11-25'],
    ['2026-11-20T00:00:00Z', '2026-11-25T15:00:00Z', 'America/Bogota', '2026-11-25'],
    // 03:00 UTC on the 26th is still the 25th in Bogotá, already the 26th in Madrid
    ['2026-11-25T00:00:00Z', '2026-11-26T03:00:00Z', 'America/Bogota', '2026-11-25'],
    ['2026-11-25T00:00:00Z', '2026-11-26T03:00:00Z', 'Europe/Madrid', '2026-11-26'],
  ])('bulk start %s at %s in %s starts on %s at 08:00', (startAt, now, zone, date) => {
    expect(bulkStart(startAt, new Date(now), zone)).toEqual({ date, time: '08:00' });
  });
  it('an instant is read in the patient zone', () => {
    expect(startFromInstant(new Date('2026-06-01T02:30:00Z'), 'America/Bogota')).toEqual({ date: '2026-05-31', time: '21:30' });
  });
});

describe('lifecycle (D7, D11)', () => {
  const at = (iso: string) => new Date(iso);
  // The same table the API's lifecycle job is run over (tests/api/lifecycle-rule.test.ts).
  it.each(ACTIVITY_LIFECYCLE_CASES)('activity status %s at %s → %s', (status, now, expected) => {
    expect(activityStatusAt(status, at(CASE_PROGRAMMED_AT), at(now))).toBe(expected);
  });
  it.each(ORDER_LIFECYCLE_CASES)('order status %s at %s (permanent %s) → %s', (status, now, permanent, expected) => {
    expect(orderStatusAt(status, at(CASE_FIRST_AT), at(CASE_LAST_AT), permanent, at(now))).toBe(expected);
  });
  it.each([
    [0, 0, 0],
    [1, 2, 50],
    [2, 3, 67],
    [4, 4, 100],
  ])('progress %s/%s = %s%%', (c, d, p) => expect(orderProgress(c, d)).toBe(p));
});

describe('texts', () => {
  it("'1/4' adds the word 'de'", () => {
    expect(orderText({ ...med(8, 0, 7), amount: '1/4', medication_unit: 3, medicine_name: 'Losartán 50 mg' })).toBe(
      'Tomar 1/4 de tableta(s) de Losartán 50 mg cada 8 horas durante 7 días',
    );
  });
  it('02 §2.5 description rule', () => {
    expect(describeOrder('Medir Peso todos los días a las 08:00 durante 7 días', true)).toBe(
      'Medir Peso todos los días a las 08:00, por tiempo indefinido.',
    );
    expect(describeOrder('Medir Peso todos los días a las 08:00 durante 7 días', false)).toBe(
      'Medir Peso todos los días a las 08:00 durante 7 días.',
    );
    expect(describeOrder(null, false)).toBeNull();
  });
  it.each([
    ['1/4', 0.25],
    ['1 1/2', 1.5],
    ['12', 12],
    ['x', NaN],
  ])('amount %s = %s', (a, n) => expect(parseAmount(a)).toBe(n));
});
