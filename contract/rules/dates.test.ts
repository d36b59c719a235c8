import { describe, expect, it } from 'vitest';
import {
  addDays,
  dayStartUtc,
  formatCalendarDay,
  formatDate,
  formatDay,
  formatTime,
  formatWhen,
  localDate,
  localDateTime,
  localParts,
  localToUtc,
  nextDay,
  weekdayOf,
  zoneOffsetMs,
} from './dates';

const HOUR = 3_600_000;

describe('zoneOffsetMs', () => {
  it.each([
    ['America/Bogota', '2026-11-25T12:00:00Z', -5],
    ['America/Bogota', '2026-06-25T12:00:00Z', -5],
    ['America/New_York', '2026-03-08T06:59:00Z', -5],
    ['America/New_York', '2026-03-08T07:00:00Z', -4],
    ['America/New_York', '2026-11-01T05:59:00Z', -4],
    ['America/New_York', '2026-11-01T06:00:00Z', -5],
    ['Europe/Madrid', '2026-03-29T00:59:00Z', 1],
    ['Europe/Madrid', '2026-03-29T01:00:00Z', 2],
    ['America/Santiago', '2026-09-06T03:59:00Z', -4],
    ['America/Santiago', '2026-09-06T04:00:00Z', -3],
    ['Asia/Kolkata', '2026-01-01T00:00:00Z', 5.5],
  ])('%s at %s is UTC%s h', (zone, at, hours) => {
    expect(zoneOffsetMs(at, zone)).toBe(hours * HOUR);
  });
});

describe('localToUtc and dayStartUtc across daylight saving', () => {
  it.each([
    // zone, day, wall time, instant: plain days
    ['America/Bogota', '2026-11-25', '00:00', '2026-11-25T05:00:00.000Z'],
    ['America/Bogota', '2026-11-25', '23:59', '2026-11-26T04:59:00.000Z'],
    ['Asia/Kolkata', '2026-11-25', '00:00', '2026-11-24T18:30:00.000Z'],
    // spring forward at 02:00 (New York, Madrid at 02:00 local): a skipped time lands after the gap
    ['America/New_York', '2026-03-08', '00:00', '2026-03-08T05:00:00.000Z'],
    ['America/New_York', '2026-03-08', '01:59', '2026-03-08T06:59:00.000Z'],
    ['America/New_York', '2026-03-08', '02:30', '2026-03-08T07:30:00.000Z'],
    ['America/New_York', '2026-03-08', '03:00', '2026-03-08T07:00:00.000Z'],
    ['Europe/Madrid', '2026-03-29', '00:00', '2026-03-28T23:00:00.000Z'],
    ['Europe/Madrid', '2026-03-29', '02:30', '2026-03-29T01:30:00.000Z'],
    // fall back: a repeated time is its first occurrence
    ['America/New_York', '2026-11-01', '01:30', '2026-11-01T05:30:00.000Z'],
    ['America/New_York', '2026-11-01', '02:00', '2026-11-01T07:00:00.000Z'],
    ['Europe/Madrid', '2026-10-25', '02:30', '2026-10-25T00:30:00.000Z'],
    // midnight skipped (Chile, Cuba): the day starts at its first real instant, 01:00
    ['America/Santiago', '2026-09-06', '00:00', '2026-09-06T04:00:00.000Z'],
    ['America/Havana', '2026-03-08', '00:00', '2026-03-08T05:00:00.000Z'],
    // the hour before midnight repeated (Chile in April, 24:00 -03 back to 23:00 -04): midnight comes once
    ['America/Santiago', '2026-04-05', '00:00', '2026-04-05T04:00:00.000Z'],
  ])('%s %s %s is %s', (zone, day, time, instant) => {
    const [h, m] = time.split(':').map(Number);
    expect(localToUtc(day, h * 60 + m, zone).toISOString()).toBe(instant);
    if (time === '00:00') expect(dayStartUtc(day, zone).toISOString()).toBe(instant);
  });

  it('never starts a day on the day before, in any zone, any day of 2026', () => {
    for (const zone of ['America/Bogota', 'America/New_York', 'America/Santiago', 'America/Havana', 'America/Asuncion', 'Europe/Madrid']) {
      for (let day = '2026-01-01'; day < '2027-01-01'; day = addDays(day, 1)) {
        expect(localDate(dayStartUtc(day, zone), zone), `${zone} ${day}`).toBe(day);
      }
    }
  });
});

describe('calendar days', () => {
  it.each([
    ['2026-02-28', 1, '2026-03-01'],
    ['2028-02-28', 1, '2028-02-29'],
    ['2026-12-31', 1, '2027-01-01'],
    ['2026-03-01', -1, '2026-02-28'],
    ['2026-11-25', 30, '2026-12-25'],
  ])('%s plus %i days is %s', (day, n, expected) => {
    expect(addDays(day, n)).toBe(expected);
    if (n === 1) expect(nextDay(day)).toBe(expected);
  });

  it.each([
    ['2026-11-22', 0],
    ['2026-11-25', 3],
    ['2026-11-28', 6],
  ])('%s is weekday %i', (day, weekday) => {
    expect(weekdayOf(day)).toBe(weekday);
  });
});

describe('day/month/year text (01 §1)', () => {
  const at = '2026-11-25T06:19:00Z';
  it.each([
    ['America/Bogota', '25/11/2026 01:19', '25/11/2026', '01:19', '25/11', '2026-11-25 01:19', '2026-11-25'],
    ['Europe/Madrid', '25/11/2026 07:19', '25/11/2026', '07:19', '25/11', '2026-11-25 07:19', '2026-11-25'],
    ['America/Los_Angeles', '24/11/2026 22:19', '24/11/2026', '22:19', '24/11', '2026-11-24 22:19', '2026-11-24'],
  ])('in %s', (zone, when, date, time, day, dateTime, calendarDay) => {
    expect(formatWhen(at, zone)).toBe(when);
    expect(formatDate(at, zone)).toBe(date);
    expect(formatTime(at, zone)).toBe(time);
    expect(formatDay(Date.parse(at), zone)).toBe(day);
    expect(localDateTime(at, zone)).toBe(dateTime);
    expect(localDate(at, zone)).toBe(calendarDay);
  });

  it('writes midnight as 00, not 24', () => {
    expect(formatTime('2026-11-25T05:00:00Z', 'America/Bogota')).toBe('00:00');
    expect(localParts(new Date('2026-11-25T05:00:00Z'), 'America/Bogota')).toEqual({ date: '2026-11-25', time: '00:00', weekday: 3 });
  });

  it('formats a calendar day without a zone', () => {
    expect(formatCalendarDay('2026-10-25')).toBe('25/10/2026');
  });
});
