import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import jwt from 'jsonwebtoken';
import { select } from '../../api/src/db/sql';
import { SEARCH_TYPES, type SearchType } from '../../api/src/modules/fhir/fhir.search.rules';
import { startTestProduct, createOrg, bearer, patientBody, type TestProduct, type Org } from '../support/product';
import { makeClientKey } from '../support/smart-client';
import { fhirClient, loadFhirDefinitions, matchIds, type FhirClient, type Json } from '../support/fhir';
import { patientToken, seedClient, seedPatient } from './fixtures';

/**
 * The FHIR API under attack (issue 37), on SQLite and PostgreSQL alike:
 * - SQL-looking and wildcard values in every search parameter of every type the API serves (read
 *   from SEARCH_TYPES, so a type added there is attacked here too): a 400 OperationOutcome or an
 *   empty Bundle, never a 500, never a row of organisation B, and every table still there;
 * - tokens: an API client's token refused by the staff API, a staff session of A never reading B,
 *   expired, forged and alg-none tokens 401 with WWW-Authenticate, a patient's portal session 403;
 * - hostile paging: huge `_count`, forged and garbage `_cursor`, repeated parameters: 400, not 500.
 */
const SECRET = 'clave-de-pruebas-fhir-seguridad-0123456789abcdef';
const HOST = 'vigia.test';
const TYPES = Object.keys(SEARCH_TYPES) as SearchType[];

let clock = new Date();
let t: TestProduct;
let a: Org;
let b: Org;
let client: FhirClient;
let tokenA = '';
let tokenB = '';
let portal = '';
let patientOfB = 0;
/** Every resource of organisation B the API serves, as 'Type/id'. */
const bResources = new Set<string>();
const figures = {
  types: TYPES.length,
  parameters: 0,
  injections: 0,
  refused400: 0,
  empty200: 0,
  bResources: 0,
  tokenAttacks: 0,
  paging: 0,
};

const clientToken = (org: Org, name: string) => client.token(org, name, ['system/*.rs']);

/** A raw query string is sent as written (supertest would re-encode an object). */
const fhir = (path: string, token: string | null) => client.get(path, token);
const body = (res: { text: string }): Json => JSON.parse(res.text);
/** A searchset's matches as 'Type/id', the form bResources holds. */
const matchRefs = (bundle: Json, type: string): string[] => matchIds(bundle).map((id) => `${type}/${id}`);

/** Every page of a search, by its `next` links (each page validated as FHIR R4). */
const everything = async (type: SearchType, token: string): Promise<string[]> =>
  (await client.allPages(`/${type}?_count=1000`, token)).ids.map((id) => `${type}/${id}`);

/** A refusal as FHIR says: 400, an OperationOutcome whose Spanish diagnostics name the parameter. */
function expectBadRequest(res: { status: number; text: string; headers: Record<string, string> }, param: string, label: string) {
  expect(res.status, `${label}: ${res.text}`).toBe(400);
  expect(res.headers['content-type']).toMatch(/^application\/fhir\+json/);
  const outcome = body(res);
  expect(outcome.resourceType).toBe('OperationOutcome');
  expect(outcome.issue[0]).toMatchObject({ severity: 'error', code: 'invalid' });
  expect(`${outcome.issue[0].diagnostics} ${outcome.issue[0].expression ?? ''}`, label).toContain(param);
}

const tableCounts = async () =>
  Object.fromEntries(
    await Promise.all(
      [
        'patients',
        'measurements',
        'alerts',
        'patient_conditions',
        'tags',
        'patient_tags',
        'orders',
        'caregivers',
        'patient_caregivers',
        'devices',
        'api_clients',
      ].map(
        async (table) => [table, Number((await select<{ n: number }>(t.sequelize, `SELECT COUNT(*) AS n FROM ${table}`))[0].n)] as const,
      ),
    ),
  );

beforeAll(async () => {
  loadFhirDefinitions();
  t = await startTestProduct({ now: () => clock, jwtSecret: SECRET });
  a = await createOrg(t, 'Clinica Fhir Segura');
  b = await createOrg(t, 'Clinica Fhir Vecina');
  // Both organisations get a row of every kind: a tag (Group), alarm, device, orders, readings, an
  // alert, a condition, a caregiver (RelatedPerson).
  const clientA = await seedClient(t, a, 'FA');
  const clientB = await seedClient(t, b, 'FB');
  // Two of A's records, so every type has a second page whose cursor can be forged.
  await seedPatient(t, a, clientA, '7310000001');
  await seedPatient(t, a, clientA, '7310000004');
  patientOfB = (await seedPatient(t, b, clientB, '7310000002')).patients;
  const portalPatient = await t.http
    .post('/api/v1/patients')
    .set(bearer(a.tokens.admin))
    .send(patientBody({ nid: '7310000003', cellphone: '3007771234' }));
  if (portalPatient.status !== 201) throw new Error(JSON.stringify(portalPatient.body));
  portal = await patientToken(t, a, '7310000003', '3007771234');
  client = fhirClient(t, await makeClientKey('RS384', 'k1'), { host: HOST, now: () => clock });
  tokenA = await clientToken(a, 'HIS Seguro');
  tokenB = await clientToken(b, 'HIS Vecino');
  for (const type of TYPES) for (const id of await everything(type, tokenB)) bResources.add(id);
  figures.bResources = bResources.size;
}, 180_000);
afterAll(async () => {
  console.info(`[security] fhir: ${JSON.stringify(figures)}`);
  await t?.stop();
});

describe('organisation B, the one that must never leak', () => {
  it('has rows of the core types for the attacks to reach for', () => {
    for (const type of ['Patient', 'Observation', 'DetectedIssue', 'Condition'])
      expect(
        [...bResources].some((r) => r.startsWith(`${type}/`)),
        type,
      ).toBe(true);
  });
});

describe('SQL-looking values in every search parameter of every type', () => {
  /** The classes of value an attacker tries; B's own ids are tried too (tenancy), per parameter. */
  const injections = (): string[] => [
    "' OR '1'='1",
    "' OR 1=1 --",
    '1 OR 1=1',
    "1' OR '1'='1' /*",
    "'; DROP TABLE patients; --",
    '1); DELETE FROM measurements; --',
    "%' UNION SELECT id, nid, first_name FROM patients --",
    '" OR ""="',
    '\\',
    "\\'",
    '%',
    '_',
    '%%',
    '*',
    `p${patientOfB}' OR client_id <> 0 --`,
    `Patient/p${patientOfB}`,
    `p${patientOfB}`,
    // Ids past the columns' range: an integer column on PostgreSQL must not see them as a bound value.
    'p2147483648',
    'Patient/p9999999999',
    'm999999999999999',
    'r2147483648-1',
    `http://loinc.org|8867-4' OR ''='`,
    "ge2026-01-01' OR 1=1 --",
    'eq2026-11-01T00:00:00Z OR 1=1',
    `${'('.repeat(200)}1${')'.repeat(200)}`,
    'x'.repeat(4000),
    'maría; SELECT pg_sleep(5); --',
    '1 AND (SELECT COUNT(*) FROM sqlite_master) > 0',
  ];

  it.each(TYPES)('%s: every parameter answers 400 or an empty Bundle, never 500 nor a row of B, and no table is harmed', async (type) => {
    const before = await tableCounts();
    // Every 5xx is listed at the end, so one run names them all.
    const failures: string[] = [];
    for (const param of SEARCH_TYPES[type]) {
      figures.parameters++;
      for (const value of injections()) {
        figures.injections++;
        const label = `${type}?${param.name}=${value.slice(0, 60)}`;
        const res = await fhir(`/${type}?${param.name}=${encodeURIComponent(value)}`, tokenA);
        if (res.status >= 500) {
          failures.push(`${label}: ${res.status}`);
          continue;
        }
        if (res.status === 400) {
          figures.refused400++;
          expectBadRequest(res, param.name, label);
          continue;
        }
        expect(res.status, `${label}: ${res.text}`).toBe(200);
        const bundle = body(res);
        expect(bundle.type, label).toBe('searchset');
        const found = matchRefs(bundle, type);
        expect(
          found.filter((id) => bResources.has(id)),
          `${label} leaked B`,
        ).toEqual([]);
        expect(found, `${label} matched rows`).toEqual([]);
        figures.empty200++;
      }
    }
    expect(failures).toEqual([]);
    expect(await tableCounts()).toEqual(before);
  });
});

describe('tokens on /fhir/R4 and /api/v1', () => {
  const claimsOf = (token: string) => jwt.decode(token) as jwt.JwtPayload;
  const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const resigned = (token: string, patch: object, secret = SECRET) =>
    jwt.sign({ ...claimsOf(token), ...patch }, secret, { algorithm: 'HS256' });

  async function expectLogin(token: string | null, label: string) {
    figures.tokenAttacks++;
    for (const path of ['/Patient', `/Patient/p${patientOfB}`, '/Observation?_count=5']) {
      const res = await fhir(path, token);
      expect(res.status, `${label} ${path}: ${res.text}`).toBe(401);
      expect(res.headers['www-authenticate'], label).toMatch(/^Bearer /);
      expect(body(res), label).toMatchObject({ resourceType: 'OperationOutcome', issue: [{ severity: 'error', code: 'login' }] });
    }
  }

  it('refuses an API client’s token on the staff API with 401', async () => {
    for (const path of [
      '/api/v1/me',
      '/api/v1/patients',
      `/api/v1/patients/${patientOfB}`,
      '/api/v1/audit_events',
      '/api/v1/api_clients',
    ]) {
      const res = await t.http.get(path).set(bearer(tokenA));
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(401);
    }
    const write = await t.http.post('/api/v1/tags').set(bearer(tokenA)).send({ name: 'por la API FHIR', color: 'red' });
    expect(write.status).toBe(401);
  });

  it('never lets a staff session of A read B: every B resource is 404, and a search by B’s patient is empty', async () => {
    expect(bResources.size).toBeGreaterThan(0);
    for (const ref of bResources) {
      const res = await fhir(`/${ref}`, a.tokens.admin);
      expect(res.status, `${ref}: ${res.text}`).toBe(404);
      expect(body(res).issue[0].code).toBe('not-found');
    }
    for (const type of TYPES) {
      if (!SEARCH_TYPES[type].some((p) => p.name === 'patient')) continue;
      const res = await fhir(`/${type}?patient=Patient/p${patientOfB}`, a.tokens.consulta);
      expect(res.status, `${type}: ${res.text}`).toBe(200);
      expect(matchRefs(body(res), type), type).toEqual([]);
    }
    // And B's staff sees what B's client sees: the set is real.
    const own = await fhir(`/Patient/p${patientOfB}`, b.tokens.admin);
    expect(own.status).toBe(200);
  });

  it('answers 404, never 500, to a read of an id past the columns’ range, of every type', async () => {
    // B's ids in each type's own form, with the first number pushed past 32 bits (and past 2^53).
    const failures: string[] = [];
    const seen = new Set<string>();
    for (const ref of bResources) {
      const [type, id] = ref.split('/');
      if (seen.has(type)) continue;
      seen.add(type);
      for (const big of ['2147483648', '9007199254740993', '99999999999999999999']) {
        const path = `/${type}/${id.replace(/\d+/, big)}`;
        const res = await fhir(path, tokenA);
        if (res.status >= 500) failures.push(`${path}: ${res.status}`);
        else expect(res.status, `${path}: ${res.text}`).toBe(404);
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers 401 with WWW-Authenticate to no token, garbage, forgeries and alg none', async () => {
    const staff = a.tokens.consulta;
    const forgeries: Array<[string, string | null]> = [
      ['no token', null],
      ['garbage', 'esto.no.es-un-token'],
      ['alg none, API client claims', `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claimsOf(tokenA))}.`],
      ['alg none, staff claims', `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claimsOf(staff))}.`],
      ['API client token, wrong key', resigned(tokenA, {}, 'otra-clave-cualquiera-de-32-caracteres')],
      [
        'API client token, other organisation in the claims, old signature',
        `${tokenA.split('.')[0]}.${b64({ ...claimsOf(tokenA), cid: b.clientId })}.${tokenA.split('.')[2]}`,
      ],
      ['API client token re-signed with the real key for another organisation', resigned(tokenA, { cid: b.clientId })],
      ['API client token re-signed with the real key as a staff token', resigned(tokenA, { typ: 'staff' })],
      [
        'API client token with a wider scope, old signature',
        `${tokenA.split('.')[0]}.${b64({ ...claimsOf(tokenA), scope: 'system/*.cruds' })}.${tokenA.split('.')[2]}`,
      ],
      ['staff token, wrong key', resigned(staff, {}, 'otra-clave-cualquiera-de-32-caracteres')],
      ['staff token re-signed for the FHIR audience', resigned(staff, { aud: 'vigia-fhir' })],
      ['HS512 with the real key', jwt.sign(claimsOf(tokenA), SECRET, { algorithm: 'HS512' })],
    ];
    for (const [label, token] of forgeries) await expectLogin(token, label);
  });

  it('answers 401 with WWW-Authenticate to an expired API client token', async () => {
    const token = await clientToken(a, 'HIS Caduca');
    expect((await fhir('/Patient?_count=1', token)).status).toBe(200);
    clock = new Date(clock.getTime() + 301_000);
    try {
      await expectLogin(token, 'expired');
    } finally {
      clock = new Date(clock.getTime() - 301_000);
    }
  });

  it('refuses a patient’s portal session with 403', async () => {
    for (const path of ['/Patient', '/Observation?_count=1']) {
      const res = await fhir(path, portal);
      expect(res.status, `${path}: ${res.text}`).toBe(403);
      expect(body(res).issue[0]).toMatchObject({ severity: 'error', code: 'forbidden' });
    }
  });
});

describe('hostile paging and repeated parameters', () => {
  /** A real cursor from a first page of one, to be forged in the shape the server made. */
  async function realCursor(type: SearchType, token = tokenA): Promise<unknown[] | null> {
    const res = await fhir(`/${type}?_count=1`, token);
    expect(res.status).toBe(200);
    const next = body(res).link.find((l: Json) => l.relation === 'next')?.url as string | undefined;
    if (!next) return null;
    const raw = new URL(next).searchParams.get('_cursor')!;
    return JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as unknown[];
  }
  const encode = (v: unknown) => Buffer.from(JSON.stringify(v), 'utf8').toString('base64url');

  it.each(['99999999999999999999', '1e309', '1001', '1000000', '-1', '2.5', '0x10', ' 5', '5 OR 1=1', ''])(
    '_count=%s is 400, never 500',
    async (count) => {
      for (const type of TYPES) {
        figures.paging++;
        expectBadRequest(await fhir(`/${type}?_count=${encodeURIComponent(count)}`, tokenA), '_count', `${type} _count=${count}`);
      }
    },
  );

  it('refuses garbage and forged cursors with 400 and never serves B through one', async () => {
    const garbage = [
      'x',
      '%%%',
      "' OR 1=1 --",
      encode('no es una lista'),
      encode([]),
      encode([[[[[[[[[[[]]]]]]]]]]]),
      Buffer.from('['.repeat(50_000) + ']'.repeat(50_000))
        .toString('base64url')
        .slice(0, 6000),
      encode({ sort: 'date', id: 1 }),
      encode(['otro-orden', 1]),
      'A'.repeat(6000),
    ];
    // Every 5xx is listed at the end, so one run names them all.
    const failures: string[] = [];
    for (const type of TYPES) {
      for (const cursor of garbage) {
        figures.paging++;
        expectBadRequest(
          await fhir(`/${type}?_cursor=${encodeURIComponent(cursor)}`, tokenA),
          '_cursor',
          `${type} _cursor=${cursor.slice(0, 30)}`,
        );
      }
      // The server's own shape with hostile keys: each is refused, or pages within A only.
      const real = await realCursor(type);
      if (!real) continue;
      const forged = (k: unknown) => encode([real[0], ...real.slice(1).map(() => k)]);
      const keys: unknown[] = [
        "' OR 1=1 --",
        '1',
        '-271821-04-20T00:00:00.000Z',
        '+275760-09-13T00:00:00.000Z',
        '9999-12-31T23:59:59.999Z',
        -1,
        0,
        2_147_483_648,
        Number.MAX_SAFE_INTEGER,
        1.5,
        null,
        true,
        [1],
        { a: 1 },
      ];
      for (const k of keys) {
        figures.paging++;
        const res = await fhir(`/${type}?_count=5&_cursor=${forged(k)}`, tokenA);
        const label = `${type} cursor key ${JSON.stringify(k)}`;
        if (res.status >= 500) {
          failures.push(`${label}: ${res.status}`);
          continue;
        }
        if (res.status === 400) {
          expectBadRequest(res, '_cursor', label);
          continue;
        }
        expect(res.status, `${label}: ${res.text}`).toBe(200);
        expect(
          matchRefs(body(res), type).filter((id) => bResources.has(id)),
          label,
        ).toEqual([]);
      }
      // B's own cursor in A's hands pages A's rows only.
      const fromB = await realCursor(type, tokenB);
      if (fromB) {
        const res = await fhir(`/${type}?_count=1000&_cursor=${encode(fromB)}`, tokenA);
        expect(res.status).toBeLessThan(500);
        if (res.status === 200) expect(matchRefs(body(res), type).filter((id) => bResources.has(id))).toEqual([]);
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers repeated parameters with 400 or a Bundle, never 500', async () => {
    const repeated = (name: string, values: string[]) => values.map((v) => `${name}=${encodeURIComponent(v)}`).join('&');
    for (const type of TYPES) {
      const queries = [
        repeated('_count', ['1', '2']),
        repeated('_count', ['1', 'x']),
        repeated('_cursor', ['a', 'b']),
        repeated('_summary', ['count', 'false']),
        repeated('_total', ['accurate', 'none']),
        repeated('_format', ['json', 'xml']),
        ...SEARCH_TYPES[type].map((p) =>
          repeated(
            p.name,
            Array.from({ length: 300 }, (_, i) => (i % 2 ? `p${i}` : `${i}`)),
          ),
        ),
        ...SEARCH_TYPES[type].map((p) => repeated(p.name, ['ge2026-01-01', 'le2026-12-31', 'gt2026-06-01', 'lt2026-07-01'])),
      ];
      for (const q of queries) {
        figures.paging++;
        const res = await fhir(`/${type}?${q}`, tokenA);
        const label = `${type}?${q.slice(0, 80)}`;
        expect(res.status, `${label}: ${res.text}`).toBeLessThan(500);
        expect([200, 400], label).toContain(res.status);
        const answer = body(res);
        expect(answer.resourceType, label).toBe(res.status === 200 ? 'Bundle' : 'OperationOutcome');
        if (res.status === 200)
          expect(
            matchRefs(answer, type).filter((id) => bResources.has(id)),
            label,
          ).toEqual([]);
      }
    }
  });
});
