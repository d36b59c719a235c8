import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { loadContract } from '../../api/src/http/contract';
import type { OpenApiOperation } from '@vigia/contract/rules/schema';
import { startTestProduct, requestFor, type TestProduct } from '../support/product';

/**
 * Authentication comes before the contract (issue 41): a stranger's call to any operation that
 * needs a session answers 401, whatever its body, query or path say; a 400 would describe the
 * operation's schema to someone not signed in. Every operation of openapi.yaml is tried, as the
 * security suite does. Public operations (sign-in, codes, devices, webhooks) are still validated.
 */
const { doc } = loadContract();
const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item as Record<string, OpenApiOperation>)
    .filter(([m]) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
    .map(([method, op]) => ({ path, method, op, name: `${method.toUpperCase()} ${path}` })),
);
const secured = operations.filter((o) => !Array.isArray(o.op.security));

/** Path parameters no schema accepts as an id, an unknown query parameter and a body of the wrong shape. */
const invalidUrl = (path: string) => `/api/v1${path.replace(/\{[^}]+\}/g, '-x-')}?parametro_desconocido=1`;
const INVALID_BODY = { campo_desconocido: [null], name: 12 };

let t: TestProduct;
beforeAll(async () => {
  t = await startTestProduct();
});
afterAll(async () => {
  await t?.stop();
});

describe('operations that need a session, called without one and with an invalid request', () => {
  it('the contract has secured operations of every method', () => {
    expect(secured.length).toBeGreaterThan(100);
    expect(new Set(secured.map((o) => o.method))).toEqual(new Set(['get', 'post', 'put', 'patch', 'delete']));
  });

  it.each(secured.map((o) => [o.name, o] as const))('%s answers 401 without a token', async (_name, o) => {
    const res = await requestFor(t, o.method, invalidUrl(o.path)).send(INVALID_BODY);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'unauthorized' });
    expect(JSON.stringify(res.body)).not.toContain('campo_desconocido');
  });

  it.each(secured.map((o) => [o.name, o] as const))('%s answers 401 to a forged token', async (_name, o) => {
    const res = await requestFor(t, o.method, invalidUrl(o.path)).set('Authorization', 'Bearer no.es.valido').send(INVALID_BODY);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'unauthorized' });
  });

  it('a malformed JSON body does not get ahead of the 401', async () => {
    const res = await t.http.post('/api/v1/patients').set('content-type', 'application/json').send('{"nid": ');
    expect(res.status).toBe(401);
  });
});

describe('public operations are still checked against the contract first', () => {
  it.each([
    ['POST', '/api/v1/sessions', {}, 'email'],
    ['POST', '/api/v1/request_otp', {}, 'nid'],
    ['POST', '/api/v1/devices/CARD-1/readings', { value: 'alto' }, 'value'],
  ])('%s %s %j answers 400 naming the field', async (method, url, body, field) => {
    const res = await requestFor(t, method.toLowerCase(), url).send(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_error');
    expect(JSON.stringify(res.body.errors)).toContain(field);
  });

  it('an unknown route answers 404 without a token', async () => {
    const res = await t.http.get('/api/v1/no_existe');
    expect(res.status).toBe(404);
  });
});
