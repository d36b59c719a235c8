import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestProduct, createOrg, bearer, patientBody, BOGOTA, type TestProduct, type Org } from '../support/product';
import { closeEncounter } from '../../api/src/modules/encounters/encounters.service';
import { clientTimeZone } from '../../api/src/modules/clients/clients.service';
import type { RecordRdaInput } from '../../api/src/modules/encounters/encounters.teleconsultation';
import type { StaffPrincipal } from '../../api/src/http/auth';
import { insertReturningId, select } from '../../api/src/db/sql';
import { patientStatementInput } from '../../api/src/modules/encounters/encounters.rda-inputs';
import { patientDocument } from '../../api/src/modules/fhir/rda.statement';
import { Client } from '../../api/src/db/models/clients.model';
import { Patient } from '../../api/src/db/models/patients.model';
import { User } from '../../api/src/db/models/users.model';
import { loadRdaDefinitions, rdaErrors, rdaProfile, validateRda, type Json } from '../support/rda-validator';

/**
 * The teleconsultation ('Teleconsulta / telemonitoreo', issue 51): opened from the patient or from
 * one of the patient's alerts, its draft changed with codes from the guide's lists, closed only
 * when its RDA de consulta externa lacks nothing required, and then the Bundle handed to the RDA
 * store validates against the Ministry's profiles with 0 errors.
 */
let t: TestProduct;
let org: Org;
let other: Org;
let patientId: number;
let otherPatientId: number;
let alertId: number;
/** A reading's time `hours` before now: a reading may not be in the future. */
const ago = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();

beforeAll(async () => {
  t = await startTestProduct();
  org = await createOrg(t, 'Clinica Tele');
  other = await createOrg(t, 'Clinica Otra Tele');
  patientId = (await t.http.post('/api/v1/patients').set(bearer(org.tokens.admin)).send(patientBody())).body.id;
  otherPatientId = (await t.http.post('/api/v1/patients').set(bearer(org.tokens.admin)).send(patientBody())).body.id;
  // An alert as the alerts module stores it (status 1 open, priority 1 Alta).
  alertId = await insertReturningId(
    t.sequelize,
    `INSERT INTO alerts (client_id, patient_id, alert_type, status, priority, created_at, updated_at)
     VALUES (:c, :p, 1, 1, 1, :now, :now) RETURNING id`,
    { c: org.clientId, p: patientId, now: new Date() },
  );
});
afterAll(() => t.stop());

const nurse = () => bearer(org.tokens.enfermeria);
const admin = () => bearer(org.tokens.admin);

async function open(by = nurse(), body: object = { kind: 'teleconsultation' }, patient = patientId) {
  const res = await t.http.post(`/api/v1/patients/${patient}/encounters`).set(by).send(body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number; teleconsultation: Json; status: string };
}

async function reading(patient: number, body: object): Promise<number[]> {
  const res = await t.http.post(`/api/v1/patients/${patient}/measurements`).set(admin()).send(body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return (res.body as Array<{ id: number }>).map((m) => Number(m.id));
}

const draft = (id: number, body: object, by = nurse()) => t.http.patch(`/api/v1/encounters/${id}/teleconsultation`).set(by).send(body);

/** The consultation's own data, complete. */
const CONSULTATION = {
  cups_code: '890301',
  reps_service: '328',
  reason: 'Alerta de presión arterial elevada en el telemonitoreo',
  findings: 'Presión arterial 158/96 mmHg sostenida; sin síntomas de alarma',
  plan: 'Ajustar losartán; control de presión dos veces al día; nueva teleconsulta en 7 días',
  medication_note: 'Losartán 50 mg cada 12 horas',
  diagnoses: [{ code: 'I10X', diagnosis_type: '03' }, { code: 'E119' }],
  risk_factors: [{ code: '06', text: 'Sedentarismo y dieta alta en sodio' }],
};

describe('GET /api/v1/listings/icd10co?q=', () => {
  it('finds codes by prefix and by words, accents ignored, at most 20', async () => {
    const byCode = await t.http.get('/api/v1/listings/icd10co').query({ q: 'i10' }).set(nurse());
    expect(byCode.status).toBe(200);
    expect(Object.keys(byCode.body.data)[0]).toBe('I10X');
    const byWords = await t.http.get('/api/v1/listings/icd10co').query({ q: 'hipertensión esencial' }).set(nurse());
    expect(byWords.body.data.I10X).toBe('HIPERTENSION ESENCIAL (PRIMARIA)');
    const first = await t.http.get('/api/v1/listings/icd10co').set(nurse());
    expect(Object.keys(first.body.data)).toHaveLength(20);
  });

  it('answers the teleconsultation lists keyed by the guide code', async () => {
    const cups = await t.http.get('/api/v1/listings/cups_consultations').set(nurse());
    expect(Object.keys(cups.body.data)).toHaveLength(210);
    const causes = await t.http.get('/api/v1/listings/external_causes').set(nurse());
    expect(causes.body.data['38']).toBeDefined();
  });
});

describe('POST /api/v1/patients/{id}/encounters (teleconsultation)', () => {
  it('opens a draft with telemonitoring from home for a general illness', async () => {
    const e = await open();
    expect(e.status).toBe('Pendiente');
    expect(e.teleconsultation).toMatchObject({
      modality: '09',
      modality_name: 'Telemedicina - Telemonitoreo',
      environment: '01',
      environment_name: 'Hogar',
      external_cause: '38',
      cups_code: null,
      diagnoses: [],
      reading_ids: [],
      risk_factors: [],
      alert_id: null,
    });
  });

  it('opens one from an alert of the patient, and refuses an alert of another patient', async () => {
    const e = await open(nurse(), { kind: 'teleconsultation', alert_id: alertId });
    expect(e.teleconsultation.alert_id).toBe(alertId);
    const wrong = await t.http
      .post(`/api/v1/patients/${otherPatientId}/encounters`)
      .set(nurse())
      .send({ kind: 'teleconsultation', alert_id: alertId });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toEqual([{ field: 'alert_id', message: 'La alerta no existe o no es de este paciente.' }]);
    const generic = await t.http.post(`/api/v1/patients/${patientId}/encounters`).set(nurse()).send({ kind: 'generic', alert_id: alertId });
    expect(generic.status).toBe(400);
  });

  it('is for the roles that write encounters, in their own client', async () => {
    const consulta = await t.http
      .post(`/api/v1/patients/${patientId}/encounters`)
      .set(bearer(org.tokens.consulta))
      .send({ kind: 'teleconsultation' });
    expect(consulta.status).toBe(403);
    const theirs = await t.http
      .post(`/api/v1/patients/${patientId}/encounters`)
      .set(bearer(other.tokens.medico))
      .send({ kind: 'teleconsultation' });
    expect(theirs.status).toBe(404);
  });
});

describe('PATCH /api/v1/encounters/{id}/teleconsultation', () => {
  it('stores the draft with each code named, the lists replaced whole', async () => {
    const e = await open();
    const ids = await reading(patientId, { systolic: 158, diastolic: 96, when: ago(5) });
    const res = await draft(e.id, { ...CONSULTATION, reading_ids: ids });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.teleconsultation).toMatchObject({
      cups_code: '890301',
      cups_name: 'CONSULTA DE CONTROL O DE SEGUIMIENTO POR MEDICINA GENERAL',
      reps_service: '328',
      diagnoses: [
        { code: 'I10X', name: 'HIPERTENSION ESENCIAL (PRIMARIA)', rank: 1, diagnosis_type: '03' },
        { code: 'E119', rank: 2, diagnosis_type: null },
      ],
      reading_ids: [...ids].sort((a, b) => a - b),
      risk_factors: [{ code: '06', text: 'Sedentarismo y dieta alta en sodio' }],
    });
    const again = await draft(e.id, { diagnoses: [{ code: 'E119', diagnosis_type: '01' }], reading_ids: [] });
    expect(again.body.teleconsultation.diagnoses).toMatchObject([{ code: 'E119', rank: 1 }]);
    expect(again.body.teleconsultation.reading_ids).toEqual([]);
    expect(again.body.teleconsultation.cups_code).toBe('890301');
  });

  it.each([
    ['an unknown CUPS code', { cups_code: '999999' }, 'cups_code'],
    ['an unknown ICD-10 CO code', { diagnoses: [{ code: 'A00Z' }] }, 'diagnoses'],
    ['an ICD-10 code with a dot', { diagnoses: [{ code: 'I10.0' }] }, 'diagnoses.0.code'],
    ['a repeated diagnosis', { diagnoses: [{ code: 'I10X' }, { code: 'I10X' }] }, 'diagnoses'],
    ['a type on a related diagnosis', { diagnoses: [{ code: 'I10X' }, { code: 'E119', diagnosis_type: '01' }] }, 'diagnoses'],
    ['an unknown modality', { modality: '99' }, 'modality'],
    ['an unknown risk factor', { risk_factors: [{ code: '09', text: 'otro' }] }, 'risk_factors'],
    ['sick-leave days without a scope', { sick_leave_days: 3 }, 'sick_leave_scope'],
    ['a site of no sede', { site_id: 999999 }, 'site_id'],
  ])('refuses %s with 400 naming the field', async (_, body, field) => {
    const e = await open();
    const res = await draft(e.id, body);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.errors[0].field).toBe(field);
  });

  it('refuses a reading of another patient', async () => {
    const e = await open();
    const [theirs] = await reading(otherPatientId, { clinical_element: 1, value: 80 });
    const res = await draft(e.id, { reading_ids: [theirs] });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: 'reading_ids', message: `La medición ${theirs} no existe o no es de este paciente.` }]);
  });

  it('is 403 for a consulta user, 404 from another client, 409 on an encounter that is not a teleconsultation', async () => {
    const e = await open();
    expect((await draft(e.id, { reason: 'x' }, bearer(org.tokens.consulta))).status).toBe(403);
    expect((await draft(e.id, { reason: 'x' }, bearer(other.tokens.admin))).status).toBe(404);
    const generic = await open(nurse(), { kind: 'generic' });
    expect((await draft(generic.id, { reason: 'x' })).status).toBe(409);
  });

  it('leaves PUT /encounters/{id} ("Guardar") unable to close it without its RDA', async () => {
    const e = await open();
    const res = await t.http.put(`/api/v1/encounters/${e.id}`).set(nurse()).send({});
    expect(res.status).toBe(409);
    expect((await t.http.get(`/api/v1/encounters/${e.id}`).set(nurse())).body.status).toBe('Pendiente');
  });
});

describe('GET /api/v1/encounters/{id}/rda_gaps and POST /api/v1/encounters/{id}/close', () => {
  let id: number;
  let siteId: number;

  it('lists what the RDA lacks while the client, the user and the patient lack the national data', async () => {
    id = (await open(nurse(), { kind: 'teleconsultation', alert_id: alertId })).id;
    const res = await t.http.get(`/api/v1/encounters/${id}/rda_gaps`).set(nurse());
    expect(res.status).toBe(200);
    expect(res.body.complete).toBe(false);
    const messages = res.body.gaps.map((g: Json) => g.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        'Falta el NIT del prestador',
        'Falta el código REPS del prestador',
        'Falta el documento de identidad del profesional',
        'Falta la profesión (RETHUS) del profesional',
        'Falta la zona de residencia del paciente',
        'Falta el sexo biológico del paciente',
        'Falta el código CUPS de la consulta',
        'Falta el diagnóstico principal (CIE-10)',
      ]),
    );
    expect(res.body.gaps).toContainEqual({
      record: 'organization',
      id: org.clientId,
      field: 'reps_code',
      message: 'Falta el código REPS del prestador',
      required: true,
    });
    expect(res.body.gaps).toContainEqual(expect.objectContaining({ record: 'practitioner', id: org.users.enfermeria.id, field: 'nid' }));
  });

  it('refuses to close with 409 and each gap, closing nothing', async () => {
    const res = await t.http.post(`/api/v1/encounters/${id}/close`).set(nurse());
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('rda_incomplete');
    expect(res.body.errors).toContainEqual({ field: 'organization.reps_code', message: 'Falta el código REPS del prestador' });
    expect(res.body.errors).toContainEqual({ field: 'encounter.cups_code', message: 'Falta el código CUPS de la consulta' });
    expect((await t.http.get(`/api/v1/encounters/${id}`).set(nurse())).body.status).toBe('Pendiente');
  });

  it('names the sede without its REPS code once the data is filled through the routes that own it', async () => {
    const client = await t.http
      .patch(`/api/v1/clients/${org.clientId}`)
      .set(admin())
      .send({
        nit: '900123456',
        reps_code: '110010012301',
        provider_class: 'IPS',
        legal_nature: 'PRIV',
        address: 'carrera 7 # 72-41',
        city_id: BOGOTA,
        sites: [{ name: 'sede chapinero', reps_site_code: null, city_id: BOGOTA }],
      });
    expect(client.status, JSON.stringify(client.body)).toBe(200);
    siteId = client.body.sites[0].id;
    const user = await t.http
      .patch(`/api/v1/users/${org.users.enfermeria.id}`)
      .set(admin())
      .send({ id_type: 1, nid: '52987654', profession: '001', rethus_number: '52987654-2015' });
    expect(user.status, JSON.stringify(user.body)).toBe(200);
    const patient = await t.http
      .patch(`/api/v1/patients/${patientId}`)
      .set(admin())
      .send({ biological_sex: '02', residence_zone: '01', nationality: '170', ethnicity: '6', disabilities: ['08'] });
    expect(patient.status, JSON.stringify(patient.body)).toBe(200);
    const ids = await reading(patientId, { systolic: 160, diastolic: 98, when: ago(4) });
    const [glucose] = await reading(patientId, { clinical_element: 6, value: 182, when: ago(8) });
    expect((await draft(id, { ...CONSULTATION, site_id: siteId, reading_ids: [...ids, glucose] })).status).toBe(200);

    const gaps = (await t.http.get(`/api/v1/encounters/${id}/rda_gaps`).set(nurse())).body;
    expect(gaps.gaps.filter((g: Json) => g.required)).toEqual([
      { record: 'site', id: siteId, field: 'reps_site_code', message: 'Falta el código REPS de la sede SEDE CHAPINERO', required: true },
    ]);
    expect((await t.http.post(`/api/v1/encounters/${id}/close`).set(nurse())).status).toBe(409);
  });

  it('closes once complete: Realizado, by the closing user, and no longer changes', async () => {
    const sites = await t.http
      .patch(`/api/v1/clients/${org.clientId}`)
      .set(admin())
      .send({ sites: [{ id: siteId, name: 'sede chapinero', reps_site_code: '110010012302', city_id: BOGOTA }] });
    expect(sites.status, JSON.stringify(sites.body)).toBe(200);
    const gaps = (await t.http.get(`/api/v1/encounters/${id}/rda_gaps`).set(nurse())).body;
    expect(gaps.complete, JSON.stringify(gaps)).toBe(true);
    const res = await t.http.post(`/api/v1/encounters/${id}/close`).set(nurse());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: 'Realizado', responsible: org.users.enfermeria.id });
    expect(res.body.checkout).not.toBeNull();
    // Its RDA kept by the product's store (wired in app.ts), waiting for the IHCE settings.
    const kept = await select<{ kind: string; status: string }>(t.sequelize, 'SELECT kind, status FROM rdas WHERE encounter_id = :id', {
      id,
    });
    expect(kept).toEqual([{ kind: 'consulta', status: 'sin_enviar' }]);
    expect((await t.http.post(`/api/v1/encounters/${id}/close`).set(nurse())).status).toBe(409);
    expect((await draft(id, { plan: 'otro' })).status).toBe(409);
  });

  it('is 403 for a consulta user and 404 from another client', async () => {
    const e = await open();
    expect((await t.http.post(`/api/v1/encounters/${e.id}/close`).set(bearer(org.tokens.consulta))).status).toBe(403);
    expect((await t.http.get(`/api/v1/encounters/${e.id}/rda_gaps`).set(bearer(org.tokens.consulta))).status).toBe(403);
    expect((await t.http.post(`/api/v1/encounters/${e.id}/close`).set(bearer(other.tokens.admin))).status).toBe(404);
    expect((await t.http.get(`/api/v1/encounters/${e.id}/rda_gaps`).set(bearer(other.tokens.medico))).status).toBe(404);
  });

  it('hands the RDA store a Bundle that validates against BundleAmbulatoryRDA with 0 errors', async () => {
    const e = await open(bearer(org.tokens.enfermeria), { kind: 'teleconsultation', alert_id: alertId });
    const ids = await reading(patientId, { systolic: 150, diastolic: 92, when: ago(3) });
    expect((await draft(e.id, { ...CONSULTATION, site_id: siteId, reading_ids: ids })).status).toBe(200);
    const recorded: Array<{ input: RecordRdaInput; inTransaction: boolean }> = [];
    const actor = { kind: 'staff', clientId: org.clientId, userId: org.users.enfermeria.id, role: 'enfermeria' } as StaffPrincipal;
    const closed = await closeEncounter(
      {
        sequelize: t.sequelize,
        catalogues: t.catalogues,
        now: () => new Date(),
        clientTimeZone: (id) => clientTimeZone(t.sequelize, id),
        recordRda: async (input, tx) => void recorded.push({ input, inTransaction: !!tx }),
      },
      actor,
      e.id,
    );
    expect(closed.status).toBe('Realizado');
    expect(recorded).toHaveLength(1);
    const { input } = recorded[0];
    expect(input).toMatchObject({ clientId: org.clientId, patientId, encounterId: e.id, kind: 'consulta' });
    expect(recorded[0].inTransaction).toBe(true);

    loadRdaDefinitions();
    const bundle = input.bundle as Json;
    expect(rdaErrors(validateRda(bundle, rdaProfile('BundleAmbulatoryRDA')))).toEqual([]);
    // Each required element comes from the product's own data.
    const of = (type: string) => bundle.entry.map((x: Json) => x.resource).filter((r: Json) => r.resourceType === type);
    const [encounter] = of('Encounter');
    expect(encounter.serviceType.coding[0].code).toBe('890301');
    expect(encounter.reasonCode[0].coding[0].code).toBe('38');
    const [organisation] = of('Organization');
    expect(JSON.stringify(organisation)).toContain('110010012301');
    expect(of('Location')[0].identifier[0].value).toBe('110010012302');
    expect(of('Practitioner')[0].identifier[0].value).toBe('52987654');
    expect(of('Condition').map((c: Json) => c.code.coding[0].code)).toEqual(['I10X', 'E119']);
    const pdf = of('DocumentReference')[0].content[0].attachment.data as string;
    expect(Buffer.from(pdf, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
  }, 60_000);

  it("maps the patient's own history to an RDA de paciente that validates with 0 errors", async () => {
    const condition = await t.http.post(`/api/v1/patients/${patientId}/conditions`).set(nurse()).send({ condition_type_id: 1 });
    expect(condition.status, JSON.stringify(condition.body)).toBe(201);
    const [client, user, patient] = await Promise.all([
      Client.findByPk(org.clientId),
      User.findByPk(org.users.enfermeria.id),
      Patient.findByPk(patientId),
    ]);
    const now = new Date();
    const input = await patientStatementInput(
      { sequelize: t.sequelize, catalogues: t.catalogues },
      { client: client!, user: user!, patient: patient! },
      { start: new Date(now.getTime() - 3_600_000), end: now },
    );
    expect(input.conditions.map((c) => c.icd10?.code)).toEqual(['I10X']);
    expect(input).toMatchObject({ allergies: [], familyHistory: [], medications: [] });
    loadRdaDefinitions();
    const keys = new Map<string, string>();
    const uuid = (key: string) =>
      keys.get(key) ?? keys.set(key, `00000000-0000-4000-8000-${String(keys.size + 1).padStart(12, '0')}`).get(key)!;
    const bundle = patientDocument(input, { now, uuid });
    expect(rdaErrors(validateRda(bundle, rdaProfile('BundlePatientStatementRDA')))).toEqual([]);
  }, 60_000);

  it("sends the patient's medication orders as the medication, with no note needed", async () => {
    const body = patientBody({ biological_sex: '01', residence_zone: '02', nationality: '170' });
    const patient = (await t.http.post('/api/v1/patients').set(admin()).send(body)).body.id as number;
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    const order = {
      order_type: 1,
      medicine_id: 1,
      frecuency: 1,
      time_unit: 1,
      during: 2,
      amount: '1',
      medication_unit: 3,
      start_at: tomorrow,
    };
    const orders = await t.http
      .post(`/api/v1/patients/${patient}/orders/bulk`)
      .set(bearer(org.tokens.medico))
      .send({ orders: [order] });
    expect(orders.status, JSON.stringify(orders.body)).toBe(201);
    const e = await open(nurse(), { kind: 'teleconsultation' }, patient);
    const { medication_note: _, ...withoutNote } = CONSULTATION;
    expect((await draft(e.id, { ...withoutNote, site_id: siteId })).status).toBe(200);
    const gaps = (await t.http.get(`/api/v1/encounters/${e.id}/rda_gaps`).set(nurse())).body;
    expect(gaps.complete, JSON.stringify(gaps)).toBe(true);
    const recorded: RecordRdaInput[] = [];
    const actor = { kind: 'staff', clientId: org.clientId, userId: org.users.enfermeria.id, role: 'enfermeria' } as StaffPrincipal;
    const deps = {
      sequelize: t.sequelize,
      catalogues: t.catalogues,
      now: () => new Date(),
      clientTimeZone: (id: number) => clientTimeZone(t.sequelize, id),
      recordRda: async (i: RecordRdaInput) => void recorded.push(i),
    };
    await closeEncounter(deps, actor, e.id);
    const statements = (recorded[0].bundle as Json).entry
      .map((x: Json) => x.resource)
      .filter((r: Json) => r.resourceType === 'MedicationStatement');
    expect(statements).toHaveLength(1);
    expect(statements[0].medicationCodeableConcept.text).toMatch(/\S/);
    expect(statements[0].medicationCodeableConcept.text).not.toBe(CONSULTATION.medication_note);
  });
});
