import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import sqlite3 from 'sqlite3';
import { createRequire } from 'node:module';
import { derefSchema } from '@vigia/contract/rules/schema';
import { loadContract } from '../../api/src/http/contract';
import { startTestProduct, createOrg, bearer, requestFor, type TestProduct, type Org } from '../support/product';
import { isPublic, schemaOf, seedClient, seedPatient, sampleBody, urlWithTextParams, operationsInCallOrder, type Ids } from './fixtures';

/**
 * No statement carries a caller's value in its text (issue 18): every operation of the contract is
 * called with its valid sample request, plus marker values in each query parameter it declares
 * (`q`, `_start`, filters), and every statement the database drivers receive meanwhile (sqlite3's
 * and pg's own query methods, below Sequelize and sql.ts) is checked: none may contain a string the
 * request sent or a marker. Without bound parameters (bound-statements.ts, sql.ts) this fails on the
 * first WHERE clause Sequelize writes.
 */
const { doc } = loadContract();
// pg ships no types; only its Client's query method is wrapped here.
const pg = createRequire(import.meta.url)('pg') as { Client: { prototype: object } };
const statements: string[] = [];

type Method = (this: unknown, sql: unknown, ...rest: unknown[]) => unknown;
const restore: Array<() => void> = [];
function spy(proto: Record<string, unknown>, name: string) {
  const original = proto[name] as Method;
  proto[name] = function (this: unknown, sql: unknown, ...rest: unknown[]) {
    const text = typeof sql === 'string' ? sql : (sql as { text?: string } | null)?.text;
    if (typeof text === 'string') statements.push(text);
    return original.call(this, sql, ...rest);
  };
  restore.push(() => (proto[name] = original));
}
for (const name of ['all', 'run', 'get', 'each', 'exec', 'prepare'])
  spy(sqlite3.Database.prototype as unknown as Record<string, unknown>, name);
spy(pg.Client.prototype as unknown as Record<string, unknown>, 'query');

/** Marker query values: text no statement of the code contains, numbers no code writes. */
const QUERY_MARKERS: Record<string, string> = { q: 'zqmarcador', _start: '7771', _end: '7791', page: '7761', per_page: '31' };
const MARKER_NUMBERS = ['7771', '7791', '7761'];

let t: TestProduct;
let org: Org;
let ids: Ids;
const figures = { operations: 0, calls: 0, statements: 0, values: 0 };
beforeAll(async () => {
  t = await startTestProduct();
  org = await createOrg(t, 'Clinica Ligada');
  const client = await seedClient(t, org, 'LIG');
  ids = { ...client, ...(await seedPatient(t, org, client, '7400000001')) };
}, 120_000);
afterAll(async () => {
  restore.forEach((r) => r());
  console.info(`[security] bound values: ${JSON.stringify(figures)}`);
  await t?.stop();
});

/** The strings of a body (leaves of 4 characters or more), each as it would be written inline. */
function stringsOf(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string' && v.length >= 4) out.push(v);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) stringsOf(x, out);
  return out;
}

describe('every value a request sends reaches the database as a bound parameter', () => {
  it.each(operationsInCallOrder.map((o) => [o.name, o] as const))('%s', async (_n, o) => {
    figures.operations++;
    const url = urlWithTextParams(o, ids, 'CARD-LIG');
    const schema = schemaOf(o);
    const body = schema ? sampleBody(schema, ids) : undefined;
    const declared = (o.op.parameters ?? []).map((p) => derefSchema(doc, p)!).filter((p) => p.in === 'query');
    const query = Object.fromEntries(declared.flatMap((p) => (QUERY_MARKERS[p.name!] ? [[p.name!, QUERY_MARKERS[p.name!]]] : [])));
    const values = [...stringsOf(body), ...Object.values(query).filter((v) => !/^\d+$/.test(v))];
    // Two calls: the marker query alone (a list answers it), then the plain sample request.
    for (const q of Object.keys(query).length ? [query, {}] : [{}]) {
      const from = statements.length;
      let req = requestFor(t, o.method, url).query(q);
      if (!isPublic(o)) req = req.set(bearer(org.tokens.admin));
      if (body) req = req.send(body);
      await req;
      // Writes after the answer (the audit trail) belong to this call too.
      await new Promise((r) => setTimeout(r, 150));
      figures.calls++;
      const sent = statements.slice(from);
      figures.statements += sent.length;
      figures.values += values.length;
      for (const sql of sent) {
        for (const v of values) expect(sql, `${o.name}: '${v}' written into the statement`).not.toContain(v);
        for (const n of MARKER_NUMBERS) expect(sql, `${o.name}: ${n} written into the statement`).not.toMatch(new RegExp(`\\b${n}\\b`));
      }
    }
  });
});
