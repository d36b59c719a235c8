import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createOrg, bearer, PASSWORD } from '../support/product';
import {
  bootOn,
  databaseProxy,
  freshDatabase,
  onPostgres,
  spawnApi,
  type ChildApi,
  type DatabaseProxy,
  type FaultDatabase,
} from './support';

/**
 * Issue 49: PostgreSQL goes away under a running server (the real bundle, its database behind a
 * TCP proxy the test cuts: every connection dropped, new ones refused) and comes back. Meanwhile
 * every route answers 503 with Retry-After and a Spanish message, not 500 'internal_error', and the
 * job runner writes one line when the database goes and one when it is back, not four error lines
 * with stack traces a second. SQLite has no connection to lose: a file it cannot open is
 * classified the same way (api/src/db/unavailable.rules.test.ts).
 */

const GONE = 'La base de datos no responde en este momento. Intente de nuevo en unos segundos.';
let db: FaultDatabase;
let proxy: DatabaseProxy;
let server: ChildApi | null = null;
let email: string;

beforeAll(async () => {
  if (!onPostgres) return;
  db = await freshDatabase();
  const t = await bootOn(db);
  try {
    email = (await createOrg(t, 'Clinica Sin Base')).users.admin.email;
  } finally {
    await t.stop();
  }
  proxy = await databaseProxy(db.databaseUrl!);
  server = await spawnApi(db, { env: { DATABASE_URL: proxy.url, LOG_LEVEL: 'info', LOG_FORMAT: 'json' } });
});
afterAll(async () => {
  await server?.kill('SIGKILL');
  await proxy?.close();
  await db?.drop();
});

interface Line {
  level: string;
  msg: string;
  part?: string;
  err?: unknown;
}
const lines = (text: string): Line[] =>
  text
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Line);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!onPostgres)('the database goes away and comes back (PostgreSQL)', () => {
  it('answers 503 with Retry-After on every route, and the job runner logs one line when it goes and one when it is back', async () => {
    const { baseUrl } = server!;
    const signedInFrom = Math.floor(Date.now() / 1000) * 1000;
    const login = await fetch(`${baseUrl}/api/v1/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    expect(login.status).toBe(201);
    const { token } = (await login.json()) as { token: string };
    const me = () => fetch(`${baseUrl}/api/v1/me`, { headers: bearer(token) });
    expect((await me()).status).toBe(200);
    // The outage starts on a quiet server: the sign-in's audit event (written just after the answer,
    // by the trail's own writer) is in the database first, or its INSERT would be the one cut (and
    // rightly logged as an error: stop 61's CI, a loaded machine, cut it mid-write).
    const signInRecorded = async () => {
      const r = await fetch(`${baseUrl}/api/v1/audit_events?_end=5`, { headers: bearer(token) });
      const events = (await r.json()) as Array<{ action: string; created_at: string }>;
      return events.some((e) => e.action === 'sign_in' && Date.parse(e.created_at) >= signedInFrom);
    };
    for (let i = 0; i < 100 && !(await signInRecorded()); i++) await sleep(100);
    expect(await signInRecorded()).toBe(true);
    const before = server!.output().length;

    await proxy.cut();
    const gone = await me();
    expect(gone.status).toBe(503);
    expect(gone.headers.get('retry-after')).toBe('5');
    expect(await gone.json()).toEqual({ code: 'unavailable', message: GONE });
    const patients = await fetch(`${baseUrl}/api/v1/patients`, { headers: bearer(token) });
    expect(patients.status).toBe(503);
    // The FHIR API too, as an OperationOutcome (and not a 401 that would make a client drop its token).
    const fhir = await fetch(`${baseUrl}/fhir/R4/Patient`, { headers: bearer(token) });
    expect(fhir.status).toBe(503);
    expect(fhir.headers.get('retry-after')).toBe('5');
    expect(await fhir.json()).toMatchObject({ resourceType: 'OperationOutcome', issue: [{ code: 'transient', diagnostics: GONE }] });
    const ready = await fetch(`${baseUrl}/api/health/ready`);
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { reasons: Array<{ code: string }> }).reasons.map((r) => r.code)).toContain('database_unavailable');
    // The runner polls every second: its line within a few polls (a loaded CI machine is slow),
    // then three more seconds of outage in which it writes nothing else.
    const tasks = () => lines(server!.output().slice(before)).filter((l) => l.part === 'tareas');
    for (let i = 0; i < 150 && !tasks().length; i++) await sleep(100);
    await sleep(3_000);
    const during = tasks();
    expect(during.map((l) => [l.level, l.msg])).toEqual([
      ['warn', 'la base de datos no responde: la cola de tareas espera y lo vuelve a intentar cada vez más espaciado'],
    ]);
    // Nothing else wrote an error with its stack either (the request lines of the 503s carry none).
    expect(
      lines(server!.output().slice(before))
        .filter((l) => l.err)
        .map((l) => [l.level, l.part, l.msg]),
    ).toEqual([]);

    await proxy.restore();
    // Probes after 1, 2, 4, 8 s of waiting (only a probe's failure doubles the wait): the next one
    // within 8 s of the restore, and more on a loaded machine.
    let back: Line[] = [];
    for (let i = 0; i < 200 && !back.length; i++) {
      await sleep(100);
      back = lines(server!.output().slice(before)).filter((l) => l.part === 'tareas' && l.level === 'info');
    }
    expect(back.map((l) => l.msg)).toEqual(['la base de datos responde de nuevo: la cola de tareas sigue']);
    expect((await me()).status).toBe(200);
    expect((await fetch(`${baseUrl}/api/health/ready`)).status).toBe(200);
  });
});
