import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { derefSchema, type JsonSchema } from '@vigia/contract/rules/schema';
import { loadContract } from '../../api/src/http/contract';
import { startTestProduct, createOrg, bearer, requestFor, type TestProduct, type Org } from '../support/product';
import {
  isPublic,
  schemaOf,
  seedClient,
  seedPatient,
  sampleBody,
  urlWithTextParams,
  operationsInCallOrder,
  type Ids,
  type Operation,
} from './fixtures';

/**
 * Hostile values inside otherwise valid requests (issue 18). fuzz.test.ts sends invalid requests,
 * most of which the contract refuses before any handler runs; here every operation gets its valid
 * sample body, path and query, and one value at a time is replaced by a value of a class an outside
 * audit found reaching SQL: non-finite and oversized numbers, NUL and control characters, impossible
 * calendar dates. Each lands in every body field (the schema's and the sample's nested ones), every
 * query parameter and every path parameter. The answer is never >= 500, and a refusal is a Spanish
 * message. Deterministic: the same values in the same order on every run.
 */
const { doc } = loadContract();

/** JSON text placed raw in a body: `1e309` is valid JSON that JSON.parse reads as Infinity. */
const RAW = (text: string) => ({ raw: text });
type Hostile = { label: string; value: unknown };
const HOSTILE: Hostile[] = [
  { label: '1e309', value: RAW('1e309') },
  { label: '-1e309', value: RAW('-1e309') },
  { label: '"Infinity"', value: 'Infinity' },
  { label: '"NaN"', value: 'NaN' },
  { label: '1e20', value: RAW('99999999999999999999') },
  { label: '2^31', value: 2_147_483_648 },
  { label: '-2^31-1', value: -2_147_483_649 },
  { label: '2^53+1', value: RAW('9007199254740993') },
  { label: '1.5', value: 1.5 },
  { label: 'NUL', value: 'a\u0000b' },
  { label: 'only NUL', value: '\u0000' },
  { label: 'SOH', value: 'x\u0001y' },
  { label: 'ESC', value: '\u001b[2J' },
  { label: 'DEL', value: 'z\u007f' },
  { label: '2026-02-30', value: '2026-02-30' },
  { label: '2026-02-29', value: '2026-02-29' },
  { label: '2026-13-01', value: '2026-13-01' },
  { label: '2026-02-30T10:00:00Z', value: '2026-02-30T10:00:00Z' },
  { label: '2026-11-25T24:61:00Z', value: '2026-11-25T24:61:00Z' },
];
/** The same classes as query and path text. */
const HOSTILE_TEXT = [
  '1e309',
  '-1e309',
  'Infinity',
  'NaN',
  '99999999999999999999',
  '2147483648',
  '-2147483649',
  '1.5',
  'a\u0000b',
  '\u0000',
  'x\u0001y',
  '\u001b[2J',
  '2026-02-30',
  '2026-13-01',
  '2026-02-30T10:00:00Z',
];

const MARK = '"__hostile__"';
/** The body as JSON text with `value` at `path` (raw number text written unquoted). */
function bodyWith(base: unknown, path: Array<string | number>, value: unknown): string {
  const copy = structuredClone(base) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const raw = value && typeof value === 'object' && 'raw' in value ? (value as { raw: string }).raw : null;
  node[path[path.length - 1]] = raw ? '__hostile__' : value;
  const text = JSON.stringify(copy);
  return raw ? text.replace(MARK, raw) : text;
}

/** Every leaf of the sample body, and every top-level property the schema declares. */
function fieldPaths(o: Operation, sample: unknown): Array<Array<string | number>> {
  const out: Array<Array<string | number>> = [];
  const walk = (v: unknown, p: Array<string | number>) => {
    if (Array.isArray(v)) {
      if (!v.length) out.push([...p, 0]);
      v.forEach((x, i) => walk(x, [...p, i]));
    } else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, [...p, k]);
    else if (p.length) out.push(p);
  };
  walk(sample, []);
  const schema = derefSchema(doc, o.op.requestBody?.content?.['application/json']?.schema) as JsonSchema | undefined;
  for (const key of Object.keys(schema?.properties ?? {})) if (!out.some((p) => p[0] === key && p.length === 1)) out.push([key]);
  return out;
}

/** What leaks when an error escapes translation: validator English, stack traces, SQL. */
const UNTRANSLATED =
  /\b(must|should|required property|Unexpected|Cannot|undefined|TypeError|SyntaxError|SQLITE|Sequelize|violates|invalid input|at [\w.]+ \()/;

let t: TestProduct;
let org: Org;
let ids: Ids;
const figures = { operations: 0, calls: 0, refused4xx: 0, accepted: 0, over499: 0 };
const failures: string[] = [];

beforeAll(async () => {
  t = await startTestProduct();
  org = await createOrg(t, 'Clinica Hostil');
  const client = await seedClient(t, org, 'HOS');
  ids = { ...client, ...(await seedPatient(t, org, client, '7300000001')) };
}, 120_000);
afterAll(async () => {
  if (process.env.HOSTILE_OUT) (await import('node:fs')).writeFileSync(process.env.HOSTILE_OUT, failures.join('\n'));
  console.info(`[security] hostile: ${JSON.stringify({ ...figures, values: HOSTILE.length, texts: HOSTILE_TEXT.length })}`);
  await t?.stop();
});

async function call(o: Operation, url: string, query: Record<string, string>, body: string | undefined, what: string) {
  let req = requestFor(t, o.method, url).query(query);
  if (!isPublic(o)) req = req.set(bearer(org.tokens.admin));
  if (body !== undefined) req = req.set('content-type', 'application/json').send(body);
  const res = await req;
  figures.calls++;
  if (res.status >= 500) {
    figures.over499++;
    failures.push(`${o.name} ${what}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
  } else if (res.status >= 400) {
    figures.refused4xx++;
    if (typeof res.body?.message !== 'string' || UNTRANSLATED.test(res.body.message))
      failures.push(`${o.name} ${what}: ${res.status} message ${JSON.stringify(res.body).slice(0, 200)}`);
  } else figures.accepted++;
}

/** Query parameters the operation declares, each with a valid value where one is needed. */
function queryNames(o: Operation): string[] {
  return (o.op.parameters ?? []).map((p) => derefSchema(doc, p)!).flatMap((p) => (p.in === 'query' ? [p.name!] : []));
}

describe('hostile values in valid requests', () => {
  it.each(operationsInCallOrder.map((o) => [o.name, o] as const))('%s never answers 5xx', async (_n, o) => {
    figures.operations++;
    const url = urlWithTextParams(o, ids, 'CARD-HOS');
    const schema = schemaOf(o);
    const sample = schema ? (sampleBody(schema, ids) ?? {}) : undefined;
    const body = sample === undefined ? undefined : JSON.stringify(sample);
    for (const path of sample === undefined ? [] : fieldPaths(o, sample))
      for (const h of HOSTILE) await call(o, url, {}, bodyWith(sample, path, h.value), `body ${path.join('.')}=${h.label}`);
    for (const name of queryNames(o))
      for (const text of HOSTILE_TEXT) await call(o, url, { [name]: text }, body, `query ${name}=${JSON.stringify(text)}`);
    const params = [...o.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    for (const param of params)
      for (const text of HOSTILE_TEXT) {
        const at = o.path.split('/').indexOf(`{${param}}`);
        const parts = url.replace('/api/v1', '').split('/');
        parts[at] = encodeURIComponent(text);
        await call(o, `/api/v1${parts.join('/')}`, {}, body, `path ${param}=${JSON.stringify(text)}`);
      }
    expect(failures.filter((f) => f.startsWith(`${o.name} `))).toEqual([]);
  });
});
