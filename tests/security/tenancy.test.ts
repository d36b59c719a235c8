import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { loadContract } from '../../api/src/http/contract';
import { select } from '../../api/src/db/sql';
import { startTestProduct, createOrg, bearer, patientBody, type TestProduct, type Org } from '../support/product';

/**
 * Tenant isolation matrix (D14), generated from openapi.yaml: every operation whose path carries
 * an id is called by each role of client B with client A's ids. The answer is 404 (403 for a role
 * that may never do it), exactly as for an id that does not exist, and client A's rows are unchanged. A new operation is covered as soon
 * as it is in the contract; one whose id or body this file cannot supply fails until it can.
 */
let t: TestProduct;
let a: Org;
let b: Org;
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await startTestProduct();
  a = await createOrg(t, 'Clinica Alfa');
  b = await createOrg(t, 'Clinica Beta');
  ids.tags = (await t.http.post('/api/v1/tags').set(bearer(a.tokens.admin)).send({ name: 'privada', color: 'red' })).body.id;
  ids.patients = (await t.http.post('/api/v1/patients').set(bearer(a.tokens.admin)).send(patientBody({ nid: '5566778899', tag_ids: [ids.tags] }))).body.id;
  ids.clients = a.clientId;
});
afterAll(() => t.stop());

/** A valid body per request schema, so the refusal is about tenancy and not about validation. */
const SAMPLE_BODIES: Record<string, unknown> = {
  TagUpdate: { name: 'robada', color: 'blue' },
  PatientUpdate: { first_name: 'intruso' },
};

const { doc } = loadContract();
const withIds = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([m]) => ['get', 'post', 'put', 'patch', 'delete'].includes(m) && path.includes('{id}'))
    .map(([method, op]) => ({ path, method, op })),
);

/** Everything client A owns, read straight from the database. */
async function snapshotOfA() {
  return {
    patients: await select(t.sequelize, 'SELECT * FROM patients WHERE client_id = :c ORDER BY id', { c: a.clientId }),
    tags: await select(t.sequelize, 'SELECT * FROM tags WHERE client_id = :c ORDER BY id', { c: a.clientId }),
    patient_tags: await select(t.sequelize, 'SELECT pt.* FROM patient_tags pt JOIN tags g ON g.id = pt.tag_id WHERE g.client_id = :c ORDER BY pt.patient_id, pt.tag_id', { c: a.clientId }),
    clients: await select(t.sequelize, 'SELECT * FROM clients WHERE id = :c', { c: a.clientId }),
  };
}

describe('tenant isolation matrix', () => {
  it('covers every operation with an id in the contract', () => {
    expect(withIds.length).toBeGreaterThan(0);
  });

  it.each(withIds.map((o) => [`${o.method.toUpperCase()} ${o.path}`, o] as const))('%s: client B gets 404 for client A\'s id', async (_n, o) => {
    const resource = o.path.split('/')[1];
    expect(ids[resource], `no fixture id for ${o.path}`).toBeDefined();
    const schemaRef = o.op.requestBody?.content?.['application/json']?.schema?.$ref as string | undefined;
    const body = schemaRef ? SAMPLE_BODIES[schemaRef.split('/').pop()!] : undefined;
    if (schemaRef) expect(body, `no sample body for ${schemaRef}`).toBeDefined();

    const before = await snapshotOfA();
    for (const role of ['admin', 'medico', 'enfermeria', 'consulta'] as const) {
      const call = (id: number) => {
        const req = (t.http as any)[o.method](`/api/v1${o.path.replace('{id}', String(id))}`).set(bearer(b.tokens[role]));
        return body ? req.send(body) : req;
      };
      const foreign = await call(ids[resource]);
      const missing = await call(987654321);
      // A role that may never do this gets 403 whatever the id; every other answer is 404.
      // Either way the foreign id is answered exactly like a missing one.
      expect([403, 404], `${role}: ${JSON.stringify(foreign.body)}`).toContain(foreign.status);
      if (role === 'admin') expect(foreign.status).toBe(404);
      expect(foreign.status).toBe(missing.status);
      expect(foreign.body).toEqual(missing.body);
    }
    expect(await snapshotOfA()).toEqual(before);
  });

  it.each([
    ['/api/v1/patients', 'patients'],
    ['/api/v1/tags', 'tags'],
    ['/api/v1/sms_outbox', 'sms'],
  ])('list %s never shows client A\'s rows to client B', async (url) => {
    const res = await t.http.get(url).set(bearer(b.tokens.admin));
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });
});
