import { describe, expect, it } from 'vitest';
import { isConfirmableAt } from './activities.confirm.rules';

const AT = new Date('2026-11-21T13:00:00Z');
const min = (n: number) => new Date(AT.getTime() + n * 60_000);

describe('isConfirmableAt (D11, P53): a medication activity during its hour', () => {
  it.each([
    ['medication, Programada, at its time', { order_type: 1, status: 0 }, min(0), true],
    ['medication, En proceso, 59 minutes later', { order_type: 1, status: 1 }, min(59), true],
    ['medication, one hour later (the window is closed)', { order_type: 1, status: 1 }, min(60), false],
    ['medication, one minute early', { order_type: 1, status: 0 }, min(-1), false],
    ['medication already Completada', { order_type: 1, status: 2 }, min(10), false],
    ['medication Cancelada', { order_type: 1, status: 3 }, min(10), false],
    ['medication Suspendida', { order_type: 1, status: 5 }, min(10), false],
    ['medication No reportada', { order_type: 1, status: 6 }, min(10), false],
    ['vital sign (completed by a reading, never confirmed)', { order_type: 0, status: 1 }, min(10), false],
  ])('%s → %s', (_name, a, now, expected) => {
    expect(isConfirmableAt({ ...a, programmed_at: AT }, now)).toBe(expected);
  });
});
