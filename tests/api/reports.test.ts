import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestProduct, createOrg, bearer, patientBody, type TestProduct, type Org } from '../support/product';

/** The reports page (03 §2 'Reportes', §7): CSVs through signed download links (D4), open-alert metrics. */
let t: TestProduct;
let org: Org;
let other: Org;
let patientId: number;
let nid: string;
beforeAll(async () => {
  t = await startTestProduct();
  org = await createOrg(t, 'Clinica Reportes');
  other = await createOrg(t, 'Clinica Otra');
  // A name a spreadsheet would run as a formula is neutralised in every CSV.
  const body = patientBody({ first_name: 'ana', last_name: 'ruiz' });
  nid = body.nid;
  const created = await t.http.post('/api/v1/patients').set(bearer(org.tokens.admin)).send(body);
  expect(created.status).toBe(201);
  patientId = created.body.id;
  await t.http.post(`/api/v1/patients/${patientId}/measurements`).set(bearer(org.tokens.admin)).send({ clinical_element: 1, value: 72 });
  await t.http.post(`/api/v1/patients/${patientId}/measurements`).set(bearer(org.tokens.admin)).send({ systolic: 128, diastolic: 82 });
  await t.http.post(`/api/v1/patients/${patientId}/measurements`).set(bearer(org.tokens.admin)).send({ clinical_element: 1, value: 75 });
});
afterAll(() => t.stop());

async function download(path: string, token = org.tokens.consulta): Promise<string> {
  const link = await t.http.get(path).set(bearer(token));
  expect(link.status, JSON.stringify(link.body)).toBe(200);
  expect(link.body.url).toMatch(/^\/api\/v1\/downloads\//);
  const file = await t.http
    .get(link.body.url)
    .buffer(true)
    .parse((res, cb) => {
      let data = '';
      res.on('data', (c: Buffer) => (data += c.toString('utf8')));
      res.on('end', () => cb(null, data));
    });
  expect(file.status).toBe(200);
  expect(file.headers['content-type']).toContain('text/csv');
  return (file.body as string).replace(/^\ufeff/, '');
}

describe('reports', () => {
  it('exports every reading of the last hours as CSV', async () => {
    const csv = await download('/api/v1/reports/client_measurements?hours=24');
    const lines = csv.trim().split('\n');
    expect(lines[0]).toBe('Documento,Paciente,Fecha y hora,Zona horaria,Elemento clínico,Valor,Unidad,Código LOINC,Origen');
    expect(lines).toHaveLength(5);
    expect(csv).toContain(`${nid},ANA RUIZ`);
    expect(csv).toContain('Presión sistólica,128,mmHg,8480-6');
  });

  it('the vital-signs report has each patient’s latest values of the group', async () => {
    const csv = await download('/api/v1/reports/vital_signs?group=cardiovascular');
    const [header, row] = csv.trim().split('\n');
    expect(header).toBe(
      'Documento,Paciente,Estado,Frecuencia cardiaca (lpm),Fecha Frecuencia cardiaca,Presión sistólica (mmHg),Fecha Presión sistólica,Presión diastólica (mmHg),Fecha Presión diastólica',
    );
    expect(row).toMatch(new RegExp(`^${nid},ANA RUIZ,Activo,75,[0-9-]+ [0-9:]+,128,[0-9-]+ [0-9:]+,82,`));
    const empty = await download('/api/v1/reports/vital_signs?group=glucose');
    expect(empty.trim().split('\n')).toHaveLength(1);
  });

  it('asks for a group with the spec message', async () => {
    const res = await t.http.get('/api/v1/reports/vital_signs').set(bearer(org.tokens.consulta));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: 'group', message: 'Seleccione un grupo de signos vitales' });
    const bad = await t.http.get('/api/v1/reports/vital_signs?group=renal').set(bearer(org.tokens.consulta));
    expect(bad.body).toMatchObject({ field: 'group', message: 'Seleccione un grupo de signos vitales' });
  });

  it('lists patient status changes between dates (from patient_status_changes)', async () => {
    const changed = await t.http.patch(`/api/v1/patients/${patientId}`).set(bearer(org.tokens.admin)).send({ status: 0 });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    const csv = await download(`/api/v1/reports/patient_status_changes?start_date=2020-01-01&end_date=${today}`);
    const lines = csv.trim().split('\n');
    expect(lines[0]).toBe('Fecha y hora,Documento,Paciente,Estado anterior,Estado nuevo,Usuario');
    expect(lines.some((l) => l.includes(`${nid},ANA RUIZ,Activo,Inactivo,ANA ADMIN`))).toBe(true);
    const before = await download('/api/v1/reports/patient_status_changes?end_date=2020-01-01');
    expect(before.trim().split('\n')).toHaveLength(1);
  });

  it.each([
    ['', 'start_date', 'Seleccione al menos una fecha de inicio o de fin.'],
    ['?start_date=2026-02-01&end_date=2026-01-01', 'end_date', 'La fecha final debe ser posterior a la inicial.'],
    ['?start_date=2026-13-01', 'start_date', 'La fecha no es válida (formato AAAA-MM-DD).'],
  ])('refuses status-change dates %s', async (query, field, message) => {
    const res = await t.http.get(`/api/v1/reports/patient_status_changes${query}`).set(bearer(org.tokens.consulta));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field, message });
  });

  it('refuses hours outside 1, 3, 6, 9, 12, 24', async () => {
    const res = await t.http.get('/api/v1/reports/client_measurements?hours=5').set(bearer(org.tokens.consulta));
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('hours');
  });

  it('counts open alerts by priority, only the client’s own', async () => {
    // Rows as the alerts module stores them (status 1 open, 2 closed; priority 1 Alta, 2 Media, 3 Baja).
    for (const [priority, status] of [
      [1, 1],
      [1, 1],
      [2, 1],
      [3, 1],
      [3, 2],
    ]) {
      await t.sequelize.query(
        'INSERT INTO alerts (client_id, patient_id, alert_type, status, priority, created_at, updated_at) VALUES (:c, :p, 1, :status, :priority, :now, :now)',
        { replacements: { c: org.clientId, p: patientId, status, priority, now: new Date() } },
      );
    }
    const res = await t.http.get('/api/v1/reports/client_opened_alerts').set(bearer(org.tokens.consulta));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ by_priority: { high: 2, medium: 1, low: 1 }, total: 4 });
    const theirs = await t.http.get('/api/v1/reports/client_opened_alerts').set(bearer(other.tokens.admin));
    expect(theirs.body.total).toBe(0);
  });

  it('another client’s download sees only its own rows', async () => {
    const csv = await download('/api/v1/reports/client_measurements?hours=24', other.tokens.admin);
    expect(csv.trim().split('\n')).toHaveLength(1);
  });
});
