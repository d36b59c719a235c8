import util from 'node:util';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestProduct, createOrg, bearer, patientBody, type TestProduct, type Org } from '../support/product';
import { signInAtProvider, startOidcProvider, type LoopbackProvider } from '../support/oidc';
import { operations, rdaOf, seedClient, seedPatient, urlOf, type Ids } from './fixtures';
import { startIhcePeer, PEER_CLIENT_ID, PEER_CLIENT_SECRET, PEER_SUBSCRIPTION_KEY, type IhcePeer } from '../support/ihce-peer';
import { recordRda } from '../../api/src/modules/rdas/rdas.service';

/**
 * Secrets (D20) never come back: every secret the product holds is set through the API (webhook
 * phrase, integration password, SSO client secret, a user's password, a device secret, the token
 * signing key, the IHCE platform's client secret and subscription key), used, and made to fail; then every GET of the contract is read. No answer and no
 * line the process writes (console, stdout, stderr, the API's logger) contains any of them, in
 * clear, base64 or URL-encoded form.
 */
const JWT_SECRET = 'clave-de-firma-secreta-3b9d0c7e5a1f';
const PHRASE = 'FraseWebhook-Secreta-9f3a';
const RESIDENTS_PASSWORD = 'ClaveResidentes-Secreta-77b1';
const USER_PASSWORD = 'Usuario@Secreto2026x';
const USER_PASSWORD_2 = 'Usuario!Cambiada2026y';
const REDIRECT_URI = 'http://localhost:5173/auth/callback';

let t: TestProduct;
let org: Org;
let provider: LoopbackProvider;
let ihce: IhcePeer;
const secrets: Record<string, string> = {};
const answers: string[] = [];
const logLines: string[] = [];
const restore: Array<() => void> = [];
const figures = { secrets: 0, answers: 0, getOperations: 0, getSkipped: [] as string[], logLines: 0, failingCalls: 0 };

/** Everything the process writes, from now until the end of the file. */
function captureOutput() {
  for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    const original = console[level];
    console[level] = (...args: unknown[]) => {
      logLines.push(args.map((a) => (typeof a === 'string' ? a : util.inspect(a, { depth: 6, showHidden: true }))).join(' '));
    };
    restore.push(() => {
      console[level] = original;
    });
  }
  for (const stream of [process.stdout, process.stderr]) {
    const original = stream.write.bind(stream);
    (stream as { write: unknown }).write = (chunk: unknown, ...rest: unknown[]) => {
      logLines.push(String(chunk));
      return (original as (...a: unknown[]) => boolean)(chunk, ...rest);
    };
    restore.push(() => {
      (stream as { write: unknown }).write = original;
    });
  }
}

/** Awaits a call and keeps its whole answer (status line, headers, body). */
async function keep<T extends { status: number; headers: Record<string, unknown>; text?: string; body?: unknown }>(
  req: PromiseLike<T>,
): Promise<T> {
  const res = await req;
  answers.push(`${res.status} ${JSON.stringify(res.headers)} ${res.text ?? JSON.stringify(res.body ?? '')}`);
  return res;
}

beforeAll(async () => {
  captureOutput();
  provider = await startOidcProvider();
  ihce = await startIhcePeer();
  provider.register(REDIRECT_URI);
  Object.assign(process.env, {
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: provider.clientId,
    OIDC_CLIENT_SECRET: provider.clientSecret,
    OIDC_REDIRECT_URI: REDIRECT_URI,
  });
  t = await startTestProduct({ jwtSecret: JWT_SECRET, allowHttpServices: true });
  // Single sign-on is on (its client secret is one of the secrets): the administrator who sets the
  // others signs in with a password as a break-glass account (issue 49).
  org = await createOrg(t, 'Clinica Secretos', { breakGlass: ['admin'] });
  Object.assign(secrets, {
    JWT_SECRET,
    PHRASE,
    RESIDENTS_PASSWORD,
    USER_PASSWORD,
    USER_PASSWORD_2,
    SSO_CLIENT_SECRET: provider.clientSecret,
    IHCE_CLIENT_SECRET: PEER_CLIENT_SECRET,
    IHCE_SUBSCRIPTION_KEY: PEER_SUBSCRIPTION_KEY,
  });
}, 120_000);
afterAll(async () => {
  for (const r of restore.reverse()) r();
  console.info(`[security] secrets: ${JSON.stringify({ ...figures, logLines: logLines.length, answers: answers.length })}`);
  await t?.stop();
  await provider?.close();
  await ihce?.close();
  for (const k of ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'OIDC_REDIRECT_URI']) delete process.env[k];
});

const admin = () => bearer(org.tokens.admin);

describe('secrets (D20)', () => {
  it('sets, uses and fails with every secret', async () => {
    const clientUrl = `/api/v1/clients/${org.clientId}`;
    // Webhook phrase and integration password; both receivers are down, so their calls fail.
    const saved = await keep(
      t.http.put(clientUrl).set(admin()).send({
        webhook_url: 'http://127.0.0.1:9/hook',
        security_phrase: PHRASE,
        residents_enabled: true,
        residents_url: 'http://127.0.0.1:9/api',
        residents_user: 'vigia',
        residents_password: RESIDENTS_PASSWORD,
      }),
    );
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toMatchObject({ security_phrase_set: true, residents_password_set: true });
    expect((await keep(t.http.patch(clientUrl).set(admin()).send({ webhook_alerts: true }))).status).toBe(200);
    expect((await keep(t.http.get(`${clientUrl}/validate_webhook`).set(admin()))).status).toBeGreaterThanOrEqual(400);
    figures.failingCalls++;
    await t.jobs.runDue({ now: new Date() });
    const patient = (
      await keep(
        t.http
          .post('/api/v1/patients')
          .set(admin())
          .send(patientBody({ nid: '7400000001' })),
      )
    ).body;
    expect((await keep(t.http.get(`${clientUrl}/residents/00010`).set(admin()))).status).toBeGreaterThanOrEqual(400);
    figures.failingCalls++;

    // The IHCE platform's client secret and subscription key (issue 51): 'Probar conexión', a document
    // sent, then a platform that answers 500 and a key it refuses.
    const ihceUrl = `${clientUrl}/ihce`;
    const ihceSaved = await keep(
      t.http.put(ihceUrl).set(admin()).send({
        enabled: true,
        token_url: ihce.tokenUrl,
        base_url: ihce.baseUrl,
        client_id: PEER_CLIENT_ID,
        client_secret: PEER_CLIENT_SECRET,
        subscription_key: PEER_SUBSCRIPTION_KEY,
      }),
    );
    expect(ihceSaved.body).toMatchObject({ client_secret_set: true, subscription_key_set: true, configured: true });
    expect((await keep(t.http.post(`${ihceUrl}/test`).set(admin()))).body.type).toBe('success');
    const rdaDeps = { sequelize: t.sequelize, jobs: t.jobs, now: t.now };
    ihce.fail('500');
    await recordRda(rdaDeps, rdaOf(org, patient.id));
    await t.jobs.drain({ kinds: ['rda.send'] });
    figures.failingCalls++;
    expect(ihce.calls.length).toBeGreaterThan(0);
    expect((await keep(t.http.put(ihceUrl).set(admin()).send({ subscription_key: 'otra-clave' }))).status).toBe(200);
    await recordRda(rdaDeps, rdaOf(org, patient.id));
    await t.jobs.drain({ kinds: ['rda.send'] });
    figures.failingCalls++;
    expect((await keep(t.http.put(ihceUrl).set(admin()).send({ client_secret: 'otro-secreto' }))).status).toBe(200);
    expect((await keep(t.http.post(`${ihceUrl}/test`).set(admin()))).body.type).toBe('error');
    figures.failingCalls++;

    // A user's password: created, used, mistyped, changed.
    const user = await keep(
      t.http.post('/api/v1/users').set(admin()).send({
        first_name: 'secreta',
        last_name: 'usuaria',
        email: 'secreta@clinicasecretos.test',
        password: USER_PASSWORD,
        password_confirmation: USER_PASSWORD,
        cellphone: '3005550000',
        prefix: '+57',
        country_id: 26,
        city_id: 2611001,
        role_name: 'medico',
      }),
    );
    expect(user.status, user.text).toBe(201);
    // Under single sign-on only a break-glass account signs in with its password (issue 49).
    const marked = await keep(t.http.put(`/api/v1/users/${user.body.id}/break_glass`).set(admin()).send({ break_glass: true }));
    expect(marked.status, marked.text).toBe(200);
    expect(
      (await keep(t.http.post('/api/v1/sessions').send({ email: 'secreta@clinicasecretos.test', password: USER_PASSWORD }))).status,
    ).toBe(201);
    expect(
      (await keep(t.http.post('/api/v1/sessions').send({ email: 'secreta@clinicasecretos.test', password: `${USER_PASSWORD}!` }))).status,
    ).toBe(401);
    figures.failingCalls++;
    const changed = await keep(
      t.http.put(`/api/v1/users/${user.body.id}`).set(admin()).send({ password: USER_PASSWORD_2, password_confirmation: USER_PASSWORD_2 }),
    );
    expect(changed.status, changed.text).toBe(200);
    expect(
      (
        await keep(
          t.http.post('/api/v1/users').set(admin()).send({ email: 'mala', password: USER_PASSWORD, password_confirmation: 'otra' }),
        )
      ).status,
    ).toBe(400);
    figures.failingCalls++;

    // A device secret: shown once at registration and once per rotation, then used and mistyped.
    expect((await keep(t.http.put(`/api/v1/patients/${patient.id}`).set(admin()).send({ card_id: 'SECRET-CARD' }))).status).toBe(200);
    const device = await keep(t.http.post('/api/v1/devices').set(admin()).send({ card_id: 'SECRET-CARD' }));
    expect(device.status, device.text).toBe(201);
    secrets.DEVICE_SECRET = device.body.secret;
    const rotated = await keep(t.http.post(`/api/v1/devices/${device.body.id}/secret`).set(admin()));
    secrets.DEVICE_SECRET_2 = rotated.body.secret;
    // Registration and rotation are the one answer each that carries its own secret (P24).
    answers.splice(answers.length - 2, 2);
    const reading = (secret: string) =>
      keep(t.http.post('/api/v1/devices/SECRET-CARD/readings').set('X-Device-Secret', secret).send({ clinical_element: 1, value: 71 }));
    expect((await reading(secrets.DEVICE_SECRET_2)).status).toBeLessThan(300);
    expect((await reading(secrets.DEVICE_SECRET)).status).toBe(401);
    figures.failingCalls++;

    // The SSO client secret: a real sign-in at the provider, then a forged callback the provider refuses.
    const start = await keep(t.http.post('/api/v1/sso/authorize'));
    const callback = await signInAtProvider(start.body.url, org.users.medico.email, REDIRECT_URI);
    const sso = await keep(
      t.http.post('/api/v1/sso/callback').send({
        code: callback.searchParams.get('code'),
        state: callback.searchParams.get('state'),
        iss: callback.searchParams.get('iss') ?? undefined,
      }),
    );
    expect(sso.status, sso.text).toBe(201);
    const again = await keep(t.http.post('/api/v1/sso/authorize'));
    expect(
      (
        await keep(
          t.http.post('/api/v1/sso/callback').send({ code: 'codigo-falso', state: new URL(again.body.url).searchParams.get('state') }),
        )
      ).status,
    ).toBe(401);
    figures.failingCalls++;
  });

  it('reads every GET operation of the contract back', async () => {
    const client: Ids = await seedClient(t, org, 'SEC');
    const ids: Ids = { ...client, ...(await seedPatient(t, org, client, '7400000002')) };
    const extra: Record<string, string> = {
      list_name: 'countries',
      code: '00010',
      token: 'x',
      card_id: 'SECRET-CARD',
      medicineId: '1',
      clientId: String(org.clientId),
    };
    for (const o of operations.filter((op) => op.method === 'get')) {
      let url: string;
      try {
        url = urlOf(
          { ...o, path: o.path.replace(/\{(list_name|code|token|card_id|medicineId|clientId)\}/g, (_m, p: string) => extra[p]) },
          ids,
        );
      } catch {
        figures.getSkipped.push(o.name);
        continue;
      }
      const res = await keep(t.http.get(url).set(admin()));
      figures.getOperations++;
      // The residents integration points at a receiver that is down: 502 is its answer (and a failing call).
      if (o.path.includes('/residents/')) expect(res.status).toBe(502);
      else expect(res.status, `${o.name}: ${res.text?.slice(0, 200)}`).toBeLessThan(500);
    }
    expect(figures.getSkipped).toEqual([]);
  });

  it('no answer and no log line contains a secret, in any usual encoding', () => {
    figures.secrets = Object.keys(secrets).length;
    figures.answers = answers.length;
    expect(figures.secrets).toBe(10);
    expect(logLines.length, 'the failing calls should have logged something').toBeGreaterThan(0);
    for (const [name, value] of Object.entries(secrets)) {
      expect(value, name).toBeTruthy();
      const forms = [value, encodeURIComponent(value), Buffer.from(value).toString('base64'), Buffer.from(value).toString('base64url')];
      for (const form of forms) {
        expect(
          answers.filter((a) => a.includes(form)),
          `${name} in an answer`,
        ).toEqual([]);
        expect(
          logLines.filter((l) => l.includes(form)),
          `${name} in a log line`,
        ).toEqual([]);
      }
    }
    // Nor the stored forms: password hashes never leave the server.
    expect(answers.filter((a) => /\$2[aby]\$\d\d\$/.test(a) || a.includes('password_hash') || a.includes('secret_hash'))).toEqual([]);
  });
});
