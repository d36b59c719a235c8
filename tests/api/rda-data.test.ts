import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestProduct, createOrg, bearer, patientBody, BOGOTA, type TestProduct, type Org } from '../support/product';

/**
 * The data an RDA needs (issue 51, docs/rda-plan.md §2): the patient's, the practitioner's (a staff
 * user) and the provider's with its sites, read and written through the routes that own each
 * record, codes checked against the guide's lists (GET /listings).
 */
let t: TestProduct;
let org: Org;
let other: Org;
beforeAll(async () => {
  t = await startTestProduct();
  org = await createOrg(t, 'Clinica Rda');
  other = await createOrg(t, 'Clinica Otra Rda');
});
afterAll(() => t.stop());

const admin = () => bearer(org.tokens.admin);
const MADRID = 828079;

describe('GET /api/v1/listings/{list_name} (RDA lists)', () => {
  it.each([
    ['residence_zones', { '01': 'Urbana', '02': 'Rural' }],
    ['biological_sexes', { '01': 'Hombre', '02': 'Mujer', '03': 'Indeterminado o Intersexual' }],
  ])('answers %s keyed by the guide code', async (list, expected) => {
    const res = await t.http.get(`/api/v1/listings/${list}`).set(bearer(org.tokens.consulta));
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(expected);
  });

  it('answers the RETHUS professions and the numeric country codes', async () => {
    const professions = await t.http.get('/api/v1/listings/professions').set(admin());
    expect(Object.keys(professions.body.data)).toHaveLength(289);
    expect(professions.body.data['003']).toBe('Medicina');
    const countries = await t.http.get('/api/v1/listings/nationalities').set(admin());
    expect(countries.body.data['170']).toBe('Colombia');
  });
});

describe('patient RDA fields (POST/PUT/PATCH /patients)', () => {
  const rda = {
    biological_sex: '02',
    gender_identity: '02',
    residence_zone: '02',
    nationality: '170',
    ethnicity: '1',
    ethnic_community: 'resguardo arhuaco',
    disabilities: ['01', '02'],
  };

  it('stores them on create and answers them with their names', async () => {
    const res = await t.http.post('/api/v1/patients').set(admin()).send(patientBody(rda));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      ...rda,
      ethnic_community: 'RESGUARDO ARHUACO',
      biological_sex_name: 'Mujer',
      gender_identity_name: 'Femenino',
      residence_zone_name: 'Rural',
      nationality_name: 'Colombia',
      ethnicity_name: 'Indigena',
    });
    const read = await t.http.get(`/api/v1/patients/${res.body.id}`).set(bearer(org.tokens.consulta));
    expect(read.body.disabilities).toEqual(['01', '02']);
  });

  it('answers them null (and no disabilities) for a patient who has none', async () => {
    const res = await t.http.post('/api/v1/patients').set(admin()).send(patientBody());
    expect(res.body).toMatchObject({ biological_sex: null, residence_zone: null, nationality: null, ethnicity: null, disabilities: [] });
  });

  it('changes them by PATCH and accepts the whole record back by PUT', async () => {
    const created = await t.http.post('/api/v1/patients').set(admin()).send(patientBody());
    const url = `/api/v1/patients/${created.body.id}`;
    const patched = await t.http
      .patch(url)
      .set(bearer(org.tokens.enfermeria))
      .send({ residence_zone: '01', disabilities: ['08'] });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body).toMatchObject({ residence_zone: '01', residence_zone_name: 'Urbana', disabilities: ['08'] });
    const record = (await t.http.get(url).set(admin())).body;
    const put = await t.http
      .put(url)
      .set(admin())
      .send({ ...record, ethnicity: '6' });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toMatchObject({ residence_zone: '01', ethnicity: '6', ethnicity_name: 'Otras etnias', disabilities: ['08'] });
    const cleared = await t.http.patch(url).set(admin()).send({ disabilities: [], ethnicity: null });
    expect(cleared.body).toMatchObject({ disabilities: [], ethnicity: null, ethnicity_name: null });
  });

  it.each([
    [{ residence_zone: '03' }, 'residence_zone', 'El valor seleccionado no existe.'],
    [{ biological_sex: 'M' }, 'biological_sex', 'El valor seleccionado no existe.'],
    [{ nationality: '999' }, 'nationality', 'El valor seleccionado no existe.'],
    [{ ethnicity: 'x1' }, 'ethnicity', '¡El valor ingresado no es válido o está incompleto!'],
    [{ disabilities: ['01', '09'] }, 'disabilities', "La discapacidad '09' no existe."],
    [{ disabilities: ['08', '01'] }, 'disabilities', "'Sin discapacidad' no puede ir junto con otra discapacidad."],
    [
      { nationality_name: 'Marte' },
      'nationality_name',
      "El campo 'nationality_name' es de solo lectura y no coincide con la ficha del paciente.",
    ],
  ])('refuses %j with 400 naming %s', async (body, field, message) => {
    const created = await t.http.post('/api/v1/patients').set(admin()).send(patientBody());
    const res = await t.http.patch(`/api/v1/patients/${created.body.id}`).set(admin()).send(body);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body).toMatchObject({ field, message });
  });

  it('lets a consulta user change none of them, and another client reach none', async () => {
    const created = await t.http.post('/api/v1/patients').set(admin()).send(patientBody());
    const url = `/api/v1/patients/${created.body.id}`;
    expect((await t.http.patch(url).set(bearer(org.tokens.consulta)).send({ residence_zone: '01' })).status).toBe(403);
    expect((await t.http.patch(url).set(bearer(other.tokens.admin)).send({ residence_zone: '01' })).status).toBe(404);
    expect((await t.http.get(url).set(admin())).body.residence_zone).toBeNull();
  });
});

describe('practitioner RDA fields (POST/PUT /users)', () => {
  let n = 0;
  const userBody = (overrides: Record<string, unknown> = {}) => ({
    first_name: 'laura',
    last_name: 'ríos peña',
    email: `laura.rios${++n}@clinicarda.co`,
    password: 'Segura@2026',
    password_confirmation: 'Segura@2026',
    cellphone: '3001112233',
    prefix: '+57',
    country_id: 26,
    city_id: BOGOTA,
    role_name: 'medico',
    ...overrides,
  });

  it('stores document, profession and RETHUS number, and answers them with names', async () => {
    const res = await t.http
      .post('/api/v1/users')
      .set(admin())
      .send(userBody({ id_type: 1, nid: '52123456', profession: '003', rethus_number: 'rm-12345' }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      id_type: 1,
      id_type_name: 'Cédula de ciudadanía',
      nid: '52123456',
      profession: '003',
      profession_name: 'Medicina',
      rethus_number: 'RM-12345',
    });
    const changed = await t.http.patch(`/api/v1/users/${res.body.id}`).set(admin()).send({ profession: '001', rethus_number: null });
    expect(changed.body).toMatchObject({ profession: '001', profession_name: 'Enfermería', rethus_number: null, nid: '52123456' });
  });

  it('answers them null for a user who has none', async () => {
    const res = await t.http.get(`/api/v1/users/${org.users.medico.id}`).set(admin());
    expect(res.body).toMatchObject({ id_type: null, id_type_name: null, nid: null, profession: null, rethus_number: null });
  });

  it.each([
    [{ id_type: 1 }, 'nid', 'El tipo y el número de documento van juntos: escriba los dos o ninguno.'],
    [{ nid: '52123456' }, 'id_type', 'El tipo y el número de documento van juntos: escriba los dos o ninguno.'],
    [{ id_type: 16, nid: '12345678Z' }, 'id_type', 'El tipo de documento no corresponde al país.'],
    [{ profession: '999' }, 'profession', 'El valor seleccionado no existe.'],
    [{ rethus_number: 'RM 1/2' }, 'rethus_number', 'Solo letras, números y guiones, máximo 30 caracteres'],
  ])('refuses %j with 400 naming %s', async (extra, field, message) => {
    const res = await t.http.post('/api/v1/users').set(admin()).send(userBody(extra));
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body).toMatchObject({ field, message });
  });

  it('refuses a document another user of the organisation has (409), not one of another organisation', async () => {
    const first = await t.http
      .post('/api/v1/users')
      .set(admin())
      .send(userBody({ id_type: 1, nid: '79111222' }));
    expect(first.status).toBe(201);
    const dup = await t.http
      .post('/api/v1/users')
      .set(admin())
      .send(userBody({ id_type: 1, nid: '79111222' }));
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ field: 'nid' });
    const elsewhere = await t.http
      .post('/api/v1/users')
      .set(bearer(other.tokens.admin))
      .send(userBody({ id_type: 1, nid: '79111222' }));
    expect(elsewhere.status).toBe(201);
  });

  it('lets only an administrator write them', async () => {
    const res = await t.http.patch(`/api/v1/users/${org.users.medico.id}`).set(bearer(org.tokens.medico)).send({ profession: '003' });
    expect(res.status).toBe(403);
  });
});

describe('provider RDA fields and sites (PUT/PATCH /clients/{id})', () => {
  const url = () => `/api/v1/clients/${org.clientId}`;

  it('stores NIT, REPS code, class, nature, level, address and municipality, and answers them', async () => {
    const res = await t.http.patch(url()).set(admin()).send({
      nit: '900123456',
      reps_code: '1100100001',
      provider_class: 'IPS',
      legal_nature: 'PRIV',
      care_level: '1',
      address: 'carrera 7 # 32-16',
      city_id: BOGOTA,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      nit: '900123456',
      reps_code: '1100100001',
      provider_class: 'IPS',
      provider_class_name: 'Institución Prestadora de Servicios de Salud',
      legal_nature_name: 'Privada',
      care_level_name: 'Nivel I',
      address: 'CARRERA 7 # 32-16',
      city_id: BOGOTA,
      city_name: 'Bogotá, D.C.',
      sites: [],
    });
    expect((await t.http.get(url()).set(bearer(org.tokens.consulta))).body.reps_code).toBe('1100100001');
  });

  it('replaces the sites: kept by id, created without, removed when left out', async () => {
    const first = await t.http
      .put(url())
      .set(admin())
      .send({
        sites: [
          { name: 'sede norte', reps_site_code: '110010000101', address: 'calle 100 # 15-20', city_id: BOGOTA },
          { name: 'sede sur', reps_site_code: null },
        ],
      });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.sites).toMatchObject([
      { name: 'SEDE NORTE', reps_site_code: '110010000101', address: 'CALLE 100 # 15-20', city_name: 'Bogotá, D.C.' },
      { name: 'SEDE SUR', reps_site_code: null, city_id: null },
    ]);
    const [north] = first.body.sites;
    const second = await t.http
      .patch(url())
      .set(admin())
      .send({ sites: [{ id: north.id, name: 'sede norte', reps_site_code: '110010000102' }, { name: 'sede centro' }] });
    expect(second.body.sites).toMatchObject([{ id: north.id, reps_site_code: '110010000102' }, { name: 'SEDE CENTRO' }]);
    expect(second.body.sites).toHaveLength(2);
  });

  it.each([
    [{ nit: '900-123' }, 'nit', 'Escriba el NIT sin dígito de verificación: solo números, entre 6 y 10 dígitos'],
    [{ reps_code: 'ABC' }, 'reps_code', 'El código REPS tiene entre 10 y 12 dígitos, solo números'],
    [{ provider_class: 'XYZ' }, 'provider_class', 'El valor seleccionado no existe.'],
    [{ care_level: '5' }, 'care_level', 'El valor seleccionado no existe.'],
    [{ city_id: MADRID }, 'city_id', 'La ciudad no corresponde al país del cliente.'],
    [{ sites: [{ name: 'sede', city_id: MADRID }] }, 'sites[0].city_id', 'La ciudad no corresponde al país del cliente.'],
    [{ sites: [{ id: 2147483647, name: 'sede ajena' }] }, 'sites[0].id', 'La sede no existe.'],
  ])('refuses %j with 400 naming %s', async (body, field, message) => {
    const before = (await t.http.get(url()).set(admin())).body;
    const res = await t.http.patch(url()).set(admin()).send(body);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body).toMatchObject({ field, message });
    expect((await t.http.get(url()).set(admin())).body).toEqual(before);
  });

  it("never touches another client's sites, and only administrators write", async () => {
    const theirs = await t.http
      .patch(`/api/v1/clients/${other.clientId}`)
      .set(bearer(other.tokens.admin))
      .send({ sites: [{ name: 'sede vecina' }] });
    const siteId = theirs.body.sites[0].id;
    const res = await t.http
      .patch(url())
      .set(admin())
      .send({ sites: [{ id: siteId, name: 'robada' }] });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('sites[0].id');
    expect((await t.http.patch(url()).set(bearer(org.tokens.medico)).send({ nit: '800111222' })).status).toBe(403);
    expect((await t.http.patch(`/api/v1/clients/${other.clientId}`).set(admin()).send({ nit: '800111222' })).status).toBe(404);
  });
});
