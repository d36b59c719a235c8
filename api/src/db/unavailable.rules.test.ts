import { describe, expect, it } from 'vitest';
import { databaseFailureOf } from './unavailable.rules.js';

/** Shaped as Sequelize raises them: the driver's error as `parent` and `original`. */
const sequelizeError = (name: string, driver: object & { message: string }) =>
  Object.assign(new Error(driver.message), { name, parent: driver, original: driver });

describe('databaseFailureOf', () => {
  it.each<[string, unknown, ReturnType<typeof databaseFailureOf>]>([
    [
      'PostgreSQL refuses the connection (stopped, or the network cut)',
      sequelizeError(
        'SequelizeConnectionRefusedError',
        Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      ),
      'unreachable',
    ],
    [
      'a pooled connection cut in the middle of a statement',
      sequelizeError('SequelizeDatabaseError', new Error('Connection terminated unexpectedly')),
      'unreachable',
    ],
    [
      'pg_terminate_backend (57P01)',
      sequelizeError(
        'SequelizeDatabaseError',
        Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      ),
      'unreachable',
    ],
    [
      'the database renamed or dropped (3D000)',
      sequelizeError('SequelizeConnectionError', Object.assign(new Error('database "vigia" does not exist'), { code: '3D000' })),
      'unreachable',
    ],
    [
      'a reset socket under a Sequelize error',
      sequelizeError('SequelizeDatabaseError', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })),
      'unreachable',
    ],
    [
      'SQLite cannot open its file',
      sequelizeError(
        'SequelizeConnectionError',
        Object.assign(new Error('SQLITE_CANTOPEN: unable to open database file'), { code: 'SQLITE_CANTOPEN' }),
      ),
      'unreachable',
    ],
    ['SQLite locked by another process', sequelizeError('SequelizeTimeoutError', new Error('SQLITE_BUSY: database is locked')), 'busy'],
    [
      'SQLite disk full',
      sequelizeError('SequelizeDatabaseError', Object.assign(new Error('SQLITE_FULL: database or disk is full'), { code: 'SQLITE_FULL' })),
      'busy',
    ],
    [
      'PostgreSQL deadlock',
      sequelizeError('SequelizeDatabaseError', Object.assign(new Error('deadlock detected'), { code: '40P01' })),
      'busy',
    ],
    [
      'every pooled connection taken',
      Object.assign(new Error('Operation timeout'), { name: 'SequelizeConnectionAcquireTimeoutError' }),
      'busy',
    ],
    [
      "a webhook receiver's reset (no Sequelize error): not the database",
      new TypeError('fetch failed', { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) }),
      null,
    ],
    [
      'a unique constraint',
      sequelizeError('SequelizeUniqueConstraintError', Object.assign(new Error('duplicate key'), { code: '23505' })),
      null,
    ],
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'id')"), null],
    ['not an error at all', 'texto', null],
  ])('%s', (_name, err, expected) => {
    expect(databaseFailureOf(err)).toBe(expected);
  });
});
