import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestProduct, createOrg, bearer, type TestProduct, type Org } from '../support/product';

let t: TestProduct;
let org: Org;
beforeAll(async () => {
  t = await startTestProduct();
  org = await createOrg(t, 'Clinica Etiquetas');
});
afterAll(() => t.stop());

describe('tags', () => {
  it('lets an admin create, rename and delete a tag; names are upper-cased', async () => {
    const created = await t.http
      .post('/api/v1/tags?owner=client')
      .set(bearer(org.tokens.admin))
      .send({ name: 'hipertensión', color: 'red' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'HIPERTENSIÓN', color: 'red', active_prompt: null, patients_count: 0 });
    const renamed = await t.http
      .patch(`/api/v1/tags/${created.body.id}`)
      .set(bearer(org.tokens.admin))
      .send({ tag: { color: 'amber' } });
    expect(renamed.body.color).toBe('amber');
    expect((await t.http.delete(`/api/v1/tags/${created.body.id}`).set(bearer(org.tokens.admin))).status).toBe(204);
    expect((await t.http.get(`/api/v1/tags/${created.body.id}`).set(bearer(org.tokens.admin))).status).toBe(404);
  });

  it.each(['medico', 'enfermeria', 'consulta'] as const)('refuses writes by %s with 403 and changes nothing', async (role) => {
    const tag = (
      await t.http
        .post('/api/v1/tags')
        .set(bearer(org.tokens.admin))
        .send({ name: `solo admin ${role}`, color: 'blue' })
    ).body;
    expect((await t.http.post('/api/v1/tags').set(bearer(org.tokens[role])).send({ name: 'nueva', color: 'blue' })).status).toBe(403);
    expect((await t.http.put(`/api/v1/tags/${tag.id}`).set(bearer(org.tokens[role])).send({ name: 'cambiada' })).status).toBe(403);
    expect((await t.http.delete(`/api/v1/tags/${tag.id}`).set(bearer(org.tokens[role]))).status).toBe(403);
    const after = await t.http.get(`/api/v1/tags/${tag.id}`).set(bearer(org.tokens[role]));
    expect(after.body.name).toBe(`SOLO ADMIN ${role.toUpperCase()}`);
  });

  it('refuses a duplicate name with 409 and a colour outside the palette with 400', async () => {
    await t.http.post('/api/v1/tags').set(bearer(org.tokens.admin)).send({ name: 'Epoc', color: 'blue' });
    const dup = await t.http.post('/api/v1/tags').set(bearer(org.tokens.admin)).send({ name: 'EPOC', color: 'red' });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ field: 'name', message: 'Ya existe una etiqueta con ese nombre.' });
    const colour = await t.http.post('/api/v1/tags').set(bearer(org.tokens.admin)).send({ name: 'Asma', color: 'green' });
    expect(colour.status).toBe(400);
    expect(colour.body.field).toBe('color');
    expect(colour.body.message).toContain('Verde claro');
    const short = await t.http.post('/api/v1/tags').set(bearer(org.tokens.admin)).send({ name: 'ab', color: 'red' });
    expect(short.body).toMatchObject({ field: 'name', message: 'Debe tener mínimo 3 caracteres y máximo 50' });
  });

  it('lists with simple-rest paging, sorting and search', async () => {
    for (const name of ['alfa', 'beta', 'gamma', 'delta'])
      await t.http
        .post('/api/v1/tags')
        .set(bearer(org.tokens.admin))
        .send({ name: `lista ${name}`, color: 'pink' });
    const page = await t.http.get('/api/v1/tags?_start=0&_end=2&_sort=name&_order=desc&q=lista').set(bearer(org.tokens.consulta));
    expect(page.status).toBe(200);
    expect(page.headers['x-total-count']).toBe('4');
    expect(page.body.map((x: { name: string }) => x.name)).toEqual(['LISTA GAMMA', 'LISTA DELTA']);
  });
});

describe('listings (03 §7)', () => {
  it('maps keys to labels for a list name', async () => {
    const blood = await t.http.get('/api/v1/listings/blood_types').set(bearer(org.tokens.consulta));
    expect(Object.values(blood.body.data)).toEqual(expect.arrayContaining(['A', 'B', 'AB', 'O']));
    const countries = await t.http.get('/api/v1/listings/countries').set(bearer(org.tokens.consulta));
    expect(countries.body.data['26']).toBe('Colombia');
    const types = await t.http.get('/api/v1/listings/id_types?country_id=26').set(bearer(org.tokens.consulta));
    expect(types.body.data['1']).toBe('Cédula de ciudadanía');
  });

  it('gives the id types of a country with their validation regex', async () => {
    const res = await t.http.get('/api/v1/listings/id_types_full?country_id=8').set(bearer(org.tokens.consulta));
    expect(res.body.data).toEqual(
      expect.arrayContaining([expect.objectContaining({ code: 'DNI', validation_regex: '^[0-9]{8}[TRWAGMYFPDXBNJZSQVHLCKE]$' })]),
    );
    expect((await t.http.get('/api/v1/listings/id_types_full').set(bearer(org.tokens.consulta))).status).toBe(400);
  });

  it('searches cities of a country, prefix matches first, paged', async () => {
    const res = await t.http.get('/api/v1/search?type=cities&q=cali&country_id=26&page=1&per_page=20').set(bearer(org.tokens.consulta));
    expect(res.status).toBe(200);
    expect(res.body.data.data[0]).toMatchObject({ name: 'Cali', detail: 'Valle del Cauca' });
    expect(res.body.data).toMatchObject({ page: 1, per_page: 20 });
    const medellin = await t.http.get('/api/v1/search?type=cities&q=medellin&country_id=26').set(bearer(org.tokens.consulta));
    expect(medellin.body.data.data.map((c: { name: string }) => c.name)).toContain('Medellín');
  });

  it("lists a country's first cities by name when nothing is typed yet (issue 19: the city list was empty until a key)", async () => {
    const res = await t.http.get('/api/v1/search?type=cities&country_id=26&q=').set(bearer(org.tokens.consulta));
    expect(res.status).toBe(200);
    const names = res.body.data.data.map((c: { name: string }) => c.name);
    expect(names).toHaveLength(20);
    expect(names).toEqual([...names].sort((a: string, b: string) => a.localeCompare(b, 'es')));
    expect(res.body.data.total).toBeGreaterThan(1000);
    // Without q at all, the same first page; cities still need their country.
    const bare = await t.http.get('/api/v1/search?type=cities&country_id=26').set(bearer(org.tokens.consulta));
    expect(bare.body.data.data.map((c: { name: string }) => c.name)).toEqual(names);
    const noCountry = await t.http.get('/api/v1/search?type=cities&q=').set(bearer(org.tokens.consulta));
    expect(noCountry.status).toBe(400);
    expect(noCountry.body.field).toBe('country_id');
  });

  it('searches real Colombian insurers', async () => {
    const res = await t.http.get('/api/v1/search?type=eapbs&q=sura').set(bearer(org.tokens.consulta));
    expect(res.body.data.total).toBeGreaterThan(0);
    expect(res.body.data.data[0].name).toMatch(/sura/i);
  });

  it('refuses an unknown list name with 400', async () => {
    const res = await t.http.get('/api/v1/listings/passwords').set(bearer(org.tokens.consulta));
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('list_name');
  });
});

describe('GET /api/v1/sms_outbox', () => {
  it('is for admins only', async () => {
    expect((await t.http.get('/api/v1/sms_outbox').set(bearer(org.tokens.medico))).status).toBe(403);
    expect((await t.http.get('/api/v1/sms_outbox').set(bearer(org.tokens.admin))).status).toBe(200);
  });
});

describe('POST /api/v1/feedbacks', () => {
  it('records an opinion and refuses an empty one', async () => {
    const ok = await t.http.post('/api/v1/feedbacks').set(bearer(org.tokens.consulta)).send({ qualification: 1, message: 'Muy útil' });
    expect(ok.status).toBe(201);
    expect(ok.body.type).toBe('success');
    const empty = await t.http.post('/api/v1/feedbacks').set(bearer(org.tokens.consulta)).send({ qualification: null, message: '  ' });
    expect(empty.status).toBe(400);
    const bad = await t.http.post('/api/v1/feedbacks').set(bearer(org.tokens.consulta)).send({ qualification: 9 });
    expect(bad.body.message).toBe('Valor no permitido. Opciones: Positiva, Normal, Negativa.');
  });
});

describe('GET /api/v1/clients/:id', () => {
  it('returns the own client without any secret', async () => {
    const res = await t.http.get(`/api/v1/clients/${org.clientId}`).set(bearer(org.tokens.consulta));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Clinica Etiquetas', country_id: 26, time_zone: 'America/Bogota', have_metabase: false });
    // D20: only whether a secret is set, never the secret itself.
    expect(JSON.stringify(res.body)).not.toMatch(/"security_phrase":|"residents_password":/);
    expect(res.body).toMatchObject({ security_phrase_set: false, residents_password_set: false });
  });
});

describe('GET /api/v1/search?type=tags', () => {
  it('finds tags ignoring accents', async () => {
    await t.http.post('/api/v1/tags').set(bearer(org.tokens.admin)).send({ name: 'Hipertensión', color: 'red' });
    const res = await t.http.get('/api/v1/search?type=tags&q=hipertension').set(bearer(org.tokens.consulta));
    expect(res.body.data.data.map((x: { name: string }) => x.name)).toEqual(['HIPERTENSIÓN']);
  });
});
