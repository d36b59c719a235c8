import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestProduct, createOrg, bearer, patientBody, BOGOTA, type TestProduct, type Org } from '../support/product';
import { startIhcePeer, type IhcePeer, peerSettings } from '../support/ihce-peer';
import { loadRdaDefinitions, type Json } from '../support/rda-validator';
import { select } from '../../api/src/db/sql';

/**
 * The nota aclaratoria (issue 51): a closed teleconsultation corrected writes a new version of its
 * RDA that replaces the previous one; the Ministry's platform (the loopback peer, which validates
 * every Bundle against the guide's profiles) receives it through `$enviar-nota-aclaratoria` on the
 * id it gave the previous version, which then turns 'corregido'. Every version is kept.
 */

const MIN = 60_000;
let clock = new Date('2026-12-05T15:00:00Z');
let t: TestProduct;
let org: Org;
let other: Org;
let peer: IhcePeer;
let patientId: number;
let siteId: number;

const medico = () => bearer(org.tokens.medico);
const admin = () => bearer(org.tokens.admin);
const drain = () => t.jobs.drain({ now: clock, kinds: ['rda.send'] });
const advance = (ms: number) => (clock = new Date(clock.getTime() + ms));

const CONSULTATION = {
  cups_code: '890301',
  reps_service: '328',
  reason: 'Alerta de presión arterial elevada en el telemonitoreo',
  findings: 'Presión arterial 158/96 mmHg sostenida; sin síntomas de alarma',
  plan: 'Ajustar losartán; control de presión dos veces al día',
  medication_note: 'Losartán 50 mg cada 12 horas',
  diagnoses: [{ code: 'I10X', diagnosis_type: '03' }],
  risk_factors: [{ code: '06', text: 'Sedentarismo y dieta alta en sodio' }],
};
const REASON = 'La dosis del plan quedó mal escrita: son 100 mg, no 50 mg.';
const NEW_PLAN = 'Ajustar losartán a 100 mg cada 12 horas; control de presión dos veces al día';

async function configure(enabled = true) {
  const res = await t.http.put(`/api/v1/clients/${org.clientId}/ihce`).set(admin()).send(peerSettings(peer, enabled));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

beforeAll(async () => {
  t = await startTestProduct({ now: () => clock, allowHttpServices: true });
  org = await createOrg(t, 'Clinica Aclaraciones');
  other = await createOrg(t, 'Clinica Ajena Aclaraciones');
  peer = await startIhcePeer();
  patientId = (
    await t.http
      .post('/api/v1/patients')
      .set(admin())
      .send(patientBody({ biological_sex: '02', residence_zone: '01', nationality: '170', ethnicity: '6' }))
  ).body.id;
  // The national data the RDA names its parties with, through the routes that own it.
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
      sites: [{ name: 'sede chapinero', reps_site_code: '110010012302', city_id: BOGOTA }],
    });
  expect(client.status, JSON.stringify(client.body)).toBe(200);
  siteId = client.body.sites[0].id;
  const user = await t.http
    .patch(`/api/v1/users/${org.users.medico.id}`)
    .set(admin())
    .send({ id_type: 1, nid: '79123456', profession: '001', rethus_number: '79123456-2010' });
  expect(user.status, JSON.stringify(user.body)).toBe(200);
  loadRdaDefinitions();
}, 120_000);
afterAll(async () => {
  await peer.close();
  await t.stop();
});

/** A teleconsultation closed by the doctor: its id and its RDA's first version. */
async function closedTeleconsultation(): Promise<{ id: number; v1: Json }> {
  const opened = await t.http.post(`/api/v1/patients/${patientId}/encounters`).set(medico()).send({ kind: 'teleconsultation' });
  expect(opened.status, JSON.stringify(opened.body)).toBe(201);
  const id = opened.body.id as number;
  const draft = await t.http
    .patch(`/api/v1/encounters/${id}/teleconsultation`)
    .set(medico())
    .send({ ...CONSULTATION, site_id: siteId });
  expect(draft.status, JSON.stringify(draft.body)).toBe(200);
  const closed = await t.http.post(`/api/v1/encounters/${id}/close`).set(medico());
  expect(closed.status, JSON.stringify(closed.body)).toBe(200);
  const rdaId = closed.body.teleconsultation.rda_id as number;
  expect(rdaId).toEqual(expect.any(Number));
  return { id, v1: await rda(rdaId) };
}

async function rda(id: number) {
  const res = await t.http.get(`/api/v1/rdas/${id}`).set(admin());
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

const amend = (id: number, body: object, by = medico()) => t.http.post(`/api/v1/encounters/${id}/amendments`).set(by).send(body);
const composition = (bundle: Json) => bundle.entry[0].resource as Json;
const sectionText = (bundle: Json, title: RegExp) =>
  (composition(bundle).section as Json[]).find((s) => title.test(s.title))!.text.div as string;

describe('POST /api/v1/encounters/{id}/amendments on a sent RDA', () => {
  it("writes version 2, sends it as a nota aclaratoria on the platform's id of version 1, and keeps both: v1 'corregido', v2 'enviado'", async () => {
    await configure();
    const { id, v1 } = await closedTeleconsultation();
    await drain();
    const sent = await rda(v1.id);
    expect(sent).toMatchObject({ status: 'enviado', version: 1, replaces_id: null, replaced_by_id: null });

    const res = await amend(id, { reason: REASON, changes: { plan: NEW_PLAN } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      version: 2,
      replaces_id: v1.id,
      replaced_by_id: null,
      correction_reason: REASON,
      status: 'pendiente',
      encounter_id: id,
      kind: 'consulta',
    });
    expect(res.body.identifier).not.toBe(v1.identifier);
    await drain();

    const v2 = await rda(res.body.id);
    expect(v2).toMatchObject({ status: 'enviado', status_reason: null, issues: [] });
    const calls = peer.sendsOf(v2.identifier);
    expect(calls.map((c) => [c.path, c.status])).toEqual([[`/fhir/Composition/${sent.remote_id}/$enviar-nota-aclaratoria`, 201]]);
    expect(peer.documents.get(v2.identifier)!.corrects).toBe(sent.remote_id);
    // The Bundle says what it is: amended, replacing version 1's identifier, with the reason.
    expect(composition(v2.bundle)).toMatchObject({
      status: 'amended',
      relatesTo: [
        {
          code: 'replaces',
          targetIdentifier: { system: 'https://fhir.minsalud.gov.co/rda/NamingSystem/identifier-RDA', value: v1.identifier },
        },
      ],
    });
    expect(sectionText(v2.bundle, /soporte/)).toContain(REASON);
    expect(JSON.stringify(v2.bundle)).toContain(NEW_PLAN);

    // Version 1 is kept exactly as it was sent, now 'corregido', pointing to version 2.
    const old = await rda(v1.id);
    expect(old).toMatchObject({ status: 'corregido', replaced_by_id: v2.id, remote_id: sent.remote_id });
    expect(old.status_reason).toMatch(/versión 2/);
    expect(old.bundle).toEqual(v1.bundle);
    expect(composition(old.bundle).status).toBe('final');
    expect(JSON.stringify(old.bundle)).not.toContain(NEW_PLAN);
    expect(peer.sendsOf(v1.identifier)).toHaveLength(1);

    // The history, from either version; the teleconsultation shows the change and its latest version.
    expect((await rda(v2.id)).versions.map((v: Json) => [v.version, v.status, v.correction_reason])).toEqual([
      [1, 'corregido', null],
      [2, 'enviado', REASON],
    ]);
    expect((await rda(v1.id)).versions.map((v: Json) => v.id)).toEqual([v1.id, v2.id]);
    const encounter = (await t.http.get(`/api/v1/encounters/${id}`).set(medico())).body;
    expect(encounter.teleconsultation).toMatchObject({ plan: NEW_PLAN, rda_id: v2.id });
    const listed = await t.http.get('/api/v1/rdas').query({ patient_id: patientId }).set(admin());
    expect(listed.body.find((r: Json) => r.id === v1.id)).toMatchObject({ replaced_by_id: v2.id, status: 'corregido' });

    // A second correction corrects version 2 the same way.
    const third = await amend(id, {
      reason: 'Se agrega la comorbilidad de diabetes omitida.',
      changes: { diagnoses: [{ code: 'I10X', diagnosis_type: '03' }, { code: 'E119' }] },
    });
    expect(third.status, JSON.stringify(third.body)).toBe(201);
    expect(third.body).toMatchObject({ version: 3, replaces_id: v2.id });
    await drain();
    expect((await rda(third.body.id)).status).toBe('enviado');
    expect(peer.sendsOf(third.body.identifier)[0].path).toBe(`/fhir/Composition/${v2.remote_id}/$enviar-nota-aclaratoria`);
    expect((await rda(v2.id)).status).toBe('corregido');
  }, 120_000);

  it("marks the correction 'rechazado' with the platform's issues when the platform refuses it, and leaves version 1 'enviado'", async () => {
    await configure();
    const { id, v1 } = await closedTeleconsultation();
    await drain();
    const sent = await rda(v1.id);
    expect(sent.status).toBe('enviado');
    // The platform no longer knows the document corrected: it answers 404 not-found.
    peer.documents.delete(v1.identifier);
    const res = await amend(id, { reason: REASON, changes: { plan: NEW_PLAN } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await drain();
    const v2 = await rda(res.body.id);
    expect(v2.status).toBe('rechazado');
    expect(v2.issues).toEqual([expect.objectContaining({ code: 'not-found', message: expect.stringContaining(sent.remote_id) })]);
    expect(await rda(v1.id)).toMatchObject({ status: 'enviado', replaced_by_id: v2.id });
  }, 120_000);
});

describe('POST /api/v1/encounters/{id}/amendments before version 1 reached the platform', () => {
  it('waits for version 1 on its way (saying so), then sends the correction on its id', async () => {
    await configure();
    const { id, v1 } = await closedTeleconsultation();
    peer.fail('503');
    const res = await amend(id, { reason: REASON, changes: { plan: NEW_PLAN } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await drain();
    expect((await rda(v1.id)).status).toBe('pendiente');
    const waiting = await rda(res.body.id);
    expect(waiting).toMatchObject({ status: 'pendiente', next_attempt_at: null, attempts: 0 });
    expect(waiting.status_reason).toMatch(/espera a que la plataforma IHCE reciba la versión 1/);
    expect(peer.sendsOf(waiting.identifier)).toHaveLength(0);
    // 'Reenviar' does not send it ahead of version 1.
    const resend = await t.http.post(`/api/v1/rdas/${waiting.id}/resend`).set(admin());
    expect(resend.status).toBe(400);
    expect(resend.body.errors).toEqual([{ field: 'status', message: expect.stringMatching(/espera/) }]);

    advance(2 * MIN);
    await drain();
    const first = await rda(v1.id);
    const v2 = await rda(res.body.id);
    expect(v2.status).toBe('enviado');
    expect(first.status).toBe('corregido');
    expect(peer.sendsOf(v2.identifier).map((c) => c.path)).toEqual([`/fhir/Composition/${first.remote_id}/$enviar-nota-aclaratoria`]);
    expect(peer.sendsOf(v2.identifier)).toHaveLength(1);
  }, 120_000);

  it("sends the correction as a new document when version 1 was never sent, and version 1 never: 'corregido' at once", async () => {
    await configure(false);
    const { id, v1 } = await closedTeleconsultation();
    expect(v1.status).toBe('sin_enviar');
    const res = await amend(id, { reason: REASON, changes: { plan: NEW_PLAN } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ version: 2, status: 'sin_enviar' });
    const retired = await rda(v1.id);
    expect(retired).toMatchObject({ status: 'corregido', replaced_by_id: res.body.id });
    expect(retired.status_reason).toMatch(/antes de llegar a la plataforma IHCE/);
    // Version 1 cannot be resent; the settings arriving send version 2 only, as a new document.
    expect((await t.http.post(`/api/v1/rdas/${v1.id}/resend`).set(admin())).status).toBe(400);
    await configure();
    await drain();
    expect(peer.sendsOf(v1.identifier)).toHaveLength(0);
    const v2 = await rda(res.body.id);
    expect(v2.status).toBe('enviado');
    expect(peer.sendsOf(v2.identifier).map((c) => c.path)).toEqual(['/fhir/Composition/$enviar-rda-consulta']);
    expect((await rda(v1.id)).status).toBe('corregido');
  }, 120_000);
});

describe('what a nota aclaratoria refuses', () => {
  let id: number;
  let v1: Json;
  const count = async () =>
    Number((await select<{ n: number }>(t.sequelize, 'SELECT COUNT(*) AS n FROM rdas WHERE encounter_id = :id', { id }))[0].n);

  beforeAll(async () => {
    await configure(false);
    ({ id, v1 } = await closedTeleconsultation());
  }, 120_000);

  it('refuses a change that leaves a gap with 409 and each gap, changing nothing', async () => {
    const res = await amend(id, { reason: REASON, changes: { findings: '  ', plan: NEW_PLAN } });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('rda_incomplete');
    expect(res.body.errors).toContainEqual({ field: 'encounter.findings', message: expect.any(String) });
    expect(res.body.message).toMatch(/nota aclaratoria/);
    const e = (await t.http.get(`/api/v1/encounters/${id}`).set(medico())).body;
    expect(e.teleconsultation).toMatchObject({ findings: CONSULTATION.findings, plan: CONSULTATION.plan, rda_id: v1.id });
    expect(await count()).toBe(1);
  });

  it("refuses a reason shorter than 10 characters, naming the field 'reason'", async () => {
    for (const reason of ['corto', '     x       ']) {
      const res = await amend(id, { reason, changes: { plan: NEW_PLAN } });
      expect(res.status, reason).toBe(400);
      expect(res.body.errors).toEqual([{ field: 'reason', message: expect.stringMatching(/motivo de la aclaración/) }]);
    }
    const missing = await amend(id, { changes: { plan: NEW_PLAN } });
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0].field).toBe('reason');
    const noChange = await amend(id, { reason: REASON, changes: {} });
    expect(noChange.status).toBe(400);
    expect(await count()).toBe(1);
  });

  it('is not found from another organisation and forbidden to a read-only user', async () => {
    expect((await amend(id, { reason: REASON, changes: { plan: NEW_PLAN } }, bearer(other.tokens.admin))).status).toBe(404);
    expect((await amend(id, { reason: REASON, changes: { plan: NEW_PLAN } }, bearer(other.tokens.medico))).status).toBe(404);
    expect((await amend(id, { reason: REASON, changes: { plan: NEW_PLAN } }, bearer(org.tokens.consulta))).status).toBe(403);
    expect(await count()).toBe(1);
  });

  it('refuses a teleconsultation that is still open: its draft is changed and closed instead', async () => {
    const opened = await t.http.post(`/api/v1/patients/${patientId}/encounters`).set(medico()).send({ kind: 'teleconsultation' });
    const res = await amend(opened.body.id, { reason: REASON, changes: { plan: NEW_PLAN } });
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/no está cerrada/);
  });
});
