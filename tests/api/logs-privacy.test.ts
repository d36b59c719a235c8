import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { select } from '../../api/src/db/sql';
import { seedDeps } from '../../api/src/seed-deps';
import { seedDemo } from '../../seeds/demo';
import { startTestProduct, bearer, patientBody, type TestProduct } from '../support/product';

/**
 * Issue 39: a whole journey through the API on the demo data with logging on (LOG_LEVEL=trace,
 * LOG_FILE), then the log is searched for every demo patient's and user's name, document, phone
 * and e-mail, every token the API issued and every one-time code it sent. None may be there; the
 * request lines must be (id, route template, status, duration, ids of who asked), and what debug
 * and trace add (job runs, outgoing requests, statement times) must be there, as safe as the rest.
 */

const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigia-log-'));
const logFile = path.join(logDir, 'vigia.log');
const clock = new Date('2026-11-21T15:00:00Z');
let t: TestProduct;
let demo: Awaited<ReturnType<typeof seedDemo>>;
const secrets = new Set<string>();

beforeAll(async () => {
  const saved = { LOG_LEVEL: process.env.LOG_LEVEL, LOG_FILE: process.env.LOG_FILE };
  process.env.LOG_LEVEL = 'trace';
  process.env.LOG_FILE = logFile;
  try {
    t = await startTestProduct({ now: () => clock, otpLength: '6' });
  } finally {
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  }
  demo = await seedDemo(seedDeps, t.sequelize.getQueryInterface(), { now: clock });
});
afterAll(async () => {
  await t.stop();
  fs.rmSync(logDir, { recursive: true, force: true });
});

/** Every request a staff member and a patient make in a working day, and some that fail. */
async function journey() {
  const tokens: string[] = [];
  for (const u of demo.users) {
    const wrong = await t.http.post('/api/v1/sessions').send({ email: u.email, password: 'Incorrecta@2026' });
    expect(wrong.status).toBe(401);
    const res = await t.http.post('/api/v1/sessions').send({ email: u.email, password: u.password });
    expect(res.status).toBe(201);
    tokens.push(res.body.token);
    secrets.add(res.body.token);
  }
  const [admin] = demo.users.filter((u) => u.role === 'admin').map((u) => tokens[demo.users.indexOf(u)]);
  const staff = tokens[demo.users.findIndex((u) => u.role === 'enfermeria')] ?? admin;
  const patients = await t.http.get('/api/v1/patients').query({ _end: 10 }).set(bearer(admin));
  expect(patients.status).toBe(200);
  for (const p of patients.body.slice(0, 5) as Array<{ id: number; nid: string }>) {
    expect((await t.http.get(`/api/v1/patients/${p.id}`).set(bearer(staff))).status).toBe(200);
    await t.http.get(`/api/v1/patients/${p.id}/measurements`).set(bearer(staff));
    await t.http.get(`/api/v1/patients/${p.id}/alerts`).set(bearer(staff));
    await t.http.post(`/api/v1/patients/${p.id}/measurements`).set(bearer(staff)).send({ clinical_element: 1, value: 130 });
    await t.http.post(`/api/v1/patients/${p.id}/measurements`).set(bearer(staff)).send({ clinical_element: 1, value: 999 });
    // A search by document and a list filtered by name: the values travel in the URL.
    await t.http.get('/api/v1/patients').query({ q: p.nid }).set(bearer(staff));
  }
  // A duplicate patient (409 or 400 naming the document) and a malformed one: error answers carry the values back.
  const [first] = (await select<{ nid: string; email: string | null; cellphone: string | null }>(
    t.sequelize,
    'SELECT nid, email, cellphone FROM patients ORDER BY id LIMIT 1',
  )) as Array<{ nid: string; email: string | null; cellphone: string | null }>;
  await t.http
    .post('/api/v1/patients')
    .set(bearer(admin))
    .send(patientBody({ nid: first.nid, email: first.email ?? undefined }));
  await t.http.post('/api/v1/patients').set(bearer(admin)).send({ nid: first.nid, email: 'no-es-correo', cellphone: first.cellphone });
  await t.http.get('/api/v1/patients/999999').set(bearer(admin));
  await t.http.get('/api/v1/no-existe').set(bearer(admin));
  await t.http.get('/api/v1/patients').set('Authorization', 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJmYWxzbyJ9.firma');

  // The portal: a one-time code by SMS, then the patient's own pages.
  const otp = await t.http.post('/api/v1/request_otp').send({ nid: demo.portalPatient.nid });
  expect(otp.status).toBeLessThan(300);
  let code: string | null = null;
  for (let i = 0; i < 300 && !code; i++) {
    const sms = await t.http.get('/api/v1/sms_outbox').set(bearer(admin));
    const mine = (sms.body as Array<{ to: string; body: string }>).find((m) => m.to.endsWith(demo.portalPatient.cellphone));
    code = mine?.body.match(/\d{4,8}/)?.[0] ?? null;
    if (!code) await new Promise((r) => setTimeout(r, 10));
  }
  expect(code).toBeTruthy();
  secrets.add(code!);
  const wrongCode = await t.http
    .post('/api/v1/verify_otp')
    .send({ nid: demo.portalPatient.nid, otp_code: '000000', challenge_id: otp.body.challenge_id });
  expect(wrongCode.status).toBeGreaterThanOrEqual(400);
  const verified = await t.http
    .post('/api/v1/verify_otp')
    .send({ nid: demo.portalPatient.nid, otp_code: code, challenge_id: otp.body.challenge_id });
  expect(verified.status).toBeLessThan(300);
  secrets.add(verified.body.token);
  if (otp.body.challenge_id) secrets.add(String(otp.body.challenge_id));
  await t.http.get('/api/v1/me').set(bearer(verified.body.token));
  await t.jobs.drain({ now: clock });
  await t.jobs.drain({ now: new Date(clock.getTime() + 3_600_000) });
  // A request the process sends to a provider whose path holds a phone number (as a messaging
  // API's may): at debug the log names its origin and status, never the path.
  const provider = http.createServer((req, res) => {
    req.resume();
    res.end('{}');
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  const { port } = provider.address() as AddressInfo;
  const sent = await fetch(`http://127.0.0.1:${port}/v1/${demo.portalPatient.cellphone}/messages?to=${demo.portalPatient.cellphone}`, {
    method: 'POST',
    body: JSON.stringify({ to: demo.portalPatient.cellphone }),
  });
  expect(sent.status).toBe(200);
  await new Promise((resolve) => provider.close(resolve));
  outgoingPort = port;
}
let outgoingPort = 0;

async function readLog(): Promise<string> {
  await new Promise<void>((resolve) => t.observability.logger.flush(() => resolve()));
  return fs.readFileSync(logFile, 'utf8');
}

/** The complete lines: background work (at trace, its statements) may be writing the next one as the file is read. */
const readLines = async () =>
  (await readLog())
    .split('\n')
    .slice(0, -1)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('logs (issue 39)', () => {
  it('hold one JSON line per request with its id, route template, status and duration, and who asked by id', async () => {
    await journey();
    const lines = await readLines();
    const requests = lines.filter((l) => l.msg === 'petición');
    expect(requests.length).toBeGreaterThan(50);
    for (const r of requests) {
      expect(r).toMatchObject({
        level: expect.any(String),
        time: expect.any(String),
        reqId: expect.any(String),
        method: expect.any(String),
      });
      expect(typeof r.status).toBe('number');
      expect(typeof r.ms).toBe('number');
      expect(String(r.route)).not.toMatch(/\/\d/);
    }
    const detail = requests.find((r) => r.route === '/api/v1/patients/{id}' && r.method === 'GET');
    expect(detail).toMatchObject({ status: 200, clientId: expect.any(Number), userId: expect.any(Number) });
    expect(requests.some((r) => r.route === '/api/v1/sessions' && r.status === 401)).toBe(true);
  });

  it('add at debug each job run and each request the process sends, by kind, id, origin and status (issue 49)', async () => {
    const lines = await readLines();
    const runs = lines.filter((l) => l.msg === 'tarea');
    expect(runs.length).toBeGreaterThan(0);
    for (const r of runs) {
      expect(r).toMatchObject({
        level: 'debug',
        part: 'tareas',
        kind: expect.any(String),
        jobId: expect.any(Number),
        ms: expect.any(Number),
      });
      expect(['done', 'retry', 'failed']).toContain(r.outcome);
      expect(r).not.toHaveProperty('payload');
    }
    const outgoing = lines.filter((l) => l.msg === 'petición saliente');
    // The scrubbing takes an IP address for a number; a provider's host name stays.
    expect(outgoing).toContainEqual(
      expect.objectContaining({
        level: 'debug',
        method: 'POST',
        origin: expect.stringMatching(`^http://.+:${outgoingPort}$`),
        status: 200,
      }),
    );
    expect(lines.some((l) => l.msg === 'sql' && l.level === 'trace' && typeof l.ms === 'number')).toBe(true);
  });

  it('hold no demo patient’s or user’s name, document, phone or e-mail, no token and no code', async () => {
    const log = await readLog();
    const people = [
      ...(await select<Record<string, string | null>>(t.sequelize, 'SELECT first_name, last_name, nid, cellphone, email FROM patients')),
      ...(await select<Record<string, string | null>>(t.sequelize, 'SELECT first_name, last_name, cellphone, email FROM users')),
    ];
    expect(people.length).toBeGreaterThan(20);
    const found: string[] = [];
    const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    for (const person of people)
      for (const [field, value] of Object.entries(person)) {
        if (!value || value.trim().length < 3) continue;
        // Whole words: a name inside another word ("ANA" in "MANANA") is not that person.
        const pattern = new RegExp(`(^|[^\\p{L}\\p{N}])${escape(value.trim())}($|[^\\p{L}\\p{N}])`, field === 'email' ? 'iu' : 'u');
        if (pattern.test(log)) found.push(`${field}=${value}`);
      }
    for (const s of secrets) if (log.includes(s)) found.push(`secreto ${s.slice(0, 8)}…`);
    expect(found).toEqual([]);
  });
});
