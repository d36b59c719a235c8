import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { exportJWK, generateKeyPair } from 'jose';
import { select } from '../../api/src/db/sql';
import { startTestProduct, createOrg, bearer, type TestProduct, type Org } from '../support/product';

let t: TestProduct;
let a: Org;
let b: Org;
// Top level: the table of refusals below is built before any beforeAll runs.
const pair = await generateKeyPair('RS384', { extractable: true });
const jwks = { keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS384', use: 'sig' }] };
const privateJwk = await exportJWK(pair.privateKey);

beforeAll(async () => {
  t = await startTestProduct();
  a = await createOrg(t, 'Clinica Clientes API');
  b = await createOrg(t, 'Clinica Otra API');
});
afterAll(() => t.stop());

const create = (org: Org, body: object) => t.http.post('/api/v1/api_clients').set(bearer(org.tokens.admin)).send(body);

async function eventWhere(where: string, repl: Record<string, unknown>) {
  for (let i = 0; i < 50; i++) {
    const [row] = await select<{ action: string; summary: string }>(
      t.sequelize,
      `SELECT * FROM audit_events WHERE ${where} ORDER BY id DESC`,
      repl,
    );
    if (row) return row;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no audit event where ${where}`);
}

describe('api_clients (Clientes de API)', () => {
  it('lets an admin register, list, suspend and delete a client; the client id is random and public', async () => {
    const res = await create(a, { name: 'HIS Hospital Central', jwks, scopes: ['system/Patient.rs', 'system/Observation.rs'] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'HIS Hospital Central',
      jwks,
      jwks_url: null,
      scopes: ['system/Patient.rs', 'system/Observation.rs'],
      status: 'active',
      last_token_at: null,
    });
    expect(res.body.client_id).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const other = await create(a, { name: 'Analítica', jwks_url: 'https://keys.example.org/jwks.json', scopes: ['system/*.rs'] });
    expect(other.body.client_id).not.toBe(res.body.client_id);
    expect(other.body).toMatchObject({ jwks: null, jwks_url: 'https://keys.example.org/jwks.json' });

    const list = await t.http.get('/api/v1/api_clients?_sort=name&_order=asc&q=hospital').set(bearer(a.tokens.admin));
    expect(list.status).toBe(200);
    expect(list.headers['x-total-count']).toBe('1');
    expect(list.body.map((c: { id: number }) => c.id)).toEqual([res.body.id]);

    const suspended = await t.http.patch(`/api/v1/api_clients/${res.body.id}`).set(bearer(a.tokens.admin)).send({ status: 'suspended' });
    expect(suspended.status).toBe(200);
    expect(suspended.body).toMatchObject({ status: 'suspended', client_id: res.body.client_id });
    const filtered = await t.http.get('/api/v1/api_clients?status=suspended').set(bearer(a.tokens.admin));
    expect(filtered.body.map((c: { id: number }) => c.id)).toEqual([res.body.id]);
    // A JWKS replaces the URL, and the other way round.
    const swapped = await t.http.patch(`/api/v1/api_clients/${other.body.id}`).set(bearer(a.tokens.admin)).send({ jwks });
    expect(swapped.body).toMatchObject({ jwks, jwks_url: null });
    // 'Todas' with a single type is refused on an edit too, and the stored scopes stay.
    const mixed = await t.http
      .patch(`/api/v1/api_clients/${other.body.id}`)
      .set(bearer(a.tokens.admin))
      .send({ scopes: ['system/Group.rs', 'system/*.rs'] });
    expect(mixed.status).toBe(400);
    expect(mixed.body.errors[0]).toMatchObject({
      field: 'scopes',
      message: 'Elija «Todas» (system/*.rs) o tipos de datos concretos, no ambos.',
    });
    expect((await t.http.get(`/api/v1/api_clients/${other.body.id}`).set(bearer(a.tokens.admin))).body.scopes).toEqual(other.body.scopes);

    expect((await t.http.delete(`/api/v1/api_clients/${res.body.id}`).set(bearer(a.tokens.admin))).status).toBe(204);
    const gone = await t.http.get(`/api/v1/api_clients/${res.body.id}`).set(bearer(a.tokens.admin));
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe('El cliente de API no existe.');
    const event = await eventWhere("resource = 'api_client' AND action = 'create' AND resource_id = :id", { id: String(res.body.id) });
    expect(event.summary).toContain('el cliente de API');
  });

  it.each<[string, object, string, string | RegExp]>([
    ['no name', { jwks, scopes: ['system/*.rs'] }, 'name', '¡El campo es requerido!'],
    [
      'a name of 101 characters',
      { name: 'x'.repeat(101), jwks, scopes: ['system/*.rs'] },
      'name',
      'Debe tener mínimo 3 caracteres y máximo 100',
    ],
    ['a blank name', { name: '      ', jwks, scopes: ['system/*.rs'] }, 'name', 'Debe tener mínimo 3 caracteres y máximo 100'],
    [
      'neither keys nor URL',
      { name: 'Sin claves', scopes: ['system/*.rs'] },
      'jwks',
      'Indique el JWKS (claves públicas) o la URL del JWKS.',
    ],
    ['both keys and URL', { name: 'Ambos', jwks, jwks_url: 'https://k.example.org/j', scopes: ['system/*.rs'] }, 'jwks_url', /no ambos/],
    ['an http:// JWKS URL', { name: 'Http', jwks_url: 'http://k.example.org/j', scopes: ['system/*.rs'] }, 'jwks_url', /https:\/\//],
    [
      'a JWKS URL on a private network',
      { name: 'Privada', jwks_url: 'https://10.0.0.5/j', scopes: ['system/*.rs'] },
      'jwks_url',
      /https:\/\//,
    ],
    ['a JWKS without keys', { name: 'Vacio', jwks: { keys: [] }, scopes: ['system/*.rs'] }, 'jwks.keys', /entre 1 y 20 claves/],
    [
      'a private key pasted',
      { name: 'Privada', jwks: { keys: [{ kty: 'RSA', n: 'x', e: 'AQAB', d: 'y' }] }, scopes: ['system/*.rs'] },
      'jwks',
      /clave privada/,
    ],
    [
      'a symmetric key',
      { name: 'Simetrica', jwks: { keys: [{ kty: 'oct', k: 'abc' }] }, scopes: ['system/*.rs'] },
      'jwks',
      /clave privada|RSA o EC/,
    ],
    ['no scopes', { name: 'Sin scopes', jwks, scopes: [] }, 'scopes', /uno o más scopes/],
    ['a write scope', { name: 'Escritura', jwks, scopes: ['system/Patient.cruds'] }, 'scopes.0', /Opciones: system\/\*\.rs/],
    ['a scope of an unserved type', { name: 'Encuentros', jwks, scopes: ['system/Encounter.rs'] }, 'scopes.0', /Valor no permitido/],
    [
      "'Todas' together with a single type",
      { name: 'Mezcla', jwks, scopes: ['system/*.rs', 'system/Patient.rs'] },
      'scopes',
      'Elija «Todas» (system/*.rs) o tipos de datos concretos, no ambos.',
    ],
    ['a repeated scope', { name: 'Repetido', jwks, scopes: ['system/Group.rs', 'system/Group.rs'] }, 'scopes', /distintos/],
    ['an unknown status', { name: 'Estado', jwks, scopes: ['system/*.rs'], status: 'paused' }, 'status', /Activo, Suspendido/],
  ])('refuses %s with 400 naming the field', async (_name, body, field, message) => {
    const res = await create(a, body);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.errors[0].field).toBe(field);
    if (typeof message === 'string') expect(res.body.errors[0].message).toBe(message);
    else expect(res.body.errors[0].message).toMatch(message);
  });

  it("keeps each organisation's clients to itself: another organisation's id is a 404", async () => {
    const mine = (await create(a, { name: 'Propio de A', jwks, scopes: ['system/Patient.rs'] })).body;
    for (const req of [
      t.http.get(`/api/v1/api_clients/${mine.id}`),
      t.http.patch(`/api/v1/api_clients/${mine.id}`).send({ status: 'suspended' }),
      t.http.delete(`/api/v1/api_clients/${mine.id}`),
    ]) {
      const res = await req.set(bearer(b.tokens.admin));
      expect(res.status).toBe(404);
    }
    const listed = await t.http.get('/api/v1/api_clients?_end=100').set(bearer(b.tokens.admin));
    expect(listed.body.map((c: { id: number }) => c.id)).not.toContain(mine.id);
    const still = await t.http.get(`/api/v1/api_clients/${mine.id}`).set(bearer(a.tokens.admin));
    expect(still.body.status).toBe('active');
  });

  it.each(['medico', 'enfermeria', 'consulta'] as const)('refuses %s with 403 on reads and writes', async (role) => {
    const mine = (await create(a, { name: `Solo admin ${role}`, jwks, scopes: ['system/*.rs'] })).body;
    const h = bearer(a.tokens[role]);
    expect((await t.http.get('/api/v1/api_clients').set(h)).status).toBe(403);
    expect((await t.http.get(`/api/v1/api_clients/${mine.id}`).set(h)).status).toBe(403);
    expect(
      (
        await t.http
          .post('/api/v1/api_clients')
          .set(h)
          .send({ name: 'Nuevo', jwks, scopes: ['system/*.rs'] })
      ).status,
    ).toBe(403);
    expect((await t.http.patch(`/api/v1/api_clients/${mine.id}`).set(h).send({ status: 'suspended' })).status).toBe(403);
    expect((await t.http.delete(`/api/v1/api_clients/${mine.id}`).set(h)).status).toBe(403);
    const after = await t.http.get(`/api/v1/api_clients/${mine.id}`).set(bearer(a.tokens.admin));
    expect(after.body.status).toBe('active');
  });

  it('never keeps a private key: the stored JWKS is what was pasted, public members only', async () => {
    const res = await create(a, { name: 'Con privada', jwks: { keys: [{ ...privateJwk, kid: 'p' }] }, scopes: ['system/*.rs'] });
    expect(res.status).toBe(400);
    const rows = await select(t.sequelize, "SELECT id FROM api_clients WHERE name = 'Con privada'");
    expect(rows).toEqual([]);
  });
});
