import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestProduct, createOrg, bearer, patientBody, type TestProduct, type Org } from '../support/product';
import { select } from '../../api/src/db/sql';

let t: TestProduct;
let org: Org;
let other: Org;
let patientId: number;
let tagId: number;
beforeAll(async () => {
  t = await startTestProduct();
  org = await createOrg(t, 'Clinica Instrucciones');
  other = await createOrg(t, 'Clinica Vecina');
  patientId = (await t.http.post('/api/v1/patients').set(bearer(org.tokens.admin)).send(patientBody())).body.id;
  tagId = (await t.http.post('/api/v1/tags').set(bearer(org.tokens.admin)).send({ name: 'diabetes ia', color: 'red' })).body.id;
});
afterAll(() => t.stop());

const OWNERS = [
  ['patient', () => `/api/v1/patients/${patientId}/prompts`],
  ['tag', () => `/api/v1/tags/${tagId}/prompts`],
  ['client', () => '/api/v1/client_prompts'],
] as const;

async function activeCount(base: string, token: string) {
  const res = await t.http.get(`${base}?_start=0&_end=100`).set(bearer(token));
  return res.body.filter((p: { status: number }) => p.status === 1).length;
}

describe.each(OWNERS)('%s AI instructions', (_owner, url) => {
  it('creating an active instruction makes it the only active one; the list pages with X-Total-Count', async () => {
    const first = await t.http.post(url()).set(bearer(org.tokens.admin)).send({ text: 'Hable con frases cortas.', status: 1 });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ text: 'Hable con frases cortas.', status: 1, status_name: 'Activo' });
    const second = await t.http.post(url()).set(bearer(org.tokens.admin)).send({ text: 'Recuerde tomar agua cada mañana.' });
    expect(second.body.status).toBe(1);
    const list = await t.http.get(`${url()}?_start=0&_end=1`).set(bearer(org.tokens.consulta));
    expect(list.status).toBe(200);
    expect(list.headers['x-total-count']).toBe('2');
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).toMatchObject({ id: second.body.id, status: 1 });
    const all = await t.http.get(url()).set(bearer(org.tokens.consulta));
    expect(all.body.find((p: { id: number }) => p.id === first.body.id)).toMatchObject({ status: 0, status_name: 'Inactivo' });
  });

  it('edits only the active instruction; activating an inactive one switches the other off', async () => {
    const list = (await t.http.get(url()).set(bearer(org.tokens.admin))).body as Array<{ id: number; status: number }>;
    const active = list.find((p) => p.status === 1)!;
    const inactive = list.find((p) => p.status === 0)!;
    const edit = await t.http.put(`${url()}/${active.id}`).set(bearer(org.tokens.admin)).send({ text: 'Texto editado de la instrucción' });
    expect(edit.status).toBe(200);
    expect(edit.body.text).toBe('Texto editado de la instrucción');
    const refused = await t.http.patch(`${url()}/${inactive.id}`).set(bearer(org.tokens.admin)).send({ text: 'No se puede' });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ field: 'text', message: 'Solo se puede editar la instrucción activa' });
    const activated = await t.http.patch(`${url()}/${inactive.id}`).set(bearer(org.tokens.admin)).send({ status: 1 });
    expect(activated.body.status).toBe(1);
    const after = (await t.http.get(url()).set(bearer(org.tokens.admin))).body as Array<{ id: number; status: number }>;
    expect(after.find((p) => p.id === active.id)!.status).toBe(0);
    expect(after.filter((p) => p.status === 1)).toHaveLength(1);
  });

  it.each([
    ['text', 'missing', {}, '¡El campo es requerido!'],
    ['text', 'empty', { text: '' }, 'El campo es requerido'],
    ['text', 'blank', { text: '  ' }, 'El campo es requerido'],
    ['text', '2 characters', { text: 'ab' }, 'La instrucción debe tener más de 2 caracteres'],
    ['text', '4001 characters', { text: 'x'.repeat(4001) }, 'Debe tener máximo de 4000 caracteres'],
    ['status', '2', { text: 'válido', status: 2 }, 'Valor no permitido. Opciones: Inactivo, Activo.'],
    ['extra', 'unknown field', { text: 'válido', extra: 1 }, "El campo 'extra' no está permitido."],
  ])('refuses %s (%s) with 400 and its message', async (field, _case, body, message) => {
    const res = await t.http.post(url()).set(bearer(org.tokens.admin)).send(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field, message });
  });

  it('refuses an empty update with 400', async () => {
    const [p] = (await t.http.get(url()).set(bearer(org.tokens.admin))).body;
    const res = await t.http.put(`${url()}/${p.id}`).set(bearer(org.tokens.admin)).send({});
    expect(res.status).toBe(400);
  });

  it('answers 404 for another client, and for an instruction of another owner', async () => {
    const [p] = (await t.http.get(url()).set(bearer(org.tokens.admin))).body;
    const foreign = await t.http.put(`${url()}/${p.id}`).set(bearer(other.tokens.admin)).send({ text: 'intruso en otra clínica' });
    expect(foreign.status).toBe(404);
    expect((await t.http.delete(`${url()}/${p.id}`).set(bearer(other.tokens.admin))).status).toBe(404);
    expect((await t.http.put(`${url()}/999999`).set(bearer(org.tokens.admin)).send({ text: 'no existe' })).status).toBe(404);
  });

  it('two simultaneous creations leave exactly one active', async () => {
    const results = await Promise.all(
      [1, 2, 3].map((n) =>
        t.http
          .post(url())
          .set(bearer(org.tokens.admin))
          .send({ text: `Instrucción simultánea ${n}`, status: 1 }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([201, 201, 201]);
    expect(await activeCount(url(), org.tokens.admin)).toBe(1);
  });
});

describe('roles (D13, P31)', () => {
  it.each(['medico', 'enfermeria', 'consulta'] as const)('refuses client and tag instruction writes by %s', async (role) => {
    expect((await t.http.post('/api/v1/client_prompts').set(bearer(org.tokens[role])).send({ text: 'no permitido' })).status).toBe(403);
    expect((await t.http.post(`/api/v1/tags/${tagId}/prompts`).set(bearer(org.tokens[role])).send({ text: 'no permitido' })).status).toBe(
      403,
    );
  });

  it.each([
    ['medico', 201],
    ['enfermeria', 201],
    ['consulta', 403],
  ] as const)('patient instructions: %s → %i', async (role, status) => {
    const res = await t.http
      .post(`/api/v1/patients/${patientId}/prompts`)
      .set(bearer(org.tokens[role]))
      .send({ text: `Instrucción de ${role}` });
    expect(res.status).toBe(status);
  });

  it('answers 404 for a patient or tag of another client', async () => {
    expect((await t.http.get(`/api/v1/patients/${patientId}/prompts`).set(bearer(other.tokens.admin))).status).toBe(404);
    expect(
      (await t.http.post(`/api/v1/patients/${patientId}/prompts`).set(bearer(other.tokens.admin)).send({ text: 'intruso' })).status,
    ).toBe(404);
    expect((await t.http.get(`/api/v1/tags/${tagId}/prompts`).set(bearer(other.tokens.admin))).status).toBe(404);
    expect((await t.http.post(`/api/v1/tags/${tagId}/prompts`).set(bearer(other.tokens.admin)).send({ text: 'intruso' })).status).toBe(404);
  });

  it('keeps each client global instructions apart', async () => {
    await t.http.post('/api/v1/client_prompts').set(bearer(other.tokens.admin)).send({ text: 'Global de la vecina' });
    const mine = (await t.http.get('/api/v1/client_prompts').set(bearer(org.tokens.admin))).body;
    expect(mine.map((p: { text: string }) => p.text)).not.toContain('Global de la vecina');
  });
});

describe('deceased patient', () => {
  it('refuses new and edited instructions', async () => {
    const id = (await t.http.post('/api/v1/patients').set(bearer(org.tokens.admin)).send(patientBody())).body.id;
    const p = (await t.http.post(`/api/v1/patients/${id}/prompts`).set(bearer(org.tokens.admin)).send({ text: 'Antes del fallecimiento' }))
      .body;
    expect((await t.http.put(`/api/v1/patients/${id}`).set(bearer(org.tokens.admin)).send({ status: 3 })).status).toBe(200);
    const create = await t.http
      .post(`/api/v1/patients/${id}/prompts`)
      .set(bearer(org.tokens.admin))
      .send({ text: 'Después del fallecimiento' });
    expect(create.status).toBe(403);
    expect(create.body.message).toBe('El paciente está registrado como fallecido; su ficha no admite cambios.');
    expect((await t.http.put(`/api/v1/patients/${id}/prompts/${p.id}`).set(bearer(org.tokens.admin)).send({ text: 'cambio' })).status).toBe(
      403,
    );
    expect((await t.http.get(`/api/v1/patients/${id}/prompts`).set(bearer(org.tokens.consulta))).status).toBe(200);
  });
});

describe('tag list shows its instruction (02 §2.11)', () => {
  it('active_prompt: the active one, else the newest inactive one, else null', async () => {
    const tag = (await t.http.post('/api/v1/tags').set(bearer(org.tokens.admin)).send({ name: 'epoc ia', color: 'blue' })).body;
    expect(tag.active_prompt).toBeNull();
    const p = (await t.http.post(`/api/v1/tags/${tag.id}/prompts`).set(bearer(org.tokens.admin)).send({ text: 'Pregunte por la tos' }))
      .body;
    expect((await t.http.get(`/api/v1/tags/${tag.id}`).set(bearer(org.tokens.admin))).body.active_prompt).toEqual({
      text: 'Pregunte por la tos',
      status: 1,
    });
    await t.http.patch(`/api/v1/tags/${tag.id}/prompts/${p.id}`).set(bearer(org.tokens.admin)).send({ status: 0 });
    const list = (await t.http.get('/api/v1/tags?q=epoc').set(bearer(org.tokens.admin))).body;
    expect(list[0].active_prompt).toEqual({ text: 'Pregunte por la tos', status: 0 });
    expect((await t.http.delete(`/api/v1/tags/${tag.id}/prompts/${p.id}`).set(bearer(org.tokens.admin))).status).toBe(204);
    expect((await t.http.get(`/api/v1/tags/${tag.id}`).set(bearer(org.tokens.admin))).body.active_prompt).toBeNull();
  });

  it('the database itself refuses a second active instruction for one owner', async () => {
    const [row] = await select<{ id: number }>(
      t.sequelize,
      "SELECT id FROM prompts WHERE owner_type = 'client' AND client_id = :c AND status = 1",
      { c: org.clientId },
    );
    await expect(
      t.sequelize.query(
        "INSERT INTO prompts (client_id, owner_type, owner_id, text, status, created_at, updated_at) VALUES (:c, 'client', :c, 'segunda', 1, :now, :now)",
        { replacements: { c: org.clientId, now: new Date() } },
      ),
    ).rejects.toThrow();
    expect(row.id).toBeGreaterThan(0);
  });
});
