import { describe, expect, it } from 'vitest';
import { readinessReasons, STALLED_AFTER_MS, type ReadinessFacts } from './health.rules.js';

const healthy: ReadinessFacts = { databaseError: null, pendingMigrations: [], jobsStarted: true, oldestDueMs: null, shuttingDown: false };

describe('readinessReasons', () => {
  it.each<[string, Partial<ReadinessFacts>, string[]]>([
    ['everything answers', {}, []],
    ['a due job younger than the limit', { oldestDueMs: STALLED_AFTER_MS }, []],
    ['a due job older than the limit while the runner polls', { oldestDueMs: STALLED_AFTER_MS + 1 }, ['jobs_stalled']],
    ['an old due job in a process that does not poll', { jobsStarted: false, oldestDueMs: 3_600_000 }, []],
    ['the database does not answer', { databaseError: 'ECONNREFUSED', pendingMigrations: null }, ['database_unavailable']],
    ['a migration not applied', { pendingMigrations: ['0027-password-resets-sessions'] }, ['migrations_pending']],
    ['SIGTERM received', { shuttingDown: true }, ['shutting_down']],
    [
      'several at once',
      { shuttingDown: true, pendingMigrations: ['0001'], oldestDueMs: 10 * 60_000 },
      ['shutting_down', 'migrations_pending', 'jobs_stalled'],
    ],
  ])('%s', (_name, facts, codes) => {
    const reasons = readinessReasons({ ...healthy, ...facts });
    expect(reasons.map((r) => r.code)).toEqual(codes);
    for (const r of reasons) expect(r.message).toMatch(/[a-záéíóúñ]/);
  });

  it('names the pending migrations and the minutes waited', () => {
    const [m] = readinessReasons({ ...healthy, pendingMigrations: ['0027-password-resets-sessions'] });
    expect(m.message).toBe('Faltan 1 migración(es) por aplicar a la base de datos: 0027-password-resets-sessions.');
    const [j] = readinessReasons({ ...healthy, oldestDueMs: 12 * 60_000 });
    expect(j.message).toContain('12 minutos');
  });
});
