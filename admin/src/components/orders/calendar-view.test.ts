import { describe, expect, it } from 'vitest';
import { agendaDays, openingTime } from './calendar-view';

describe('the week opens at the working day (issue 50: it opened at 00:00)', () => {
  it.each([
    ['no activities', [], '07:00:00'],
    ['all later in the day', ['08:00', '20:00'], '07:00:00'],
    ['one at 05:30', ['09:00', '05:30'], '05:00:00'],
    ['one at midnight', ['00:00', '12:00'], '00:00:00'],
    ['07:45 is the working day', ['07:45'], '07:00:00'],
    ['a malformed time is ignored', ['xx:yy', '10:00'], '07:00:00'],
  ] as const)('%s → %s', (_what, times, expected) => {
    expect(openingTime(times)).toBe(expected);
  });
});

describe("a phone's week as a list of days", () => {
  const items = [
    { id: 3, date: '2026-12-08', time: '20:00' },
    { id: 1, date: '2026-12-07', time: '08:00' },
    { id: 2, date: '2026-12-08', time: '08:00' },
    { id: 9, date: '2026-12-14', time: '08:00' },
  ];
  it('gives every day of the week, empty ones too, each by time; nothing outside it', () => {
    expect(agendaDays('2026-12-07', 7, items).map((d) => [d.date, d.items.map((a) => a.id)])).toEqual([
      ['2026-12-07', [1]],
      ['2026-12-08', [2, 3]],
      ['2026-12-09', []],
      ['2026-12-10', []],
      ['2026-12-11', []],
      ['2026-12-12', []],
      ['2026-12-13', []],
    ]);
  });
  it('crosses a month and a year', () => {
    expect(agendaDays('2026-12-28', 7, []).map((d) => d.date)).toEqual([
      '2026-12-28',
      '2026-12-29',
      '2026-12-30',
      '2026-12-31',
      '2027-01-01',
      '2027-01-02',
      '2027-01-03',
    ]);
  });
});
