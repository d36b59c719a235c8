import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../api/src/db/database.js';
import { seedDeps } from '../api/src/seed-deps.js';
import { seedLarge } from '../seeds/large.js';
import { captureStatements, statementShape } from './capture.js';
import { runRecorded } from './baseline.js';
import { openDriver, type Driver } from './driver.js';
import { signIn } from './queries.js';
import { BENCH_PASSWORD, benchEmail } from './scenarios.js';
import { BENCH_JWT_SECRET } from './server.js';

/**
 * The hand-written baselines send what the API sends (issue 52): the sign-in row had gone on timing
 * the statements of before the second factor (issue 38) while the report only warned. The API's
 * statements are captured as the benchmark captures them (capture.ts, Sequelize's log of an
 * in-process app), on a small data set built by the benchmark's own seed.
 */
describe('bench/queries.ts sign-in baseline', () => {
  let dataDir: string;
  let driver: Driver;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigia-bench-queries-'));
    const sequelize = await openDatabase({ dataDir, databaseUrl: '' });
    try {
      const opts = {
        patients: 100,
        clients: 1,
        seed: 1,
        measurementsPerPatient: 0,
        heavyReadings: 0,
        now: new Date('2026-11-21T12:00:00Z'),
      };
      await seedLarge(seedDeps, sequelize, opts, () => {});
    } finally {
      await sequelize.close();
    }
    driver = await openDriver({ dialect: 'sqlite', file: path.join(dataDir, 'vigia.sqlite') }, { connections: 1 });
  }, 120_000);
  afterAll(async () => {
    await driver?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('sends the statements POST /api/v1/sessions sends, literals and aliases aside', async () => {
    const login = { email: benchEmail('a'), password: BENCH_PASSWORD };
    const [api] = await captureStatements({ dataDir, databaseUrl: null, jwtSecret: BENCH_JWT_SECRET, token: '', clockOffsetMs: 0 }, [
      { method: 'POST', path: '/api/v1/sessions', body: JSON.stringify(login) },
    ]);
    const baseline = await runRecorded(driver, (exec, l: typeof login) => signIn(exec, l), login);
    expect(baseline.outcome.ids).toHaveLength(1);
    expect(baseline.statements.map(statementShape).sort()).toEqual([...api].sort());
  }, 60_000);
});
