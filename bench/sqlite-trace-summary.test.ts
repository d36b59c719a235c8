import { describe, expect, it } from 'vitest';
import { transactionsOf } from './sqlite-trace-summary';

const call = (at: number, ms: number, sql: string) => ({ c: 'W' as const, at, ms, sql });

describe('transactionsOf: the writer trace rebuilt into transactions', () => {
  it.each([
    {
      name: 'BEGIN … COMMIT is one, from the BEGIN call to the COMMIT callback',
      calls: [call(0, 0.5, 'BEGIN IMMEDIATE TRANSACTION'), call(1, 2, 'INSERT INTO measurements'), call(4, 1, 'COMMIT')],
      want: [{ at: 0, ms: 5, statements: 3 }],
    },
    {
      name: 'a statement outside any transaction is one of its own',
      calls: [call(0, 3, 'INSERT INTO audit_events'), call(10, 1, 'BEGIN;'), call(11, 1, 'UPDATE orders'), call(12, 1, 'ROLLBACK')],
      want: [
        { at: 0, ms: 3, statements: 1 },
        { at: 10, ms: 3, statements: 3 },
      ],
    },
    {
      name: 'a transaction the log cut off before its COMMIT is left out',
      calls: [call(0, 1, 'COMMIT'), call(5, 1, 'BEGIN IMMEDIATE TRANSACTION'), call(6, 1, 'INSERT INTO x')],
      want: [{ at: 0, ms: 1, statements: 1 }],
    },
  ])('$name', ({ calls, want }) => {
    expect(transactionsOf(calls).map((t) => ({ at: t.at, ms: t.ms, statements: t.statements.length }))).toEqual(want);
  });
});
