import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestProduct, createOrg, bearer, patientBody, type TestProduct, type Org } from '../support/product';
import { recordConversationSummary } from '../../api/src/modules/observations/observations.service';

const NOW = new Date('2026-03-10T15:00:00Z');
let t: TestProduct;
let org: Org;
let other: Org;
let patientId: number;
beforeAll(async () => {
  t = await startTestProduct({ now: () => NOW });
  org = await createOrg(t, 'Clinica Anotaciones');
  other = await createOrg(t, 'Clinica Ajena');
  patientId = (await t.http.post('/api/v1/patients').set(bearer(org.tokens.admin)).send(patientBody())).body.id;
});
afterAll(() => t.stop());

const url = () => `/api/v1/patients/${patientId}/observations`;

describe('Anotaciones (observations)', () => {
  it('creates a note with the author, type name and time, newest first', async () => {
    const first = await t.http
      .post(url())
      .set(bearer(org.tokens.enfermeria))
      .send({ observation_type: 0, value_text: 'Paciente estable, sin dolor.' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      observation_type: 0,
      observation_type_name: 'Nota de enfermería',
      value_text: 'Paciente estable, sin dolor.',
      user_name: 'Usuario Enfermeria',
      observed_at: NOW.toISOString(),
      time_zone: 'America/Bogota',
      timespan_text: 'hace un momento',
      erasable: true,
    });
    await t.http
      .post(`/api/v1/patients/${patientId}/observations`)
      .set(bearer(org.tokens.medico))
      .send({ observation_type: 1, value_text: 'Evolución favorable.' });
    const list = await t.http.get(url()).set(bearer(org.tokens.consulta));
    expect(list.status).toBe(200);
    expect(list.headers['x-total-count']).toBe('2');
    expect(list.body.map((o: { observation_type_name: string }) => o.observation_type_name)).toEqual([
      'Evolución Médica',
      'Nota de enfermería',
    ]);
  });

  it('deletes an erasable note and refuses the AI assistant summary (not erasable)', async () => {
    const note = (await t.http.post(url()).set(bearer(org.tokens.admin)).send({ observation_type: 4, value_text: 'Para borrar' })).body;
    expect((await t.http.delete(`${url()}/${note.id}`).set(bearer(org.tokens.medico))).status).toBe(204);
    const summaryId = await recordConversationSummary(t.sequelize, org.clientId, patientId, 'El paciente refiere buen descanso.', NOW);
    const listed = (await t.http.get(url()).set(bearer(org.tokens.admin))).body.find((o: { id: number }) => o.id === summaryId);
    expect(listed).toMatchObject({ observation_type: 5, erasable: false, user_name: 'Glady IA' });
    const refused = await t.http.delete(`${url()}/${summaryId}`).set(bearer(org.tokens.admin));
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Esta anotación no se puede eliminar.');
  });

  it.each([
    ['observation_type', 'missing', { value_text: 'texto' }, '¡El campo es requerido!'],
    [
      'observation_type',
      '5 (assistant only)',
      { observation_type: 5, value_text: 'texto' },
      'Valor no permitido. Opciones: Nota de enfermería, Evolución Médica, Admisión, Salida/Epicrisis, Otro.',
    ],
    ['value_text', 'missing', { observation_type: 0 }, '¡El campo es requerido!'],
    ['value_text', 'empty', { observation_type: 0, value_text: '' }, '¡El campo es requerido!'],
    ['value_text', 'blank', { observation_type: 0, value_text: '   ' }, '¡El campo es requerido!'],
    ['value_text', '601 characters', { observation_type: 0, value_text: 'x'.repeat(601) }, 'Debe tener máximo de 600 caracteres'],
  ])('refuses %s (%s) with 400', async (field, _case, body, message) => {
    const res = await t.http.post(url()).set(bearer(org.tokens.admin)).send(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field, message });
  });

  it('refuses writes by consulta with 403', async () => {
    expect((await t.http.post(url()).set(bearer(org.tokens.consulta)).send({ observation_type: 0, value_text: 'no' })).status).toBe(403);
    const [note] = (await t.http.get(url()).set(bearer(org.tokens.admin))).body;
    expect((await t.http.delete(`${url()}/${note.id}`).set(bearer(org.tokens.consulta))).status).toBe(403);
  });

  it('answers 404 across clients', async () => {
    const [note] = (await t.http.get(url()).set(bearer(org.tokens.admin))).body;
    expect((await t.http.get(url()).set(bearer(other.tokens.admin))).status).toBe(404);
    expect((await t.http.post(url()).set(bearer(other.tokens.admin)).send({ observation_type: 0, value_text: 'intruso' })).status).toBe(
      404,
    );
    expect((await t.http.delete(`${url()}/${note.id}`).set(bearer(other.tokens.admin))).status).toBe(404);
    const otherPatient = (await t.http.post('/api/v1/patients').set(bearer(other.tokens.admin)).send(patientBody())).body.id;
    expect((await t.http.delete(`/api/v1/patients/${otherPatient}/observations/${note.id}`).set(bearer(other.tokens.admin))).status).toBe(
      404,
    );
  });

  it('refuses changes on a deceased patient', async () => {
    const id = (await t.http.post('/api/v1/patients').set(bearer(org.tokens.admin)).send(patientBody())).body.id;
    const note = (
      await t.http
        .post(`/api/v1/patients/${id}/observations`)
        .set(bearer(org.tokens.admin))
        .send({ observation_type: 2, value_text: 'Ingreso' })
    ).body;
    await t.http.put(`/api/v1/patients/${id}`).set(bearer(org.tokens.admin)).send({ status: 3 });
    const res = await t.http
      .post(`/api/v1/patients/${id}/observations`)
      .set(bearer(org.tokens.admin))
      .send({ observation_type: 3, value_text: 'Salida' });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('El paciente está registrado como fallecido; su ficha no admite cambios.');
    expect((await t.http.delete(`/api/v1/patients/${id}/observations/${note.id}`).set(bearer(org.tokens.admin))).status).toBe(403);
  });
});
