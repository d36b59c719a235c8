import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { OpenApiOperation } from '@vigia/contract/rules/schema';
import { loadContract } from '../../api/src/http/contract';
import { startTestProduct, createOrg, bearer, requestFor, type TestProduct, type Org } from '../support/product';

let t: TestProduct;
let org: Org;
beforeAll(async () => {
  t = await startTestProduct();
  org = await createOrg(t, 'Clinica Contrato');
});
afterAll(() => t.stop());

const { doc } = loadContract();
const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item as Record<string, OpenApiOperation>)
    .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
    .map(([method, op]) => ({ path, method, op })),
);

describe('every operation of openapi.yaml', () => {
  it.each(operations.map((o) => [`${o.method.toUpperCase()} ${o.path}`, o] as const))(
    '%s has a handler',
    async (_name, { path, method }) => {
      const url = `/api/v1${path.replace(/\{[^}]+\}/g, (m) => (m === '{list_name}' ? 'countries' : '999999'))}`;
      const res = await requestFor(t, method, url)
        .set(bearer(org.tokens.admin))
        .send(method === 'get' || method === 'delete' ? undefined : {});
      expect(res.status).toBeLessThan(500);
      expect(res.body?.message).not.toBe('La ruta solicitada no existe.');
    },
  );

  it.each(operations.filter((o) => o.op.security === undefined).map((o) => [`${o.method.toUpperCase()} ${o.path}`, o] as const))(
    '%s refuses a request without a token',
    async (_name, { path, method }) => {
      const url = `/api/v1${path.replace(/\{[^}]+\}/g, (m) => (m === '{list_name}' ? 'countries' : '1'))}`;
      const res = await requestFor(t, method, url).send(method === 'get' || method === 'delete' ? undefined : {});
      // The contract validates the body first for writes: 400 or 401, never a success.
      expect([400, 401]).toContain(res.status);
    },
  );
});
