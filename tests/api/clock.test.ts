import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap } from '../../api/src/bootstrap.js';
import { loadConfig } from '../../api/src/config.js';
import { VITALS_MESSAGES } from '@vigia/contract/rules/vitals';
import { bearer, createOrg, patientBody, PASSWORD, type Org, type TestProduct } from '../support/product';

/** The benchmark data set's date (bench/run.ts): the API under bench runs at it on any day (issue 22). */
const DATA_NOW = Date.parse('2026-11-21T12:00:00Z');
const DAY = 86_400_000;

describe('loadConfig: CLOCK_OFFSET_MS', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigia-clock-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const load = (offset?: string) => loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(32), CLOCK_OFFSET_MS: offset });

  it.each([
    [undefined, 0],
    ['', 0],
    ['-432000000', -432_000_000],
    ['86400000', 86_400_000],
  ])('reads %j as %d ms', (text, ms) => {
    expect(load(text).clockOffsetMs).toBe(ms);
  });

  it.each(['1.5', 'ayer', '2026-11-21T12:00:00Z'])('refuses %j', (text) => {
    expect(() => load(text)).toThrow(/CLOCK_OFFSET_MS/);
  });
});

describe('the app at a moved clock (CLOCK_OFFSET_MS)', () => {
  let t: TestProduct;
  let org: Org;
  // Ten days after the data set's date, whatever day the test runs: the clock is read from config.
  const offset = DATA_NOW + 10 * DAY - Date.now();
  const clockNow = () => Date.now() + offset;

  beforeAll(async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigia-clock-'));
    const config = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(32), NODE_ENV: 'test', CLOCK_OFFSET_MS: String(offset) });
    const product = await bootstrap(config, { serveFrontEnds: false });
    t = {
      ...product,
      dataDir,
      http: request(product.app),
      async stop() {
        await product.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
    org = await createOrg(t, 'Clinica Reloj');
  });
  afterAll(() => t.stop());

  it('reads the moved clock everywhere it asks for now', () => {
    expect(Math.abs(t.now().getTime() - clockNow())).toBeLessThan(1000);
  });

  it('issues sessions that expire 12 hours after the moved clock', async () => {
    const before = clockNow();
    const res = await t.http.post('/api/v1/sessions').send({ email: 'admin@clinicareloj.test', password: PASSWORD });
    expect(res.status).toBe(201);
    const expires = Date.parse(res.body.expires_at) - 12 * 3600_000;
    expect(expires).toBeGreaterThanOrEqual(before - 1000);
    expect(expires).toBeLessThanOrEqual(clockNow() + 1000);
  });

  it("stores a reading taken at the moved clock's time and refuses one from its future", async () => {
    const patient = (await t.http.post('/api/v1/patients').set(bearer(org.tokens.admin)).send(patientBody())).body;
    const send = (when: number) =>
      t.http
        .post(`/api/v1/patients/${patient.id}/measurements`)
        .set(bearer(org.tokens.admin))
        .send({ clinical_element: 1, value: 72, when: new Date(when).toISOString() });
    expect((await send(clockNow() - 60_000)).status).toBe(201);
    const future = await send(clockNow() + DAY);
    expect(future.status).toBe(400);
    expect(JSON.stringify(future.body)).toContain(VITALS_MESSAGES.future);
  });
});
