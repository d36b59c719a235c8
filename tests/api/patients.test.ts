import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestProduct, createOrg, bearer, patientBody, BOGOTA, type TestProduct, type Org } from '../support/product';

let t: TestProduct;
let org: Org;
const now = new Date('2026-11-21T15:00:00Z');
beforeAll(async () => {
  t = await startTestProduct({ now: () => now });
  org = await createOrg(t, 'Clinica Pacientes');
});
afterAll(() => t.stop());

const create = (body: Record<string, unknown>, token = org.tokens.admin) => t.http.post('/api/v1/patients').set(bearer(token)).send(body);

describe('POST /api/v1/patients', () => {
  it('creates an active patient with upper-cased text, names resolved and permissions computed', async () => {
    const res = await create(patientBody({ nid: '52123456' }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      first_name: 'MARÍA JOSÉ',
      last_name: 'PÉREZ GÓMEZ',
      full_name: 'MARÍA JOSÉ PÉREZ GÓMEZ',
      id_type_name: 'Cédula de ciudadanía',
      country_name: 'Colombia',
      city_id: BOGOTA,
      city_name: 'Bogotá, D.C.',
      address: 'CALLE 45 # 12-30',
      email: 'maria.perez@example.co',
      status: 1,
      status_name: 'Activo',
      gender_name: 'Femenino',
      age: 76,
      time_zone: 'America/Bogota',
    });
    expect(res.body.permissions).toMatchObject({ edit: true, set_deceased: true, create_order: true });
  });

  it('makes a patient without complete contact data incomplete (2), and complete data activates it (D9)', async () => {
    const res = await create(patientBody({ nid: '52123457', email: null, address: null }));
    expect(res.body.status).toBe(2);
    const upd = await t.http
      .put(`/api/v1/patients/${res.body.id}`)
      .set(bearer(org.tokens.enfermeria))
      .send({ address: 'carrera 7 # 1-2', email: 'x@y.co' });
    expect(upd.status).toBe(200);
    expect(upd.body).toMatchObject({ status: 1, address: 'CARRERA 7 # 1-2', notification: { type: 'success' } });
  });

  it.each([
    [{ nid: '0123' }, 'nid', '¡El valor ingresado no es válido o está incompleto!'],
    [{ first_name: 'Ana3' }, 'first_name', 'Solo letras y espacios, entre 3 y 50 caracteres'],
    [{ cellphone: '300-12' }, 'cellphone', '¡Ingrese solo números y un máximo de 11 caracteres!'],
    [{ email: 'sin-arroba' }, 'email', '¡El formato de correo no es válido!'],
    [{ birth_date: '2026-11-22' }, 'birth_date', 'La fecha de nacimiento no puede ser futura'],
    [{ birth_date: '1889-12-31' }, 'birth_date', 'La fecha no es válida'],
    [{ gender: 7 }, 'gender', 'Valor no permitido. Opciones: Femenino, Masculino, Otro.'],
    [{ id_type: 16 }, 'id_type', 'El tipo de documento no corresponde al país.'],
    [{ city_id: 999999999 }, 'city_id', 'La ciudad no corresponde al país.'],
    [{ first_name: undefined }, 'first_name', '¡El campo es requerido!'],
    [{ extra: 1 }, 'extra', "El campo 'extra' no está permitido."],
    [{ country_id: 'x' }, 'country_id', 'Debe ser un número entero.'],
  ])('refuses %j with 400 on %s', async (override, field, message) => {
    const res = await create(patientBody(override));
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
    expect(res.body.message).toBe(message);
  });

  it('validates a Spanish DNI with its own regex', async () => {
    const spain = patientBody({ country_id: 8, id_type: 16, nid: '12345678z', city_id: null, prefix: '+34', time_zone: 'Europe/Madrid' });
    const res = await create(spain);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ nid: '12345678Z', time_zone: 'Europe/Madrid', status: 2 });
    expect((await create({ ...spain, nid: '1234567' })).body.field).toBe('nid');
  });

  it('accepts a body wrapped in {"patient": ...} (D21)', async () => {
    const res = await create({ patient: patientBody({ nid: '52123458' }) });
    expect(res.status).toBe(201);
  });

  it('refuses a duplicate document with 409', async () => {
    await create(patientBody({ nid: '52123459' }));
    const res = await create(patientBody({ nid: '52123459' }));
    expect(res.status).toBe(409);
    expect(res.body.field).toBe('nid');
  });

  it('does not let consulta create patients', async () => {
    const res = await create(patientBody({ nid: '52123460' }), org.tokens.consulta);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Su rol no permite realizar esta acción.');
  });
});

describe('GET /api/v1/patients', () => {
  beforeAll(async () => {
    for (const [nid, first, last] of [
      ['71000001', 'carlos', 'ruiz'],
      ['71000002', 'carla', 'ríos'],
      ['71000003', 'pedro', 'álvarez carlos'],
    ]) {
      await create(patientBody({ nid, first_name: first, last_name: last }));
    }
  });

  it('pages with _start/_end and reports X-Total-Count', async () => {
    const res = await t.http.get('/api/v1/patients?_start=0&_end=2&status=1').set(bearer(org.tokens.consulta));
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(2);
    expect(Number(res.headers['x-total-count'])).toBeGreaterThan(2);
    expect(res.headers['access-control-expose-headers']).toContain('X-Total-Count');
  });

  it('searches by the start of any name word, accents ignored', async () => {
    const res = await t.http.get('/api/v1/patients?q=carl').set(bearer(org.tokens.consulta));
    expect(res.body.map((p: { first_name: string }) => p.first_name).sort()).toEqual(['CARLA', 'CARLOS', 'PEDRO']);
    const rios = await t.http.get('/api/v1/patients?q=Rios').set(bearer(org.tokens.consulta));
    expect(rios.body.map((p: { last_name: string }) => p.last_name)).toEqual(['RÍOS']);
  });

  it("accepts a query encoded the browser's way (space as '+')", async () => {
    const res = await t.http.get('/api/v1/patients?q=pedro+alv').set(bearer(org.tokens.consulta));
    expect(res.status).toBe(200);
    expect(res.body.map((p: { first_name: string }) => p.first_name)).toEqual(['PEDRO']);
  });

  it('searches by document prefix', async () => {
    const res = await t.http.get('/api/v1/patients?q=7100000').set(bearer(org.tokens.consulta));
    expect(res.body).toHaveLength(3);
  });

  it('filters by tag', async () => {
    const tag = (await t.http.post('/api/v1/tags').set(bearer(org.tokens.admin)).send({ name: 'epoc', color: 'blue' })).body;
    const p = (await create(patientBody({ nid: '71000009', tag_ids: [tag.id] }))).body;
    const res = await t.http.get(`/api/v1/patients?tags=${tag.id}`).set(bearer(org.tokens.consulta));
    expect(res.body.map((x: { id: number }) => x.id)).toEqual([p.id]);
    expect(res.body[0].tags).toEqual([{ id: tag.id, name: 'EPOC', color: 'blue' }]);
  });

  it.each(['2147483648', '1,99999999999999999999'])(
    'refuses a tag id no column holds (tags=%s) with 400 on tags (issue 18)',
    async (tags) => {
      const res = await t.http.get(`/api/v1/patients?tags=${tags}`).set(bearer(org.tokens.consulta));
      expect(res.status).toBe(400);
      expect(res.body.field).toBe('tags');
    },
  );

  it('refuses an unknown sort field with 400', async () => {
    const res = await t.http.get('/api/v1/patients?_sort=password').set(bearer(org.tokens.consulta));
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('_sort');
  });
});

describe('PUT /api/v1/patients/:id', () => {
  it('inactivates and re-activates with change_status, but consulta gets 403', async () => {
    const p = (await create(patientBody({ nid: '81000001' }))).body;
    expect((await t.http.put(`/api/v1/patients/${p.id}`).set(bearer(org.tokens.consulta)).send({ status: 0 })).status).toBe(403);
    const off = await t.http.put(`/api/v1/patients/${p.id}`).set(bearer(org.tokens.enfermeria)).send({ status: 0 });
    expect(off.body.status).toBe(0);
    expect(off.body.permissions.create_order).toBe(false);
    const on = await t.http.patch(`/api/v1/patients/${p.id}`).set(bearer(org.tokens.enfermeria)).send({ status: 1 });
    expect(on.body.status).toBe(1);
  });

  it('lets only roles with set_deceased declare a death, and then refuses every change', async () => {
    const p = (await create(patientBody({ nid: '81000002' }))).body;
    expect((await t.http.put(`/api/v1/patients/${p.id}`).set(bearer(org.tokens.enfermeria)).send({ status: 3 })).status).toBe(403);
    const dead = await t.http.put(`/api/v1/patients/${p.id}`).set(bearer(org.tokens.medico)).send({ status: 3 });
    expect(dead.body.status).toBe(3);
    expect(dead.body.permissions).toMatchObject({ edit: false, change_status: false, get_reports: true });
    const after = await t.http.put(`/api/v1/patients/${p.id}`).set(bearer(org.tokens.admin)).send({ status: 1 });
    expect(after.status).toBe(403);
    expect(after.body.message).toBe('El paciente está registrado como fallecido; su ficha no admite cambios.');
    expect((await t.http.get(`/api/v1/patients/${p.id}`).set(bearer(org.tokens.admin))).body.status).toBe(3);
  });

  it('refuses an empty update', async () => {
    const p = (await create(patientBody({ nid: '81000003' }))).body;
    const res = await t.http.put(`/api/v1/patients/${p.id}`).set(bearer(org.tokens.admin)).send({});
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Envíe al menos un campo para actualizar.');
  });

  it('refuses insurer fields outside Colombia', async () => {
    const p = (await create(patientBody({ nid: '81000004' }))).body;
    const res = await t.http
      .put(`/api/v1/patients/${p.id}`)
      .set(bearer(org.tokens.admin))
      .send({ country_id: 8, id_type: 16, nid: '12345679S', city_id: null, eapb_id: 1 });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('eapb_id');
  });
});

describe('POST /api/v1/patients/validate', () => {
  it('finds an existing patient by id type and document, and answers 404 otherwise', async () => {
    const p = (await create(patientBody({ nid: '91000001' }))).body;
    const found = await t.http.post('/api/v1/patients/validate').set(bearer(org.tokens.consulta)).send({ id_type: 1, nid: '91.000.001' });
    expect(found.body).toMatchObject({ id: p.id });
    const missing = await t.http.post('/api/v1/patients/validate').set(bearer(org.tokens.consulta)).send({ id_type: 1, nid: '91000002' });
    expect(missing.status).toBe(404);
  });
});

describe('name search index', () => {
  it('finds a patient by the start of any name word, and follows a rename', async () => {
    const p = (await create(patientBody({ nid: '61000001', first_name: 'ximena andrea', last_name: 'zúñiga ortiz' }))).body;
    const find = async (q: string) =>
      (await t.http.get(`/api/v1/patients?q=${encodeURIComponent(q)}`).set(bearer(org.tokens.consulta))).body.map(
        (x: { id: number }) => x.id,
      );
    expect(await find('andr')).toEqual([p.id]);
    expect(await find('zuñ ort')).toEqual([p.id]);
    expect(await find('Zúñiga Ximena')).toEqual([p.id]);
    expect(await find('ximena perez')).toEqual([]);
    await t.http.put(`/api/v1/patients/${p.id}`).set(bearer(org.tokens.admin)).send({ last_name: 'quintero' });
    expect(await find('zuñiga')).toEqual([]);
    expect(await find('quint')).toEqual([p.id]);
  });

  it('counts and pages a patient two of whose words match once, newest first, with or without other filters', async () => {
    const ids: number[] = [];
    for (const [nid, first, last] of [
      ['62000001', 'wilmer', 'wilches wong'],
      ['62000002', 'walter', 'ospina'],
      ['62000003', 'ana', 'wilches'],
    ]) {
      ids.push((await create(patientBody({ nid, first_name: first, last_name: last }))).body.id);
    }
    const get = (query: string) => t.http.get(`/api/v1/patients?${query}`).set(bearer(org.tokens.consulta));
    const all = await get('q=w&_start=0&_end=2');
    expect(all.headers['x-total-count']).toBe('3');
    expect(all.body.map((x: { id: number }) => x.id)).toEqual([ids[2], ids[1]]);
    const next = await get('q=w&_start=2&_end=4');
    expect(next.body.map((x: { id: number }) => x.id)).toEqual([ids[0]]);
    const oldest = await get('q=w&_sort=id&_order=ASC&_start=0&_end=1');
    expect(oldest.body.map((x: { id: number }) => x.id)).toEqual([ids[0]]);
    const two = await get('q=wil+wil&status=1');
    expect(two.headers['x-total-count']).toBe('2');
    expect(two.body.map((x: { id: number }) => x.id)).toEqual([ids[2], ids[0]]);
    const byName = await get('q=wil&_sort=first_name&_order=ASC');
    expect(byName.body.map((x: { first_name: string }) => x.first_name)).toEqual(['ANA', 'WILMER']);
  });
});

describe('status change log (migration 0011)', () => {
  const changes = (patientId: number) =>
    t.sequelize.query(
      `SELECT client_id, from_status, to_status, user_id FROM patient_status_changes WHERE patient_id = ${patientId} ORDER BY id`,
      { type: 'SELECT' },
    );

  it('records every change, asked for or implied by contact data, with who made it', async () => {
    const p = (await create(patientBody({ nid: '82000001', email: null }))).body;
    expect(p.status).toBe(2);
    expect(await changes(p.id)).toEqual([]);
    const done = await t.http.put(`/api/v1/patients/${p.id}`).set(bearer(org.tokens.enfermeria)).send({ email: 'a@b.co' });
    expect(done.body.notification).toEqual({ type: 'success', message: 'Datos de contacto completos: el paciente quedó activo.' });
    const off = await t.http.put(`/api/v1/patients/${p.id}`).set(bearer(org.tokens.medico)).send({ status: 0 });
    expect(off.body.notification.message).toBe('Paciente inactivado. Sus actividades futuras quedaron suspendidas.');
    await t.http.put(`/api/v1/patients/${p.id}`).set(bearer(org.tokens.admin)).send({ clinic_history: 'HTA' });
    const dead = await t.http.put(`/api/v1/patients/${p.id}`).set(bearer(org.tokens.admin)).send({ status: 3 });
    expect(dead.body.notification.message).toBe(
      'Paciente registrado como fallecido. Sus órdenes y actividades pendientes fueron canceladas.',
    );
    expect(await changes(p.id)).toEqual([
      { client_id: org.clientId, from_status: 2, to_status: 1, user_id: org.users.enfermeria.id },
      { client_id: org.clientId, from_status: 1, to_status: 0, user_id: org.users.medico.id },
      { client_id: org.clientId, from_status: 0, to_status: 3, user_id: org.users.admin.id },
    ]);
  });

  it('logs nothing when an update is refused', async () => {
    const p = (await create(patientBody({ nid: '82000002' }))).body;
    expect((await t.http.put(`/api/v1/patients/${p.id}`).set(bearer(org.tokens.consulta)).send({ status: 0 })).status).toBe(403);
    await t.http.put(`/api/v1/patients/${p.id}`).set(bearer(org.tokens.admin)).send({ status: 3 });
    expect((await t.http.put(`/api/v1/patients/${p.id}`).set(bearer(org.tokens.admin)).send({ status: 1 })).status).toBe(403);
    expect(await changes(p.id)).toHaveLength(1);
  });
});

describe('declaring a death with the whole record (01 §4, D9)', () => {
  it('accepts the whole editable record with status 3 and then refuses contact, tags and history edits', async () => {
    const p = (await create(patientBody({ nid: '83000001' }))).body;
    const whole = {
      id_type: p.id_type,
      nid: p.nid,
      first_name: p.first_name,
      last_name: p.last_name,
      country_id: p.country_id,
      city_id: p.city_id,
      birth_date: p.birth_date,
      gender: p.gender,
      address: p.address,
      neighborhood: p.neighborhood,
      prefix: p.prefix,
      cellphone: p.cellphone,
      email: p.email,
      clinic_history: p.clinic_history,
      status: 3,
    };
    const dead = await t.http.put(`/api/v1/patients/${p.id}`).set(bearer(org.tokens.medico)).send(whole);
    expect(dead.status).toBe(200);
    expect(dead.body).toMatchObject({ status: 3, status_name: 'Fallecido' });
    for (const body of [{ address: 'otra 1' }, { clinic_history: 'x' }, { tag_ids: [] }, { status: 0 }]) {
      const res = await t.http.patch(`/api/v1/patients/${p.id}`).set(bearer(org.tokens.admin)).send(body);
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('El paciente está registrado como fallecido; su ficha no admite cambios.');
    }
  });

  it('accepts the record exactly as GET answers it, with status 3; read-only fields sent unchanged are ignored', async () => {
    const p = (await create(patientBody())).body;
    const read = await t.http.get(`/api/v1/patients/${p.id}`).set(bearer(org.tokens.medico));
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: p.id, status_name: 'Activo', country_name: 'Colombia', permissions: { set_deceased: true } });
    const dead = await t.http
      .put(`/api/v1/patients/${p.id}`)
      .set(bearer(org.tokens.medico))
      .send({ ...read.body, status: 3 });
    expect(dead.status, JSON.stringify(dead.body)).toBe(200);
    expect(dead.body).toMatchObject({ id: p.id, status: 3, status_name: 'Fallecido', age: read.body.age });
    expect(dead.body.notification.message).toBe(
      'Paciente registrado como fallecido. Sus órdenes y actividades pendientes fueron canceladas.',
    );
    expect((await t.http.get(`/api/v1/patients/${p.id}`).set(bearer(org.tokens.medico))).body.status).toBe(3);
  });

  it.each([
    ['age', (b: Record<string, unknown>) => ({ ...b, age: (b.age as number) + 1 })],
    ['id', (b: Record<string, unknown>) => ({ ...b, id: (b.id as number) + 1000 })],
    ['country_name', (b: Record<string, unknown>) => ({ ...b, country_name: 'Perú' })],
    ['permissions', (b: Record<string, unknown>) => ({ ...b, permissions: { ...(b.permissions as object), edit: false } })],
  ])('refuses the whole record with a changed %s: 400 naming it, nothing saved', async (field, change) => {
    const p = (await create(patientBody())).body;
    const read = (await t.http.get(`/api/v1/patients/${p.id}`).set(bearer(org.tokens.medico))).body;
    const res = await t.http
      .put(`/api/v1/patients/${p.id}`)
      .set(bearer(org.tokens.medico))
      .send(change({ ...read, status: 3 }));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field, message: `El campo '${field}' es de solo lectura y no coincide con la ficha del paciente.` });
    expect((await t.http.get(`/api/v1/patients/${p.id}`).set(bearer(org.tokens.medico))).body.status).toBe(1);
  });

  it('still needs set_deceased: the whole record with status 3 from enfermeria is 403', async () => {
    const p = (await create(patientBody())).body;
    const read = (await t.http.get(`/api/v1/patients/${p.id}`).set(bearer(org.tokens.enfermeria))).body;
    const res = await t.http
      .put(`/api/v1/patients/${p.id}`)
      .set(bearer(org.tokens.enfermeria))
      .send({ ...read, status: 3 });
    expect(res.status).toBe(403);
  });

  it("answers 404 for another client's patient", async () => {
    const other = await createOrg(t, 'Otra Clinica Pacientes');
    const p = (await create(patientBody({ nid: '83000002' }))).body;
    expect((await t.http.put(`/api/v1/patients/${p.id}`).set(bearer(other.tokens.admin)).send({ status: 3 })).status).toBe(404);
    expect((await t.http.get(`/api/v1/patients/${p.id}`).set(bearer(other.tokens.admin))).status).toBe(404);
  });
});

describe('multi-patient device card (01 §5)', () => {
  it('is refused for a client that is not multi-patient', async () => {
    const p = (await create(patientBody({ nid: '83000003' }))).body;
    const res = await t.http.patch(`/api/v1/patients/${p.id}`).set(bearer(org.tokens.admin)).send({ multipatient_card_id: 'MP-0001' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: 'multipatient_card_id', message: 'Este cliente no admite tarjetas multipaciente.' });
  });

  it('is refused while the patient has a gateway, and accepted once it is removed', async () => {
    await t.sequelize.query('UPDATE clients SET multipatient = :yes WHERE id = :id', { replacements: { yes: true, id: org.clientId } });
    try {
      const p = (await create(patientBody({ nid: '83000004' }))).body;
      expect((await t.http.patch(`/api/v1/patients/${p.id}`).set(bearer(org.tokens.admin)).send({ card_id: 'GW-77' })).status).toBe(200);
      const refused = await t.http
        .patch(`/api/v1/patients/${p.id}`)
        .set(bearer(org.tokens.admin))
        .send({ multipatient_card_id: 'MP-0002' });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe('El paciente ya tiene un gateway asignado; quítelo antes de asignar una tarjeta multipaciente.');
      const ok = await t.http
        .patch(`/api/v1/patients/${p.id}`)
        .set(bearer(org.tokens.admin))
        .send({ card_id: null, multipatient_card_id: 'MP-0002' });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ card_id: null, multipatient_card_id: 'MP-0002', gateway: true });
    } finally {
      await t.sequelize.query('UPDATE clients SET multipatient = :no WHERE id = :id', { replacements: { no: false, id: org.clientId } });
    }
  });
});
