import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import axios, { type AxiosError, type AxiosInstance } from 'axios';
import simpleRest from '@refinedev/simple-rest';
import type { BaseRecord, CrudFilter, CrudSort } from '@refinedev/core';
import { derefSchema, type OpenApiOperation } from '@vigia/contract/rules/schema';
import { loadContract } from '../../api/src/http/contract';
import { startTestProduct, createOrg, bearer, patientBody, BOGOTA, type TestProduct, type Org } from '../support/product';

/**
 * D3: Refine's stock `@refinedev/simple-rest` provider, unmodified, against the catalogue resources
 * (admin/src/resources/registry.tsx) of a real API on a loopback port: getList (pages, filters eq / ne /
 * contains / gte / lte, two-column sort), getMany, and getOne / create / update / deleteOne where the
 * contract has them. Every list also pages with page/per_page (02 §7), and an undeclared parameter is
 * a 400 in Spanish that names it (issue 18).
 */

const NOW = new Date('2026-11-21T15:00:00Z');
let t: TestProduct;
let org: Org;
let other: Org;
let server: Server;
let apiUrl: string;
let http: AxiosInstance;
let rest: ReturnType<typeof simpleRest>;
let patientId: number;
let stockId: number;

type Row = BaseRecord & Record<string, unknown>;

beforeAll(async () => {
  t = await startTestProduct({ now: () => NOW });
  org = await createOrg(t, 'Clinica Simple Rest');
  other = await createOrg(t, 'Clinica Vecina');
  server = t.app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  http = axios.create({ headers: bearer(org.tokens.admin) });
  // A refused call says what the API answered.
  http.interceptors.response.use(undefined, (e: AxiosError) =>
    Promise.reject(Object.assign(e, { message: `${e.config?.url} ${e.message}: ${JSON.stringify(e.response?.data)}` })),
  );
  rest = simpleRest(apiUrl, http);
  patientId = (await t.http.post('/api/v1/patients').set(bearer(org.tokens.admin)).send(patientBody())).body.id;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await t.stop();
});

const all = async (resource: string, filters: CrudFilter[] = [], sorters: CrudSort[] = []) =>
  rest.getList({ resource, pagination: { currentPage: 1, pageSize: 100 }, filters, sorters });

/** What one resource's list is checked with: a text field, an ordered field, an enumeration to sort by. */
interface ListCase {
  resource: string;
  text: string;
  /** A part of some record's `text` value, in other capitals. */
  part: string;
  range: string;
  group: string;
}

/** Each operator's answer is compared with the same selection made here from the whole list. */
async function checkList(c: ListCase) {
  const { data: everything, total } = await all(c.resource);
  expect(everything.length).toBeGreaterThanOrEqual(3);
  expect(total).toBe(everything.length);
  const ids = (rows: Row[]) => rows.map((r) => r.id);
  const ofOther = await axios.get(`${apiUrl}/${c.resource}`, { headers: bearer(other.tokens.admin) });
  const othersIds = new Set((ofOther.data as Row[]).map((r) => r.id));

  // Pages: simple-rest's _start/_end, two rows at a time, cover the list once in its order.
  const pages: Row[] = [];
  for (let currentPage = 1; currentPage <= Math.ceil(total / 2); currentPage++) {
    const page = await rest.getList({ resource: c.resource, pagination: { currentPage, pageSize: 2 } });
    expect(page.total).toBe(total);
    expect(page.data.length).toBeLessThanOrEqual(2);
    pages.push(...(page.data as Row[]));
  }
  expect(ids(pages)).toEqual(ids(everything as Row[]));

  // eq, ne, contains on the text field.
  const value = (everything as Row[]).find((r) => r[c.text] != null)![c.text];
  const eq = await all(c.resource, [{ field: c.text, operator: 'eq', value }]);
  expect(eq.data.length).toBeGreaterThan(0);
  expect(eq.data.every((r) => r[c.text] === value)).toBe(true);
  expect(ids(eq.data as Row[])).toEqual(ids((everything as Row[]).filter((r) => r[c.text] === value)));
  const ne = await all(c.resource, [{ field: c.text, operator: 'ne', value }]);
  expect(ids(ne.data as Row[])).toEqual(ids((everything as Row[]).filter((r) => r[c.text] !== value)));
  expect(ne.total + eq.total).toBe(total);
  const contains = await all(c.resource, [{ field: c.text, operator: 'contains', value: c.part }]);
  const containing = (everything as Row[]).filter((r) =>
    String(r[c.text] ?? '')
      .toLowerCase()
      .includes(c.part.toLowerCase()),
  );
  expect(containing.length).toBeGreaterThan(0);
  expect(containing.length).toBeLessThan(total);
  expect(ids(contains.data as Row[])).toEqual(ids(containing));

  // gte, lte, and both, on the ordered field (its middle value).
  const values = (everything as Row[]).map((r) => r[c.range] as number | string).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const middle = values[Math.floor(values.length / 2)];
  const gte = await all(c.resource, [{ field: c.range, operator: 'gte', value: middle }]);
  expect(ids(gte.data as Row[])).toEqual(ids((everything as Row[]).filter((r) => (r[c.range] as typeof middle) >= middle)));
  const lte = await all(c.resource, [{ field: c.range, operator: 'lte', value: middle }]);
  expect(ids(lte.data as Row[])).toEqual(ids((everything as Row[]).filter((r) => (r[c.range] as typeof middle) <= middle)));
  expect(gte.total).toBeLessThan(total + 1);
  const both = await all(c.resource, [
    { field: c.range, operator: 'gte', value: middle },
    { field: c.range, operator: 'lte', value: middle },
  ]);
  expect(both.data.length).toBeGreaterThan(0);
  expect(both.data.every((r) => r[c.range] === middle)).toBe(true);

  // Two sort columns: the enumeration ascending, then id descending.
  const sorted = await all(
    c.resource,
    [],
    [
      { field: c.group, order: 'asc' },
      { field: 'id', order: 'desc' },
    ],
  );
  const expected = [...(everything as Row[])].sort((a, b) =>
    a[c.group] === b[c.group] ? (b.id as number) - (a.id as number) : (a[c.group] as string) < (b[c.group] as string) ? -1 : 1,
  );
  expect(ids(sorted.data as Row[])).toEqual(ids(expected));
  expect(new Set((everything as Row[]).map((r) => r[c.group])).size).toBeGreaterThan(1);
  const reversed = await all(
    c.resource,
    [],
    [
      { field: c.group, order: 'desc' },
      { field: 'id', order: 'asc' },
    ],
  );
  expect(ids(reversed.data as Row[])).toEqual(ids(expected).reverse());

  // getMany: exactly the ids asked for, never another client's.
  const wanted = [everything[0].id!, everything[everything.length - 1].id!];
  const many = await rest.getMany!({ resource: c.resource, ids: [...wanted, ...[...othersIds].slice(0, 1)] as number[] });
  expect(ids(many.data as Row[]).sort()).toEqual([...wanted].sort());
  expect(many.data).toEqual(expect.arrayContaining([everything[0], everything[everything.length - 1]]));
  return everything as Row[];
}

describe('@refinedev/simple-rest against the catalogue resources (D3)', () => {
  it('tags: create, list, getMany, getOne, update, deleteOne', async () => {
    for (const [name, color] of [
      ['alfa uno', 'red'],
      ['beta dos', 'blue'],
      ['alfa tres', 'red'],
      ['gama', 'amber'],
    ]) {
      const { data } = await rest.create({ resource: 'tags', variables: { name, color } });
      expect(data).toMatchObject({ name: name.toUpperCase(), color, patients_count: 0 });
    }
    await axios.post(`${apiUrl}/tags`, { name: 'ajena', color: 'red' }, { headers: bearer(other.tokens.admin) });
    const rows = await checkList({ resource: 'tags', text: 'name', part: 'Alf', range: 'id', group: 'color' });
    expect(rows.map((r) => r.name).sort()).toEqual(['ALFA TRES', 'ALFA UNO', 'BETA DOS', 'GAMA']);

    const beta = rows.find((r) => r.name === 'BETA DOS')!;
    expect((await rest.getOne({ resource: 'tags', id: beta.id! })).data).toEqual(beta);
    const updated = await rest.update({ resource: 'tags', id: beta.id!, variables: { color: 'pink' } });
    expect(updated.data).toMatchObject({ id: beta.id, name: 'BETA DOS', color: 'pink' });
    expect((await rest.getOne({ resource: 'tags', id: beta.id! })).data).toMatchObject({ color: 'pink' });
    await rest.deleteOne({ resource: 'tags', id: beta.id! });
    await expect(rest.getOne({ resource: 'tags', id: beta.id! })).rejects.toMatchObject({ response: { status: 404 } });
    expect((await all('tags')).total).toBe(3);
  });

  it('users: create, list, getMany, getOne, update', async () => {
    for (const [first, role] of [
      ['beatriz', 'medico'],
      ['camilo', 'consulta'],
    ]) {
      const { data } = await rest.create({
        resource: 'users',
        variables: {
          first_name: first,
          last_name: 'rest prueba',
          email: `${first}@prueba.co`,
          password: 'Segura@2026',
          password_confirmation: 'Segura@2026',
          cellphone: '3001112233',
          prefix: '+57',
          country_id: 26,
          city_id: BOGOTA,
          role_name: role,
        },
      });
      expect(data).toMatchObject({ first_name: first.toUpperCase(), email: `${first}@prueba.co`, role_name: role });
    }
    const rows = await checkList({ resource: 'users', text: 'email', part: 'PRUEBA.co', range: 'id', group: 'role_name' });
    expect(rows).toHaveLength(6);
    const camilo = rows.find((r) => r.email === 'camilo@prueba.co')!;
    expect((await rest.getOne({ resource: 'users', id: camilo.id! })).data).toEqual(camilo);
    const updated = await rest.update({ resource: 'users', id: camilo.id!, variables: { last_name: 'otra prueba' } });
    expect(updated.data).toMatchObject({ id: camilo.id, last_name: 'OTRA PRUEBA' });
    expect((await rest.getOne({ resource: 'users', id: camilo.id! })).data).toMatchObject({ last_name: 'OTRA PRUEBA' });
  });

  it('alarms: create, list, getMany, getOne, update, deleteOne', async () => {
    for (const [name, priority, min] of [
      ['Fiebre alta', 1, 38],
      ['Fiebre leve', 2, 37.5],
      ['Pulso alto', 3, 100],
      ['Pulso bajo', 1, 40],
    ] as const) {
      const { data } = await rest.create({
        resource: 'alarms',
        variables: { name, clinical_element: 1, priority, minimum_condition: min, maximum_condition: min + 10 },
      });
      expect(data).toMatchObject({ name, priority, minimum_condition: min, maximum_condition: min + 10 });
    }
    const rows = await checkList({ resource: 'alarms', text: 'name', part: 'FIEBRE', range: 'minimum_condition', group: 'priority' });
    const leve = rows.find((r) => r.name === 'Fiebre leve')!;
    expect((await rest.getOne({ resource: 'alarms', id: leve.id! })).data).toEqual(leve);
    const updated = await rest.update({ resource: 'alarms', id: leve.id!, variables: { name: 'Fiebre moderada' } });
    expect(updated.data).toMatchObject({ id: leve.id, name: 'Fiebre moderada', priority: 2 });
    await rest.deleteOne({ resource: 'alarms', id: leve.id! });
    await expect(rest.getOne({ resource: 'alarms', id: leve.id! })).rejects.toMatchObject({ response: { status: 404 } });
  });

  it('supplies: create, list, getMany, getOne, update', async () => {
    for (const [type, tradename, date] of [
      ['dispositivo', 'Tensiómetro Omron', '2020-01-15'],
      ['insumo', 'Gasa estéril', '2021-06-01'],
      ['dispositivo', 'Glucómetro Accu', '2022-03-10'],
      ['medicamento', 'Acetaminofén', '2019-11-30'],
    ]) {
      const { data } = await rest.create({ resource: 'supplies', variables: { type, tradename, date_register: date } });
      expect(data).toMatchObject({ type, tradename: tradename.toUpperCase(), date_register: date, active: true });
    }
    const rows = await checkList({ resource: 'supplies', text: 'tradename', part: 'metro', range: 'date_register', group: 'type' });
    const gasa = rows.find((r) => r.tradename === 'GASA ESTÉRIL')!;
    expect((await rest.getOne({ resource: 'supplies', id: gasa.id! })).data).toEqual(gasa);
    const updated = await rest.update({ resource: 'supplies', id: gasa.id!, variables: { active: false } });
    expect(updated.data).toMatchObject({ id: gasa.id, active: false });
    const inactive = await all('supplies', [{ field: 'active', operator: 'eq', value: false }]);
    expect(inactive.data.map((r) => r.id)).toEqual([gasa.id]);
  });

  it('stocks: create, list, getMany, getOne, update', async () => {
    for (const [serial, type, cuantity] of [
      ['LOTEA00000000001', 'insumo', 5],
      ['LOTEA00000000002', 'dispositivo', 12],
      ['LOTEB00000000003', 'insumo', 30],
      ['LOTEB00000000004', 'medicamento', 1],
    ] as const) {
      // A device or a medicine batch names its supply (the ones created above).
      const supply = type === 'insumo' ? undefined : (await all('supplies', [{ field: 'type', operator: 'eq', value: type }])).data[0];
      const { data } = await rest.create({
        resource: 'stocks',
        variables: { serial, type, cuantity, expiration_date: '2027-06-30', medical_supply_id: supply?.id },
      });
      expect(data).toMatchObject({ serial, type, cuantity, expiration_date: '2027-06-30', medical_supply_id: supply?.id ?? null });
    }
    const rows = await checkList({ resource: 'stocks', text: 'serial', part: 'loteb', range: 'cuantity', group: 'type' });
    stockId = rows.find((r) => r.serial === 'LOTEA00000000002')!.id as number;
    expect((await rest.getOne({ resource: 'stocks', id: stockId })).data).toEqual(rows.find((r) => r.id === stockId));
    const updated = await rest.update({ resource: 'stocks', id: stockId, variables: { expiration_date: '2028-01-31' } });
    expect(updated.data).toMatchObject({ id: stockId, expiration_date: '2028-01-31' });
  });

  it('moves: create, list, getMany', async () => {
    expect(stockId).toBeGreaterThan(0);
    for (const [type, amount, notes] of [
      ['entrada', 7, 'Compra de enero'],
      ['salida', 3, 'Daño en bodega'],
      ['entrada', 20, 'Compra de marzo'],
    ] as const) {
      const { data } = await rest.create({ resource: 'moves', variables: { type, amount, notes, stock_id: stockId } });
      expect(data).toMatchObject({ type, amount, notes, stock_id: stockId, serial: 'LOTEA00000000002' });
    }
    // The stock's creation with 12 units is its first move (notes null).
    const rows = await checkList({ resource: 'moves', text: 'notes', part: 'COMPRA', range: 'amount', group: 'type' });
    expect(rows.filter((r) => r.stock_id === stockId).map((r) => r.amount)).toEqual([20, 3, 7, 12]);
  });

  it('orders: list, getMany (orders are created under their patient)', async () => {
    const bodies = [
      { order_type: 0, clinical_element: 1, frequency_type: 0, hours: ['08:00'], during: 3 },
      { order_type: 1, medicine_id: 17, frecuency: 8, time_unit: 0, during: 2, amount: '1', medication_unit: 3 },
      { order_type: 0, clinical_element: 7, frequency_type: 0, hours: ['09:00', '21:00'], during: 5 },
    ];
    for (const order of bodies) {
      const res = await t.http.post(`/api/v1/patients/${patientId}/orders`).set(bearer(org.tokens.admin)).send(order);
      expect(res.status).toBe(201);
    }
    const rows = await checkList({ resource: 'orders', text: 'to_human', part: 'medir', range: 'id', group: 'order_type' });
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => (r.patient as { id: number }).id === patientId)).toBe(true);
  });

  it('api_clients: create, list, getMany, getOne, update, deleteOne', async () => {
    const jwks = { keys: [{ kty: 'EC', crv: 'P-384', kid: 'k', x: 'AAAA', y: 'BBBB' }] };
    for (const [name, status] of [
      ['HIS Hospital Central', 'active'],
      ['HIS Clínica Norte', 'suspended'],
      ['Analítica Aseguradora', 'active'],
      ['Sistema del Ministerio', 'active'],
    ] as const) {
      const { data } = await rest.create({ resource: 'api_clients', variables: { name, jwks, scopes: ['system/*.rs'], status } });
      expect(data).toMatchObject({ name, status, scopes: ['system/*.rs'], last_token_at: null });
    }
    const rows = await checkList({ resource: 'api_clients', text: 'name', part: 'his', range: 'id', group: 'status' });
    const norte = rows.find((r) => r.name === 'HIS Clínica Norte')!;
    expect((await rest.getOne({ resource: 'api_clients', id: norte.id! })).data).toEqual(norte);
    const updated = await rest.update({ resource: 'api_clients', id: norte.id!, variables: { status: 'active' } });
    expect(updated.data).toMatchObject({ id: norte.id, client_id: norte.client_id, status: 'active' });
    await rest.deleteOne({ resource: 'api_clients', id: norte.id! });
    await expect(rest.getOne({ resource: 'api_clients', id: norte.id! })).rejects.toMatchObject({ response: { status: 404 } });
  });
});

describe('list parameters every list shares', () => {
  const { doc } = loadContract();
  const pagedLists = Object.entries(doc.paths).flatMap(([path, item]) => {
    const op = (item as Record<string, OpenApiOperation>).get;
    const names = (op?.parameters ?? []).map((p) => derefSchema(doc, p)!.name);
    return op && names.includes('_start') ? [[`GET ${path}`, path, names] as const] : [];
  });

  it('finds the paged lists', () => expect(pagedLists.length).toBeGreaterThan(20));

  it.each(pagedLists)('%s declares page and per_page', (_n, _path, names) => {
    expect(names).toEqual(expect.arrayContaining(['page', 'per_page']));
  });

  it.each(['tags', 'users', 'alarms', 'supplies', 'stocks', 'moves', 'orders', 'api_clients'])(
    'GET /%s pages with page/per_page as with _start/_end',
    async (resource) => {
      const full = (await http.get(`${apiUrl}/${resource}`, { params: { _start: 0, _end: 100 } })).data as Row[];
      expect(full.length).toBeGreaterThanOrEqual(3);
      const second = await http.get(`${apiUrl}/${resource}`, { params: { page: 2, per_page: 2 } });
      expect(second.status).toBe(200);
      expect(second.headers['x-total-count']).toBe(String(full.length));
      expect((second.data as Row[]).map((r) => r.id)).toEqual(full.slice(2, 4).map((r) => r.id));
    },
  );

  it('other lists take page/per_page too (they answered 400 before)', async () => {
    for (const url of ['/patients', '/sms_outbox', '/medicines', '/audit_events', `/patients/${patientId}/orders`, '/activities']) {
      const res = await http.get(`${apiUrl}${url}`, { params: { page: 1, per_page: 1 }, validateStatus: () => true });
      expect(res.status, url).toBe(200);
      expect((res.data as unknown[]).length, url).toBeLessThanOrEqual(1);
    }
  });

  it('an undeclared parameter is a 400 in Spanish that names it', async () => {
    for (const [url, name] of [
      ['/tags?nombre=ALFA', 'nombre'],
      ['/users?name_like=ana', 'name_like'],
      ['/orders?patient_like=x', 'patient_like'],
      ['/stocks?status_name=Vencido', 'status_name'],
    ]) {
      const res = await http.get(`${apiUrl}${url}`, { validateStatus: () => true });
      expect(res.status, url).toBe(400);
      expect(res.data).toMatchObject({
        code: 'validation_error',
        field: name,
        message: `El parámetro '${name}' no está permitido en esta consulta.`,
      });
    }
  });

  it('refuses a sort field outside the whitelist, naming _sort', async () => {
    const res = await http.get(`${apiUrl}/tags`, { params: { _sort: 'name,patients_count' }, validateStatus: () => true });
    expect(res.status).toBe(400);
    expect(res.data.field).toMatch(/^_sort/);
    expect(res.data.message).toMatch(/Valor no permitido/);
  });

  it('binds filter values: SQL in a value is only text to compare', async () => {
    const res = await http.get(`${apiUrl}/tags`, { params: { name_like: "' OR 1=1 --", name: "x' OR '1'='1" } });
    expect(res.status).toBe(200);
    expect(res.data).toEqual([]);
    expect(res.headers['x-total-count']).toBe('0');
  });

  it('a day on a date-time field covers the whole day, in UTC', async () => {
    // created_at is the database's clock: the days around the rows' own.
    const { data, total } = await all('tags');
    const at = new Date(data[0].created_at as string);
    const day = (offset: number) => new Date(at.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
    expect(data.every((r) => String(r.created_at).startsWith(day(0)))).toBe(true);
    expect((await all('tags', [{ field: 'created_at', operator: 'lte', value: day(0) }])).total).toBe(total);
    expect((await all('tags', [{ field: 'created_at', operator: 'gte', value: day(0) }])).total).toBe(total);
    expect((await all('tags', [{ field: 'created_at', operator: 'gte', value: day(1) }])).total).toBe(0);
    expect((await all('tags', [{ field: 'created_at', operator: 'lte', value: `${day(-1)}T23:59:59Z` }])).total).toBe(0);
    expect((await all('tags', [{ field: 'created_at', operator: 'gte', value: `${day(-1)}T23:59:59Z` }])).total).toBe(total);
  });
});

/** The operators Refine's provider sends for a contract parameter's suffix. */
const REFINE_OPERATOR = { '': 'eq', _ne: 'ne', _gte: 'gte', _lte: 'lte', _like: 'contains' } as const;
const DAY = /^\d{4}-\d{2}-\d{2}/;

/**
 * Issue 40: the resources the engine serves (api/src/resources), every filter their list operation
 * declares, through Refine's provider: each answer is the selection made here from the whole list.
 * A `contains` on a date sends the beginning of one of the rows' dates (the period it names).
 */
describe('@refinedev/simple-rest: every declared filter and sort of the engine resources (issue 40)', () => {
  const { doc } = loadContract();
  const listParams = (resource: string) => {
    const op = (doc.paths as Record<string, Record<string, OpenApiOperation>>)[`/${resource}`].get;
    return (op.parameters ?? []).map((p) => derefSchema(doc, p) as { name: string; schema?: { items?: { enum?: string[] } } });
  };
  const key = (v: unknown) => (typeof v === 'number' ? v : String(v));
  const resources = ['tags', 'supplies', 'stocks', 'moves', 'alarms', 'users', 'api_clients'];
  // Orders are not on the engine yet; their list answers the same filters, dates included.
  const filtered = [...resources, 'orders'];
  let checked = 0;
  let narrowing = 0;

  beforeAll(async () => {
    // A biological names its generic: the supplies then have a generic_name to filter by.
    await rest.create({ resource: 'supplies', variables: { type: 'biologico', tradename: 'Vacuna Influenza', generic_name: 'influenza' } });
  });

  it.each(filtered)('%s: eq, ne, gte, lte and contains on every declared field', async (resource) => {
    const { data } = await all(resource);
    const rows = data as Row[];
    expect(rows.length).toBeGreaterThanOrEqual(3);
    const fields = new Set(Object.keys(rows[0]));
    for (const { name, schema } of listParams(resource)) {
      const m = /^(.+?)(_ne|_gte|_lte|_like)?$/.exec(name)!;
      const [field, suffix = ''] = [m[1], m[2]];
      if (!fields.has(field) || name.startsWith('_')) continue;
      const operator = REFINE_OPERATOR[suffix as keyof typeof REFINE_OPERATOR];
      const present = rows.filter((r) => r[field] != null);
      // A field no row fills yet (a move's encounter, an order's start) is asked for a value none has.
      if (!present.length && suffix === '_like') continue;
      const none = /date/i.test(JSON.stringify(schema ?? {})) ? '2000-01-01' : 1;
      const sample = present.length ? present[Math.floor(present.length / 2)][field] : none;
      const isDate = typeof sample === 'string' && DAY.test(sample);
      // contains: a piece of a text in other capitals; the year and month of a date (a day of a date-time).
      const value =
        operator !== 'contains'
          ? sample
          : isDate
            ? String(sample).slice(0, field === 'created_at' ? 10 : 7)
            : String(sample).slice(1, 4).toLowerCase();
      const wanted = rows.filter((r) => {
        const v = r[field];
        switch (operator) {
          case 'eq':
            return v === sample;
          case 'ne':
            return v !== sample;
          case 'gte':
            return v != null && key(v) >= key(sample);
          case 'lte':
            return v != null && key(v) <= key(sample);
          default:
            return isDate
              ? String(v ?? '').startsWith(String(value))
              : String(v ?? '')
                  .toLowerCase()
                  .includes(String(value));
        }
      });
      const answer = await all(resource, [{ field, operator, value } as CrudFilter]);
      expect(
        (answer.data as Row[]).map((r) => r.id),
        `${resource} ${name}=${String(value)}`,
      ).toEqual(wanted.map((r) => r.id));
      expect(answer.total).toBe(wanted.length);
      checked += 1;
      if (wanted.length < rows.length) narrowing += 1;
    }
  });

  it.each(resources)('%s: every sortable field, ascending and descending, through _sort/_order', async (resource) => {
    const sortable = listParams(resource).find((p) => p.name === '_sort')!.schema!.items!.enum!;
    const { data, total } = await all(resource);
    for (const field of sortable) {
      for (const order of ['asc', 'desc'] as const) {
        const sorted = await all(resource, [], [{ field, order }]);
        expect(sorted.total).toBe(total);
        // Where empty values go is each database's own (SQLite first, PostgreSQL last): the others' order is checked.
        const values = (sorted.data as Row[]).filter((r) => r[field] != null).map((r) => key(r[field]));
        const expected = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        expect(values, `${resource} _sort=${field}&_order=${order}`).toEqual(order === 'asc' ? expected : expected.reverse());
        expect(new Set((sorted.data as Row[]).map((r) => r.id))).toEqual(new Set((data as Row[]).map((r) => r.id)));
      }
    }
  });

  it('checked every declared filter, most of them narrowing the list', () => {
    expect(checked).toBeGreaterThan(60);
    expect(narrowing).toBeGreaterThan(checked / 2);
  });

  it.each([
    ['stocks', 'expiration_date_like', '06/2027'],
    ['stocks', 'expiration_date_like', '2027-02-30'],
    ['supplies', 'date_register_like', '2020-1-15'],
    ['moves', 'created_at_like', '2026-13'],
    ['tags', 'created_at_like', '2026-11-21T24'],
  ])('%s: a %s that is not the beginning of a date is a 400 naming it (%s)', async (resource, name, value) => {
    const res = await http.get(`${apiUrl}/${resource}`, { params: { [name]: value }, validateStatus: () => true });
    expect(res.status).toBe(400);
    expect(res.data).toMatchObject({ field: name, message: 'Escriba el comienzo de una fecha como AAAA, AAAA-MM o AAAA-MM-DD.' });
  });

  it('a date beginning with SQL in it is refused, not compared', async () => {
    const res = await http.get(`${apiUrl}/tags`, { params: { created_at_like: "2026' OR 1=1" }, validateStatus: () => true });
    expect(res.status).toBe(400);
    expect(res.data).toMatchObject({ code: 'validation_error', field: 'created_at_like' });
  });

  it.each([
    ['tags', { color: 'amber' }, { color: 'amber' }],
    ['supplies', { tradename: 'gasa estéril grande' }, { tradename: 'GASA ESTÉRIL GRANDE' }],
    ['stocks', { expiration_date: '2028-02-29' }, { expiration_date: '2028-02-29' }],
    ['alarms', { name: 'Pulso muy alto' }, { name: 'Pulso muy alto' }],
  ])('%s: update by PUT answers as by PATCH', async (resource, variables, expected) => {
    const { data } = await all(resource);
    const id = (data as Row[])[0].id!;
    const put = await rest.update({ resource, id, variables, meta: { method: 'put' } });
    expect(put.data).toMatchObject({ id, ...expected });
    expect((await rest.getOne({ resource, id })).data).toEqual(put.data);
  });
});
