import crypto from 'node:crypto';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestProduct, createOrg, bearer, patientBody, type TestProduct, type Org } from '../support/product';
import { select, execute } from '../../api/src/db/sql';
import { raiseAlert } from '../../api/src/modules/alerts/alerts.raise';

/**
 * Issue 50: a nurse's phone that loses the answer to a write sends it again with the same
 * Idempotency-Key; the API answers what it answered the first time and writes nothing twice.
 * Runs on SQLite, and on PostgreSQL with DATABASE_URL.
 */
let t: TestProduct;
let org: Org;
let other: Org;
let patientId: number;
beforeAll(async () => {
  t = await startTestProduct();
  org = await createOrg(t, 'Clinica Reintentos');
  other = await createOrg(t, 'Clinica Vecina Reintentos');
  patientId = (await t.http.post('/api/v1/patients').set(bearer(org.tokens.admin)).send(patientBody())).body.id;
});
afterAll(() => t.stop());

const key = () => crypto.randomUUID();
const count = async (sql: string, values: Record<string, unknown>) => Number((await select<{ n: number }>(t.sequelize, sql, values))[0].n);
const entriesOf = (alertId: number) => count('SELECT COUNT(*) AS n FROM alert_entries WHERE alert_id = :alertId', { alertId });
const readingsOf = (id: number) => count('SELECT COUNT(*) AS n FROM measurements WHERE patient_id = :id', { id });

async function openAlert(): Promise<{ id: number; url: string }> {
  const id = await t.sequelize.transaction((transaction) =>
    raiseAlert(
      { sequelize: t.sequelize, transaction, now: new Date(), jobs: t.jobs },
      { client_id: org.clientId, patient_id: patientId, alert_type: 3, priority: 2, description: 'El paciente refiere mareo' },
    ),
  );
  return { id, url: `/api/v1/patients/${patientId}/alerts/${id}` };
}

describe('POST /patients/:id/alerts/:alertId/alert_entries with Idempotency-Key', () => {
  it('stores one entry for two sends of one submit, and answers the second with the first answer', async () => {
    const alert = await openAlert();
    const k = key();
    const send = () =>
      t.http
        .post(`${alert.url}/alert_entries`)
        .set(bearer(org.tokens.enfermeria))
        .set('Idempotency-Key', k)
        .send({ description: 'Llamé al paciente, refiere mejoría' });
    const first = await send();
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const second = await send();
    expect(second.status).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body).toEqual(first.body);
    expect(await entriesOf(alert.id)).toBe(1);
  });

  it('records the write once in the audit trail', async () => {
    const alert = await openAlert();
    const k = key();
    for (let i = 0; i < 3; i++)
      await t.http
        .post(`${alert.url}/alert_entries`)
        .set(bearer(org.tokens.enfermeria))
        .set('Idempotency-Key', k)
        .send({ description: 'Segunda llamada al paciente' });
    // The recorder writes after the answer: a later write's event proves it has caught up.
    const marker = await openAlert();
    await t.http.post(`${marker.url}/alert_entries`).set(bearer(org.tokens.enfermeria)).send({ description: 'Marca de auditoría' });
    const eventsOf = (id: number) =>
      count("SELECT COUNT(*) AS n FROM audit_events WHERE resource = 'alert' AND resource_id = :id", { id: String(id) });
    for (let tries = 0; tries < 200 && (await eventsOf(marker.id)) < 1; tries++) await new Promise((r) => setTimeout(r, 25));
    expect(await eventsOf(marker.id)).toBe(1);
    const n = await eventsOf(alert.id);
    expect(n).toBe(1);
  });

  it('without the header, writes every time as before', async () => {
    const alert = await openAlert();
    for (let i = 0; i < 2; i++)
      expect(
        (await t.http.post(`${alert.url}/alert_entries`).set(bearer(org.tokens.enfermeria)).send({ description: 'Sin clave de reintento' }))
          .status,
      ).toBe(201);
    expect(await entriesOf(alert.id)).toBe(2);
  });

  it('refuses the same key on another request with 422 idempotency_key_reused, writing nothing', async () => {
    const alert = await openAlert();
    const k = key();
    const post = (description: string) =>
      t.http.post(`${alert.url}/alert_entries`).set(bearer(org.tokens.enfermeria)).set('Idempotency-Key', k).send({ description });
    expect((await post('Primera nota de seguimiento')).status).toBe(201);
    const reused = await post('Otra nota distinta de la primera');
    expect(reused.status).toBe(422);
    expect(reused.body).toMatchObject({ code: 'idempotency_key_reused', field: 'Idempotency-Key' });
    expect(reused.body.message).toMatch(/ya se usó para otra petición/);
    expect(await entriesOf(alert.id)).toBe(1);
  });

  it('refuses a malformed key with 400 naming the header, in Spanish', async () => {
    const alert = await openAlert();
    const res = await t.http
      .post(`${alert.url}/alert_entries`)
      .set(bearer(org.tokens.enfermeria))
      .set('Idempotency-Key', 'no-es-un-uuid')
      .send({ description: 'Nota con clave mal formada' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_error', field: 'Idempotency-Key' });
    expect(res.body.message).toMatch(/'Idempotency-Key' debe ser un UUID/);
    expect(await entriesOf(alert.id)).toBe(0);
  });

  it('answers 409 idempotency_in_progress with Retry-After while the first send still runs', async () => {
    const alert = await openAlert();
    const k = key();
    const path = `${alert.url}/alert_entries`;
    const body = { description: 'Nota enviada dos veces' };
    // The first send's claim, as the middleware leaves it while the write runs.
    const { requestHash } = await import('../../api/src/http/idempotency.rules');
    const now = new Date();
    await execute(
      t.sequelize,
      `INSERT INTO idempotency_keys (client_id, user_id, key, request_hash, status, body, started_at, expires_at)
       VALUES (:client, :user, :key, :hash, NULL, NULL, :now, :expires)`,
      {
        client: org.clientId,
        user: org.users.enfermeria.id,
        key: k,
        hash: requestHash('POST', path, body),
        now,
        expires: new Date(now.getTime() + 86_400_000),
      },
    );
    const res = await t.http.post(path).set(bearer(org.tokens.enfermeria)).set('Idempotency-Key', k).send(body);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('idempotency_in_progress');
    expect(res.body.message).toMatch(/todavía se está procesando/);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(await entriesOf(alert.id)).toBe(0);
  });

  it('takes over a key whose first send died unanswered more than a minute ago', async () => {
    const alert = await openAlert();
    const k = key();
    const path = `${alert.url}/alert_entries`;
    const body = { description: 'Nota cuyo primer envío murió con el servidor' };
    const { requestHash } = await import('../../api/src/http/idempotency.rules');
    const started = new Date(Date.now() - 2 * 60_000);
    await execute(
      t.sequelize,
      `INSERT INTO idempotency_keys (client_id, user_id, key, request_hash, status, body, started_at, expires_at)
       VALUES (:client, :user, :key, :hash, NULL, NULL, :started, :expires)`,
      {
        client: org.clientId,
        user: org.users.enfermeria.id,
        key: k,
        hash: requestHash('POST', path, body),
        started,
        expires: new Date(started.getTime() + 86_400_000),
      },
    );
    const res = await t.http.post(path).set(bearer(org.tokens.enfermeria)).set('Idempotency-Key', k).send(body);
    expect(res.status).toBe(201);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expect(await entriesOf(alert.id)).toBe(1);
  });

  it('two sends at once with one key store one entry; the other is told to wait or gets the answer', async () => {
    const alert = await openAlert();
    const k = key();
    const send = () =>
      t.http
        .post(`${alert.url}/alert_entries`)
        .set(bearer(org.tokens.enfermeria))
        .set('Idempotency-Key', k)
        .send({ description: 'Dos envíos a la vez' })
        .then((r) => r);
    const answers = await Promise.all([send(), send(), send(), send()]);
    expect(answers.filter((a) => a.status === 201 && !a.headers['idempotent-replayed'])).toHaveLength(1);
    for (const a of answers) expect([201, 409]).toContain(a.status);
    expect(await entriesOf(alert.id)).toBe(1);
  });

  it('keys belong to their user: another user of the client, or another client, with the same key writes its own', async () => {
    const alert = await openAlert();
    const k = key();
    const body = { description: 'La misma clave, otra persona' };
    expect(
      (await t.http.post(`${alert.url}/alert_entries`).set(bearer(org.tokens.enfermeria)).set('Idempotency-Key', k).send(body)).status,
    ).toBe(201);
    const medico = await t.http.post(`${alert.url}/alert_entries`).set(bearer(org.tokens.medico)).set('Idempotency-Key', k).send(body);
    expect(medico.status).toBe(201);
    expect(medico.headers['idempotent-replayed']).toBeUndefined();
    // Another client's nurse learns nothing of this alert: 404, not the stored answer.
    const foreign = await t.http
      .post(`${alert.url}/alert_entries`)
      .set(bearer(other.tokens.enfermeria))
      .set('Idempotency-Key', k)
      .send(body);
    expect(foreign.status).toBe(404);
    expect(await entriesOf(alert.id)).toBe(2);
  });

  it('a refused write gives its key back: the same submit may be sent again once it can succeed', async () => {
    const alert = await openAlert();
    const k = key();
    const bad = await t.http
      .post(`${alert.url}/alert_entries`)
      .set(bearer(org.tokens.consulta))
      .set('Idempotency-Key', k)
      .send({ description: 'Sin permiso' });
    expect(bad.status).toBe(403);
    const short = await t.http
      .post(`${alert.url}/alert_entries`)
      .set(bearer(org.tokens.enfermeria))
      .set('Idempotency-Key', k)
      .send({ description: 'x' });
    expect(short.status).toBe(400);
    expect(await count('SELECT COUNT(*) AS n FROM idempotency_keys WHERE key = :k', { k })).toBe(0);
    const good = await t.http
      .post(`${alert.url}/alert_entries`)
      .set(bearer(org.tokens.enfermeria))
      .set('Idempotency-Key', k)
      .send({ description: 'Nota corregida y completa' });
    expect(good.status).toBe(201);
    expect(await entriesOf(alert.id)).toBe(1);
  });

  it('forgets keys after 24 hours (the job runner), after which the key is a new one', async () => {
    const alert = await openAlert();
    const k = key();
    const send = () =>
      t.http
        .post(`${alert.url}/alert_entries`)
        .set(bearer(org.tokens.enfermeria))
        .set('Idempotency-Key', k)
        .send({ description: 'Nota del día anterior' });
    expect((await send()).status).toBe(201);
    await t.jobs.runDue({ now: new Date(Date.now() + 23 * 3600_000), kinds: ['idempotency_key_expiry'] });
    expect(await count('SELECT COUNT(*) AS n FROM idempotency_keys WHERE key = :k', { k })).toBe(1);
    await t.jobs.runDue({ now: new Date(Date.now() + 25 * 3600_000), kinds: ['idempotency_key_expiry'] });
    expect(await count('SELECT COUNT(*) AS n FROM idempotency_keys WHERE key = :k', { k })).toBe(0);
    expect((await send()).headers['idempotent-replayed']).toBeUndefined();
    expect(await entriesOf(alert.id)).toBe(2);
  });
});

describe('PUT and PATCH /patients/:id/alerts/:alertId with Idempotency-Key', () => {
  it('closes once: a resend gets the first 200 again instead of 409 already closed', async () => {
    const alert = await openAlert();
    const k = key();
    const body = { status: 2, close_type: 'true_alert', description: 'Se resolvió con ajuste de dosis' };
    const first = await t.http.put(alert.url).set(bearer(org.tokens.medico)).set('Idempotency-Key', k).send(body);
    expect(first.status).toBe(200);
    const again = await t.http.put(alert.url).set(bearer(org.tokens.medico)).set('Idempotency-Key', k).send(body);
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await entriesOf(alert.id)).toBe(1);
    // Without the key, the second close is refused as before.
    expect((await t.http.put(alert.url).set(bearer(org.tokens.medico)).send(body)).status).toBe(409);
    // The alias with the same key is another request.
    const patch = await t.http.patch(alert.url).set(bearer(org.tokens.medico)).set('Idempotency-Key', k).send(body);
    expect(patch.status).toBe(422);
  });

  it('two closes at once with one key close once and store one final entry', async () => {
    const alert = await openAlert();
    const k = key();
    const body = { status: 2, close_type: 'false_alert', description: 'Lectura errónea del equipo' };
    const answers = await Promise.all(
      [0, 1, 2].map(() =>
        t.http
          .patch(alert.url)
          .set(bearer(org.tokens.medico))
          .set('Idempotency-Key', k)
          .send(body)
          .then((r) => r),
      ),
    );
    expect(answers.filter((a) => a.status === 200 && !a.headers['idempotent-replayed'])).toHaveLength(1);
    for (const a of answers) expect([200, 409]).toContain(a.status);
    expect(await entriesOf(alert.id)).toBe(1);
  });
});

describe('POST /patients/:id/measurements with Idempotency-Key', () => {
  it('stores a reading typed by hand once when it is sent twice', async () => {
    const before = await readingsOf(patientId);
    const k = key();
    const body = { systolic: 131, diastolic: 82, when: '2026-11-21T13:05:00Z' };
    const first = await t.http
      .post(`/api/v1/patients/${patientId}/measurements`)
      .set(bearer(org.tokens.enfermeria))
      .set('Idempotency-Key', k)
      .send(body);
    expect(first.status).toBe(201);
    const again = await t.http
      .post(`/api/v1/patients/${patientId}/measurements`)
      .set(bearer(org.tokens.enfermeria))
      .set('Idempotency-Key', k)
      .send(body);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await readingsOf(patientId)).toBe(before + 2);
  });

  it('five sends at once with one key store one reading', async () => {
    const before = await readingsOf(patientId);
    const k = key();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        t.http
          .post(`/api/v1/patients/${patientId}/measurements`)
          .set(bearer(org.tokens.enfermeria))
          .set('Idempotency-Key', k)
          .send({ clinical_element: 1, value: 77, when: '2026-11-21T14:00:00Z' })
          .then((r) => r),
      ),
    );
    expect(answers.filter((a) => a.status === 201 && !a.headers['idempotent-replayed'])).toHaveLength(1);
    for (const a of answers) expect([201, 409]).toContain(a.status);
    expect(await readingsOf(patientId)).toBe(before + 1);
  });
});
