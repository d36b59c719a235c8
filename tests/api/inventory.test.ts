import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestProduct, createOrg, bearer, type TestProduct, type Org } from '../support/product';
import { MESSAGES } from '@vigia/contract/rules/validation';

const NOW = new Date('2026-11-22T15:00:00Z');
let t: TestProduct;
let org: Org;
let other: Org;
let vaccine: { id: number };
let device: { id: number };
beforeAll(async () => {
  t = await startTestProduct({ now: () => NOW });
  org = await createOrg(t, 'Clinica Inventario');
  other = await createOrg(t, 'Clinica Ajena');
  vaccine = (
    await t.http
      .post('/api/v1/supplies')
      .set(bearer(org.tokens.admin))
      .send({ type: 'biologico', tradename: 'Vaxigrip Tetra', generic_name: 'Influenza', invima_register: 'INVIMA 2020M-0019' })
  ).body;
  device = (
    await t.http
      .post('/api/v1/supplies')
      .set(bearer(org.tokens.admin))
      .send({ type: 'dispositivo', tradename: 'Tensiómetro Omron HEM-7120' })
  ).body;
});
afterAll(() => t.stop());

let serialN = 0;
const serial = () => `LOTE${String(++serialN).padStart(12, '0')}`;
const stockBody = (o: Record<string, unknown> = {}) => ({
  type: 'biologico',
  serial: serial(),
  medical_supply_id: vaccine.id,
  expiration_date: '2027-06-30',
  cuantity: 10,
  ...o,
});
const admin = () => bearer(org.tokens.admin);

describe('supplies', () => {
  it('creates, lists by type, reads and edits a supply', async () => {
    const list = await t.http.get('/api/v1/supplies?type=biologico').set(bearer(org.tokens.consulta));
    expect(list.body.map((s: { tradename: string }) => s.tradename)).toEqual(['VAXIGRIP TETRA']);
    expect(list.body[0]).toMatchObject({ type_name: 'Biológico', generic_name: 'INFLUENZA', active: true });
    const search = await t.http.get('/api/v1/supplies?type=dispositivo&q=omron').set(bearer(org.tokens.consulta));
    expect(search.body).toHaveLength(1);
    const edited = await t.http.patch(`/api/v1/supplies/${device.id}`).set(admin()).send({ invima_register: 'INVIMA 2019DM-0001' });
    expect(edited.body.invima_register).toBe('INVIMA 2019DM-0001');
    expect((await t.http.get(`/api/v1/supplies/${device.id}`).set(bearer(org.tokens.consulta))).body.tradename).toBe(
      'TENSIÓMETRO OMRON HEM-7120',
    );
  });

  it.each([
    [{ tradename: 'Vacuna' }, 'type', MESSAGES.required],
    [{ type: 'biologico' }, 'tradename', MESSAGES.required],
    [{ type: 'biologico', tradename: 'Ab' }, 'tradename', 'Debe tener mínimo 3 caracteres'],
    [{ type: 'biologico', tradename: 'Sin tipo' }, 'generic_name', MESSAGES.required],
    [
      { type: 'jeringa', tradename: 'Jeringa' },
      'type',
      'Valor no permitido. Opciones: Biológico, Dispositivo, Medicamento, Insumo médico.',
    ],
  ])('refuses %j with 400 on %s', async (body, field, message) => {
    const res = await t.http.post('/api/v1/supplies').set(admin()).send(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field, message });
  });
});

describe('stocks', () => {
  it('creates a batch whose initial quantity is an entry move; Biológico forces batch on', async () => {
    const res = await t.http
      .post('/api/v1/stocks')
      .set(admin())
      .send(stockBody({ serial: 'abcd1234efgh5678', batch: false }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      serial: 'ABCD1234EFGH5678',
      type: 'biologico',
      type_name: 'Biológico',
      batch: true,
      cuantity: 10,
      active: true,
      status_name: 'Activo',
      medical_supply_name: 'VAXIGRIP TETRA',
      generic_name: 'INFLUENZA',
      expiration_date: '2027-06-30',
      formated_expiration_date: '30/06/2027',
      expired: false,
    });
    const moves = await t.http.get(`/api/v1/moves?stock_id=${res.body.id}`).set(admin());
    expect(moves.body).toMatchObject([
      { type: 'entrada', type_name: 'Entrada', amount: 10, serial: 'ABCD1234EFGH5678', notes: 'Cantidad inicial' },
    ]);
    const detail = await t.http.get(`/api/v1/stocks/${res.body.id}`).set(bearer(org.tokens.consulta));
    expect(detail.body.cuantity).toBe(10);
  });

  it('creates a device reference without batch', async () => {
    const res = await t.http
      .post('/api/v1/stocks')
      .set(admin())
      .send({ type: 'dispositivo', serial: serial(), medical_supply_id: device.id, expiration_date: '2030-01-01', batch: false });
    expect(res.body).toMatchObject({ batch: false, cuantity: 0, medical_supply_name: 'TENSIÓMETRO OMRON HEM-7120' });
  });

  it.each([
    [{ serial: 'CORTO123' }, 'serial', MESSAGES.serial],
    [{ serial: 'ABCD-234EFGH5678' }, 'serial', MESSAGES.serial],
    [{ expiration_date: '2026-11-21' }, 'expiration_date', MESSAGES.expirationPast],
    [{ expiration_date: undefined }, 'expiration_date', MESSAGES.required],
    [{ medical_supply_id: undefined }, 'medical_supply_id', MESSAGES.required],
    [{ type: 'dispositivo', medical_supply_id: null }, 'medical_supply_id', MESSAGES.required],
    [{ cuantity: -1 }, 'cuantity', '¡Ingrese solo números'],
    [{ cuantity: 123456789 }, 'cuantity', '¡Ingrese solo números'],
    [{ type: 'dispositivo' }, 'medical_supply_id', 'El insumo elegido no es de tipo Dispositivo.'],
  ])('refuses %j with 400 on %s', async (overrides, field, message) => {
    const res = await t.http.post('/api/v1/stocks').set(admin()).send(stockBody(overrides));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field, message });
  });

  it("an expiry of today is accepted (the client's zone decides what today is)", async () => {
    expect(
      (
        await t.http
          .post('/api/v1/stocks')
          .set(admin())
          .send(stockBody({ expiration_date: '2026-11-22' }))
      ).status,
    ).toBe(201);
  });

  it("refuses a repeated serial with 409 and another client's supply with 400", async () => {
    const first = (await t.http.post('/api/v1/stocks').set(admin()).send(stockBody())).body;
    const dup = await t.http
      .post('/api/v1/stocks')
      .set(admin())
      .send(stockBody({ serial: first.serial }));
    expect(dup.status).toBe(409);
    expect(dup.body.field).toBe('serial');
    const foreign = await t.http.post('/api/v1/stocks').set(bearer(other.tokens.admin)).send(stockBody());
    expect(foreign.body).toMatchObject({ field: 'medical_supply_id', message: 'El insumo no existe.' });
  });

  it('edits a batch but never its quantity; an inactive batch shows Inactivo', async () => {
    const s = (await t.http.post('/api/v1/stocks').set(admin()).send(stockBody())).body;
    const qty = await t.http.patch(`/api/v1/stocks/${s.id}`).set(admin()).send({ cuantity: 500 });
    expect(qty.status).toBe(400);
    expect(qty.body.field).toBe('cuantity');
    const off = await t.http.put(`/api/v1/stocks/${s.id}`).set(admin()).send({ active: false, expiration_date: '2028-01-31' });
    expect(off.body).toMatchObject({ active: false, status_name: 'Inactivo', expiration_date: '2028-01-31', cuantity: 10 });
    const past = await t.http.patch(`/api/v1/stocks/${s.id}`).set(admin()).send({ expiration_date: '2025-01-01' });
    expect(past.body).toMatchObject({ field: 'expiration_date', message: MESSAGES.expirationPast });
  });

  it('lists with paging, filters and serial search', async () => {
    const res = await t.http.get('/api/v1/stocks?_start=0&_end=2&type=biologico&_sort=serial&_order=desc').set(bearer(org.tokens.consulta));
    expect(res.status).toBe(200);
    expect(Number(res.headers['x-total-count'])).toBeGreaterThan(2);
    expect(res.body).toHaveLength(2);
    expect(res.body[0].serial > res.body[1].serial).toBe(true);
    const q = await t.http.get('/api/v1/stocks?q=abcd1234').set(bearer(org.tokens.consulta));
    expect(q.body.map((s: { serial: string }) => s.serial)).toEqual(['ABCD1234EFGH5678']);
  });

  it.each(['medico', 'enfermeria', 'consulta'] as const)('refuses inventory writes by %s with 403 and changes nothing', async (role) => {
    const s = (await t.http.post('/api/v1/stocks').set(admin()).send(stockBody())).body;
    const h = bearer(org.tokens[role]);
    expect((await t.http.post('/api/v1/stocks').set(h).send(stockBody())).status).toBe(403);
    expect((await t.http.patch(`/api/v1/stocks/${s.id}`).set(h).send({ active: false })).status).toBe(403);
    expect((await t.http.post('/api/v1/supplies').set(h).send({ type: 'insumo', tradename: 'Gasas' })).status).toBe(403);
    expect((await t.http.put(`/api/v1/supplies/${device.id}`).set(h).send({ active: false })).status).toBe(403);
    expect((await t.http.post('/api/v1/moves').set(h).send({ type: 'salida', amount: 1, stock_id: s.id })).status).toBe(403);
    expect((await t.http.get(`/api/v1/stocks/${s.id}`).set(h)).body).toMatchObject({ cuantity: 10, active: true });
  });

  it("answers 404 for another client's stock, supply and its applications", async () => {
    const s = (await t.http.post('/api/v1/stocks').set(admin()).send(stockBody())).body;
    const h = bearer(other.tokens.admin);
    expect((await t.http.get(`/api/v1/stocks/${s.id}`).set(h)).status).toBe(404);
    expect((await t.http.patch(`/api/v1/stocks/${s.id}`).set(h).send({ active: false })).status).toBe(404);
    expect((await t.http.get(`/api/v1/stocks/${s.id}/applications`).set(h)).status).toBe(404);
    expect((await t.http.get(`/api/v1/supplies/${vaccine.id}`).set(h)).status).toBe(404);
    expect((await t.http.get('/api/v1/stocks').set(h)).headers['x-total-count']).toBe('0');
    const move = await t.http.post('/api/v1/moves').set(h).send({ type: 'salida', amount: 1, stock_id: s.id });
    expect(move.body).toMatchObject({ field: 'stock_id', message: 'El lote no existe.' });
  });
});

describe('moves', () => {
  it('an entry adds and an exit subtracts, in the same transaction as the move', async () => {
    const s = (
      await t.http
        .post('/api/v1/stocks')
        .set(admin())
        .send(stockBody({ cuantity: 5 }))
    ).body;
    const entry = await t.http
      .post('/api/v1/moves')
      .set(admin())
      .send({ move: { type: 'entrada', amount: 7, stock_id: s.id, notes: 'Compra' } });
    expect(entry.status).toBe(201);
    expect(entry.body).toMatchObject({ type: 'entrada', amount: 7, cuantity_after: 12, notes: 'Compra', author: org.users.admin.id });
    expect(entry.body.author_name).toMatch(/ana/i);
    const exit = await t.http.post('/api/v1/moves').set(admin()).send({ type: 'salida', amount: 12, stock_id: s.id });
    expect(exit.body.cuantity_after).toBe(0);
    expect((await t.http.get(`/api/v1/stocks/${s.id}`).set(admin())).body.cuantity).toBe(0);
  });

  it('refuses a move that would leave the batch negative, with a clear Spanish message, and stores nothing', async () => {
    const s = (
      await t.http
        .post('/api/v1/stocks')
        .set(admin())
        .send(stockBody({ cuantity: 3 }))
    ).body;
    const res = await t.http.post('/api/v1/moves').set(admin()).send({ type: 'salida', amount: 4, stock_id: s.id });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      field: 'amount',
      message: `No hay unidades suficientes en el lote ${s.serial}: hay 3 disponible(s) y se pidieron 4. El stock no puede quedar en negativo.`,
    });
    expect((await t.http.get(`/api/v1/stocks/${s.id}`).set(admin())).body.cuantity).toBe(3);
    expect((await t.http.get(`/api/v1/moves?stock_id=${s.id}`).set(admin())).body).toHaveLength(1);
  });

  it('never oversells under concurrent exits', async () => {
    const s = (
      await t.http
        .post('/api/v1/stocks')
        .set(admin())
        .send(stockBody({ cuantity: 5 }))
    ).body;
    const results = await Promise.all(
      Array.from({ length: 12 }, () => t.http.post('/api/v1/moves').set(admin()).send({ type: 'salida', amount: 1, stock_id: s.id })),
    );
    const ok = results.filter((r) => r.status === 201).length;
    expect(results.filter((r) => r.status === 400).every((r) => /no puede quedar en negativo/.test(r.body.message))).toBe(true);
    expect(ok).toBe(5);
    const after = (await t.http.get(`/api/v1/stocks/${s.id}`).set(admin())).body.cuantity;
    expect(after).toBe(5 - ok);
    expect(after).toBeGreaterThanOrEqual(0);
    const exits = (await t.http.get(`/api/v1/moves?stock_id=${s.id}&type=salida`).set(admin())).headers['x-total-count'];
    expect(Number(exits)).toBe(ok);
  });

  it.each([
    [{ type: 'salida', stock_id: 1 }, 'amount', MESSAGES.required],
    [{ type: 'salida', amount: 0, stock_id: 1 }, 'amount', '¡Ingrese solo números'],
    [{ type: 'salida', amount: 1.5, stock_id: 1 }, 'amount', 'Debe ser un número entero.'],
    [{ amount: 1, stock_id: 1 }, 'type', MESSAGES.required],
    [{ type: 'aplicacion', amount: 1, stock_id: 1 }, 'type', 'Valor no permitido. Opciones: Entrada, Salida.'],
    [{ type: 'salida', amount: 1 }, 'stock_id', MESSAGES.required],
  ])('refuses %j with 400 on %s', async (body, field, message) => {
    const res = await t.http.post('/api/v1/moves').set(admin()).send(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field, message });
  });

  it('refuses moves on an inactive batch', async () => {
    const s = (
      await t.http
        .post('/api/v1/stocks')
        .set(admin())
        .send(stockBody({ active: false }))
    ).body;
    const res = await t.http.post('/api/v1/moves').set(admin()).send({ type: 'entrada', amount: 1, stock_id: s.id });
    expect(res.body).toMatchObject({
      field: 'stock_id',
      message: `El lote ${s.serial} está inactivo; actívelo antes de registrar movimientos.`,
    });
  });

  it("filters by dates in the client's zone, serial prefix and type", async () => {
    const s = (
      await t.http
        .post('/api/v1/stocks')
        .set(admin())
        .send(stockBody({ serial: 'FILTRO0000000001', cuantity: 2 }))
    ).body;
    await t.http.post('/api/v1/moves').set(admin()).send({ type: 'salida', amount: 1, stock_id: s.id });
    const today = await t.http.get('/api/v1/moves?date1=2026-11-22&date2=2026-11-22&serial=filtro').set(admin());
    expect(today.body.map((m: { type: string }) => m.type)).toEqual(['salida', 'entrada']);
    const typed = await t.http.get('/api/v1/moves?serial=FILTRO&type=entrada').set(admin());
    expect(typed.body).toHaveLength(1);
    const yesterday = await t.http.get('/api/v1/moves?date2=2026-11-21&serial=FILTRO').set(admin());
    expect(yesterday.body).toHaveLength(0);
    const bad = await t.http.get('/api/v1/moves?date1=22-11-2026').set(admin());
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('date1');
  });
});
