import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import fc from 'fast-check';
import { derefSchema, type JsonSchema, type OpenApiOperation } from '@vigia/contract/rules/schema';
import { loadContract } from '../../api/src/http/contract';
import { select } from '../../api/src/db/sql';
import { startTestProduct, createOrg, bearer, patientBody, requestFor, type TestProduct, type Org } from '../support/product';

/**
 * Contract fuzzing: every operation of openapi.yaml gets generated invalid input (wrong types,
 * missing and extra fields, huge and odd strings, extreme numbers, malformed JSON). The answer is
 * always a 4xx with a Spanish message, never a 5xx, and a refused write stores nothing.
 * Seeded (FUZZ_SEED) so a failure replays exactly.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261121);
const RUNS = Number(process.env.FUZZ_RUNS ?? 25);

let t: TestProduct;
let org: Org;
let patientId: number;
let tagId: number;
beforeAll(async () => {
  t = await startTestProduct();
  org = await createOrg(t, 'Clinica Fuzz');
  patientId = (
    await t.http
      .post('/api/v1/patients')
      .set(bearer(org.tokens.admin))
      .send(patientBody({ nid: '1122334455' }))
  ).body.id;
  tagId = (await t.http.post('/api/v1/tags').set(bearer(org.tokens.admin)).send({ name: 'fuzz', color: 'red' })).body.id;
});
afterAll(() => t.stop());

const { doc } = loadContract();
type Op = { path: string; method: string; op: OpenApiOperation };
const operations: Op[] = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item as Record<string, OpenApiOperation>)
    .filter(([m]) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
    .map(([method, op]) => ({ path, method, op })),
);

const TABLES = ['patients', 'tags', 'patient_tags', 'feedbacks', 'clients', 'users'];
async function counts(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of TABLES) out[table] = Number((await select<{ n: number }>(t.sequelize, `SELECT COUNT(*) AS n FROM ${table}`))[0].n);
  return out;
}

const weird = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '💉🩺',
    '<script>alert(1)</script>',
    "' OR 1=1 --",
    '=cmd|" /C calc"!A0',
    'x'.repeat(100_000),
    '１２３',
    'NaN',
    '-0',
    'Infinity',
    'x\u0001y',
    '\u001b[2J',
    '2026-02-30',
    '2026-02-30T10:00:00Z',
  ),
  fc.integer({ min: -2_147_483_648, max: 2_147_483_647 }),
  fc.constantFrom(-1, 0, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 0.1),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.anything({ maxDepth: 1 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.anything({ maxDepth: 1 }), { maxKeys: 3 }),
);

/** Bodies built from the operation's own fields, each given a wrong or extreme value, plus noise. */
function invalidBodies(op: OpenApiOperation) {
  const schemaRef = op.requestBody?.content?.['application/json']?.schema?.$ref;
  const schema: JsonSchema = schemaRef ? doc.components.schemas[schemaRef.split('/').pop()!] : {};
  const fields = Object.keys(schema.properties ?? { field: {} });
  return fc.oneof(
    fc.dictionary(fc.constantFrom(...fields, 'extra', '__proto__', 'constructor'), weird, { minKeys: 1, maxKeys: 6 }),
    fc.anything({ maxDepth: 2 }),
    fc.constant({}),
  );
}

function urlFor(path: string, id: string): string {
  return `/api/v1${path.replace('{list_name}', 'countries').replace(/\{[^}]+\}/g, path.startsWith('/tags') ? String(tagId) : id)}`;
}

/** What leaks when an error escapes translation: validator English, stack traces, SQL. */
const UNTRANSLATED =
  /\b(must|should|required property|Unexpected|Cannot|undefined|TypeError|SyntaxError|SQLITE|Sequelize|violates|at [\w.]+ \()/;
function expectUserMessage(body: { message?: unknown }) {
  expect(typeof body.message).toBe('string');
  expect((body.message as string).length).toBeGreaterThan(3);
  expect(body.message).not.toMatch(UNTRANSLATED);
}

describe('contract fuzzing', () => {
  const writes = operations.filter((o) => o.op.requestBody);

  it.each(writes.map((o) => [`${o.method.toUpperCase()} ${o.path}`, o] as const))(
    '%s answers invalid bodies with 4xx in Spanish',
    async (_n, o) => {
      await fc.assert(
        fc.asyncProperty(invalidBodies(o.op), async (body) => {
          const before = await counts();
          // Serialised here: any JSON value is a body a client could send, not only objects.
          const res = await requestFor(t, o.method, urlFor(o.path, String(patientId)))
            .set(bearer(org.tokens.admin))
            .set('content-type', 'application/json')
            .send(JSON.stringify(body) ?? 'null');
          expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
          if (res.status >= 400) {
            expectUserMessage(res.body);
            expect(await counts()).toEqual(before);
          }
        }),
        { seed: SEED, numRuns: RUNS },
      );
    },
  );

  it.each(writes.map((o) => [`${o.method.toUpperCase()} ${o.path}`, o] as const))('%s answers malformed JSON with 400', async (_n, o) => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('{', '{"a":', '[1,', 'null x', '{"a":1}}', '\u0000', '{"nid": "1" "x": 2}'), async (raw) => {
        const res = await requestFor(t, o.method, urlFor(o.path, String(patientId)))
          .set(bearer(org.tokens.admin))
          .set('content-type', 'application/json')
          .send(raw);
        expect([400, 401]).toContain(res.status);
        expectUserMessage(res.body);
      }),
      { seed: SEED, numRuns: 7 },
    );
  });

  it.each(operations.map((o) => [`${o.method.toUpperCase()} ${o.path}`, o] as const))(
    '%s answers odd ids and query values without a 5xx',
    async (_n, o) => {
      const params = (o.op.parameters ?? []).map((p) => derefSchema(doc, p)!);
      const queryNames = params.filter((p) => p.in === 'query').map((p) => p.name!);
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(
            '0',
            '-1',
            '1e3',
            'abc',
            '99999999999999999999',
            '1e309',
            'Infinity',
            '%00',
            '1;DROP TABLE patients',
            '%2e%2e',
            String(patientId),
          ),
          fc.dictionary(fc.constantFrom(...queryNames, 'zz'), fc.string({ maxLength: 30 }), { maxKeys: 3 }),
          async (id, query) => {
            const res = await requestFor(t, o.method, urlFor(o.path, id)).query(query).set(bearer(org.tokens.consulta));
            expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
            if (res.status >= 400) expectUserMessage(res.body);
          },
        ),
        { seed: SEED, numRuns: RUNS },
      );
    },
  );
});
