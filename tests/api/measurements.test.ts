import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, it, expect, beforeAll, afterAll, vi } from 'vitest';
import { execute, select } from '../../api/src/db/sql';
import { startTestProduct, createOrg, bearer, patientBody, type TestProduct, type Org } from '../support/product';
import { pdfText } from '../support/pdf-text';

let t: TestProduct;
let a: Org;
let b: Org;
let clock = new Date('2026-11-21T15:00:00Z');
let patientId: number;

const url = (id = patientId) => `/api/v1/patients/${id}/measurements`;
const post = (body: unknown, token = a.tokens.enfermeria, id = patientId) =>
  t.http
    .post(url(id))
    .set(bearer(token))
    .send(body as object);
const list = (query: Record<string, unknown> = {}, token = a.tokens.consulta, id = patientId) =>
  t.http.get(url(id)).query(query).set(bearer(token));

async function newPatient(org: Org, nid: string): Promise<number> {
  const res = await t.http
    .post('/api/v1/patients')
    .set(bearer(org.tokens.admin))
    .send(patientBody({ nid, cellphone: `300${nid.slice(-7)}` }));
  expect(res.status).toBe(201);
  return res.body.id;
}

async function patientToken(nid: string, phone: string): Promise<string> {
  const req = await t.http.post('/api/v1/request_otp').send({ nid });
  for (let i = 0; i < 500; i++) {
    const sms = await t.http.get(`/api/v1/sms_outbox?to=${phone}`).set(bearer(a.tokens.admin));
    if (sms.body.length) {
      const code = sms.body[0].body.match(/\d{4,8}/)![0];
      const ok = await t.http.post('/api/v1/verify_otp').send({ nid, otp_code: code, challenge_id: req.body.challenge_id });
      return ok.body.token;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('no SMS');
}

beforeAll(async () => {
  t = await startTestProduct({ now: () => clock });
  a = await createOrg(t, 'Clinica Signos');
  b = await createOrg(t, 'Clinica Ajena');
  patientId = await newPatient(a, '1012345678');
});
afterAll(() => t.stop());

describe('POST /api/v1/patients/:id/measurements', () => {
  it('stores one reading with its element name and unit, as the nurse who entered it', async () => {
    const res = await post({ clinical_element: 1, value: 72, when: '2026-11-21T13:00:00Z' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual([
      expect.objectContaining({
        patient_id: patientId,
        clinical_element: 1,
        value: 72,
        when: '2026-11-21T13:00:00.000Z',
        clinical_element_name: 'Frecuencia cardiaca',
        clinical_element_unit: 'lpm',
        eraseble: true,
        status: 0,
        comment: null,
        source: 'staff',
      }),
    ]);
    const [row] = await select<{ created_by: number }>(t.sequelize, 'SELECT created_by FROM measurements WHERE id = :id', {
      id: res.body[0].id,
    });
    expect(row.created_by).toBe(a.users.enfermeria.id);
  });

  it('stores blood pressure as two rows, systolic 3 and diastolic 4, with the same when', async () => {
    const res = await post({ systolic: 128, diastolic: 84, when: '2026-11-21T13:05:00Z' }, a.tokens.medico);
    expect(res.status).toBe(201);
    expect(res.body.map((m: { clinical_element: number; value: number; when: string }) => [m.clinical_element, m.value, m.when])).toEqual([
      [3, 128, '2026-11-21T13:05:00.000Z'],
      [4, 84, '2026-11-21T13:05:00.000Z'],
    ]);
  });

  it('stores a list in one call, reads code 0 as heart rate and defaults when to now', async () => {
    const res = await post(
      {
        measurements: [
          { clinical_element: 0, value: 80 },
          { clinical_element: 7, value: 36.5 },
          { clinical_element: 5, value: 70.2 },
        ],
      },
      a.tokens.admin,
    );
    expect(res.status).toBe(201);
    expect(res.body.map((m: { clinical_element: number }) => m.clinical_element)).toEqual([1, 7, 5]);
    expect(res.body[0].when).toBe(clock.toISOString());
  });

  it('accepts a body wrapped in {"measurement": ...} (D21)', async () => {
    expect((await post({ measurement: { clinical_element: 2, value: 97 } })).status).toBe(201);
  });

  it.each([
    [{ clinical_element: 1, value: 72.25 }, 'value', '¡Ingrese solo números enteros o con un decimal (ej: 5.5)'],
    [{ clinical_element: 1, value: -3 }, 'value', '¡Ingrese solo números enteros o con un decimal (ej: 5.5)'],
    [{ clinical_element: 1, value: 300 }, 'value', 'El valor debe estar entre 20 y 250 lpm'],
    [{ clinical_element: 2, value: 101 }, 'value', 'El valor debe estar entre 50 y 100 %'],
    [{ clinical_element: 7, value: 46 }, 'value', 'El valor debe estar entre 30 y 45 °C'],
    [{ clinical_element: 6, value: 5 }, 'value', 'El valor debe estar entre 10 y 1000 mg/dL'],
    [{ clinical_element: 5, value: 0.5 }, 'value', 'El valor debe estar entre 1 y 500 kg'],
    [{ clinical_element: 1 }, 'value', '¡El campo es requerido!'],
    [{ value: 72 }, 'clinical_element', '¡El campo es requerido!'],
    [{ clinical_element: 9, value: 72 }, 'clinical_element', 'Elemento clínico no válido'],
    [{ clinical_element: 4, value: 80 }, 'diastolic', 'La presión arterial se registra con sistólica y diastólica juntas.'],
    [{ systolic: 120 }, 'diastolic', 'La presión arterial se registra con sistólica y diastólica juntas.'],
    [{ systolic: 80, diastolic: 90 }, 'systolic', 'La presión sistólica debe ser mayor que la diastólica.'],
    [{ systolic: 120, diastolic: 250 }, 'diastolic', 'El valor debe estar entre 20 y 200 mmHg'],
    [{ clinical_element: 1, value: 72, when: '2026-11-21T15:10:00Z' }, 'when', 'La fecha de la medición no puede ser futura.'],
    [{ clinical_element: 1, value: 72, when: 'ayer' }, 'when', 'La fecha y hora no es válida.'],
    [{ clinical_element: 1, value: 'setenta' }, 'value', 'Debe ser un número.'],
    [{ clinical_element: 1, value: 72, extra: 1 }, 'extra', "El campo 'extra' no está permitido."],
    [
      {
        measurements: [
          { clinical_element: 1, value: 72 },
          { clinical_element: 1, value: 10 },
        ],
      },
      'measurements.1.value',
      'El valor debe estar entre 20 y 250 lpm',
    ],
    [{ measurements: [] }, 'measurements', 'Debe tener al menos 1 elementos.'],
    [
      { clinical_element: 1, value: 72, measurements: [{ clinical_element: 1, value: 72 }] },
      'measurements',
      'Envíe una lectura o una lista de lecturas, no ambas.',
    ],
  ])('refuses %j with 400 on %s', async (body, field, message) => {
    const before = await select<{ n: number }>(t.sequelize, 'SELECT COUNT(*) AS n FROM measurements');
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
    expect(res.body.message).toBe(message);
    expect(await select(t.sequelize, 'SELECT COUNT(*) AS n FROM measurements')).toEqual(before);
  });

  it('does not let consulta record readings (403), whatever the patient', async () => {
    const res = await post({ clinical_element: 1, value: 72 }, a.tokens.consulta);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Su rol no permite realizar esta acción.');
    expect((await post({ clinical_element: 1, value: 72 }, a.tokens.consulta, 987654)).status).toBe(403);
  });

  it("answers 404 for another client's patient, exactly like a missing one", async () => {
    const foreign = await post({ clinical_element: 1, value: 72 }, b.tokens.admin);
    const missing = await post({ clinical_element: 1, value: 72 }, b.tokens.admin, 987654);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(missing.body);
  });

  // The patient is read once while active, changed by another path (sql.ts for one, sequelize.query
  // for the other), and the next reading must see the change: nothing may keep the row between
  // requests without hearing both paths (P198).
  it.each([
    [0, 'sql.ts', 'El paciente está inactivo y no puede enviar mediciones. Actívelo para registrarlas.'],
    [3, 'sequelize.query', 'El paciente está registrado como fallecido y no puede recibir mediciones.'],
  ])('refuses readings for a patient with status %i (409), changed through %s', async (status, path, message) => {
    const id = await newPatient(a, `10200000${status}1`);
    expect((await post({ clinical_element: 1, value: 72 }, a.tokens.admin, id)).status).toBe(201);
    const change = 'UPDATE patients SET status = :status WHERE id = :id';
    if (path === 'sql.ts') await execute(t.sequelize, change, { status, id });
    else await t.sequelize.query(change, { replacements: { status, id } });
    const res = await post({ clinical_element: 1, value: 72 }, a.tokens.admin, id);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(message);
    expect(await select(t.sequelize, 'SELECT id FROM measurements WHERE patient_id = :id', { id })).toHaveLength(1);
  });
  // Issue 52: at the end of each bench phase the load generator closes its connections with
  // requests in flight. The session is read before the body (sessionFirst); for a client gone by
  // then, body-parser reads nothing (it skips a finished request), and the handler ran with no
  // body: 'unhandled error', TypeError reading 'measurements'.
  it('runs no handler for a reading whose client went away before its body was read', async () => {
    const server = http.createServer(t.app).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const { port } = server.address() as AddressInfo;
    const errors = vi.spyOn(t.observability.logger, 'error');
    const body = JSON.stringify({ clinical_element: 1, value: 71 });
    try {
      // The client sends the whole request and closes its side at once, as a load generator
      // closing its connections does; the server reads the session while the close arrives.
      await Promise.all(
        Array.from(
          { length: 5 },
          () =>
            new Promise<void>((resolve, reject) => {
              const socket = net.connect(port, '127.0.0.1', () => {
                socket.end(
                  `POST ${url()} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${a.tokens.enfermeria}\r\n` +
                    `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
                );
              });
              socket.resume();
              socket.on('close', () => resolve());
              socket.on('error', reject);
            }),
        ),
      );
      // The session reads and whatever ran after them. (A request whose body the server had read
      // before it saw the close may be stored: its answer just has nowhere to go.)
      await new Promise((r) => setTimeout(r, 500));
      expect(errors.mock.calls.map((c) => c[1])).toEqual([]);
      // A reading sent in full is stored as before.
      expect((await post({ clinical_element: 1, value: 71 })).status).toBe(201);
    } finally {
      errors.mockRestore();
      await new Promise((r) => server.close(r));
    }
  });
});

describe('measurement hooks (D10): a staff reading runs the alarm check in its transaction', () => {
  it('opens an alert for a reading outside the assigned rule, none for one inside', async () => {
    const id = await newPatient(a, '1090000001');
    const alarm = await t.http
      .post('/api/v1/alarms')
      .set(bearer(a.tokens.admin))
      .send({ name: 'Taquicardia', clinical_element: 1, priority: 1, minimum_condition: 50, maximum_condition: 110 });
    expect(alarm.status).toBe(201);
    expect(
      (
        await t.http
          .put(`/api/v1/patients/${id}`)
          .set(bearer(a.tokens.admin))
          .send({ alarm_ids: [alarm.body.id] })
      ).status,
    ).toBe(200);
    expect((await post({ clinical_element: 1, value: 90 }, a.tokens.enfermeria, id)).status).toBe(201);
    expect(await select(t.sequelize, 'SELECT id FROM alerts WHERE patient_id = :id', { id })).toHaveLength(0);
    expect((await post({ clinical_element: 1, value: 130 }, a.tokens.enfermeria, id)).status).toBe(201);
    expect(await select(t.sequelize, 'SELECT id FROM alerts WHERE patient_id = :id', { id })).toHaveLength(1);
  });
});

describe('GET /api/v1/patients/:id/measurements', () => {
  let id: number;
  beforeAll(async () => {
    id = await newPatient(a, '1030000001');
    const readings = Array.from({ length: 12 }, (_, i) => ({
      clinical_element: 1,
      value: 60 + i,
      when: new Date(Date.UTC(2026, 10, 1 + i, 13)).toISOString(),
    }));
    expect(
      (await post({ measurements: [...readings, { clinical_element: 7, value: 37, when: '2026-11-05T13:00:00Z' }] }, a.tokens.admin, id))
        .status,
    ).toBe(201);
  });

  it('lists one element in ascending order for charts, with the total', async () => {
    const res = await list({ clinical_element: 1, order: 'asc' }, a.tokens.consulta, id);
    expect(res.status).toBe(200);
    expect(res.headers['x-total-count']).toBe('12');
    expect(res.body.map((m: { value: number }) => m.value)).toEqual([60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71]);
  });

  it("pages the latest readings first with _start/_end and filters by a period in the patient's zone", async () => {
    const latest = await list({ clinical_element: 1, order: 'desc', _start: 0, _end: 3 }, a.tokens.consulta, id);
    expect(latest.body.map((m: { value: number }) => m.value)).toEqual([71, 70, 69]);
    expect(latest.headers['x-total-count']).toBe('12');
    // 2026-11-03 and 2026-11-04 in Bogotá: 08:00 local readings of those two days.
    const period = await list({ start_at: '2026-11-03', end_at: '2026-11-04', order: 'asc' }, a.tokens.consulta, id);
    expect(period.body.map((m: { value: number }) => m.value)).toEqual([62, 63]);
  });

  it('refuses an end before the start and a malformed date', async () => {
    expect((await list({ start_at: '2026-11-05', end_at: '2026-11-01' }, a.tokens.consulta, id)).body).toMatchObject({
      field: 'end_at',
      message: 'La fecha final debe ser posterior a la inicial.',
    });
    expect((await list({ start_at: '05/11/2026' }, a.tokens.consulta, id)).body).toMatchObject({
      field: 'start_at',
      message: 'La fecha no es válida',
    });
  });

  it("lets the patient's own token read its readings, and nobody else's", async () => {
    const token = await patientToken('1030000001', '3000000001');
    const own = await list({ clinical_element: 7 }, token, id);
    expect(own.status).toBe(200);
    expect(own.body).toHaveLength(1);
    expect((await list({}, token, patientId)).status).toBe(404);
    expect((await t.http.post(url(id)).set(bearer(token)).send({ clinical_element: 1, value: 72 })).status).toBe(401);
  });

  it("answers 404 for another client's patient", async () => {
    expect((await list({}, b.tokens.consulta, id)).status).toBe(404);
  });
});

describe('PUT|PATCH /api/v1/patients/:id/measurements/:mid (soft delete, D15)', () => {
  let id: number;
  let heart: number;
  beforeAll(async () => {
    id = await newPatient(a, '1040000001');
    const res = await post(
      {
        measurements: [
          { clinical_element: 1, value: 75, when: '2026-11-20T13:00:00Z' },
          { systolic: 130, diastolic: 85, when: '2026-11-20T13:01:00Z' },
        ],
      },
      a.tokens.admin,
      id,
    );
    heart = res.body[0].id;
  });
  const del = (mid: number, body: object, token = a.tokens.enfermeria, method: 'put' | 'patch' = 'put') =>
    t.http[method](`${url(id)}/${mid}`)
      .set(bearer(token))
      .send(body);

  it.each([
    [{ status: 1, comment: 'x'.repeat(14) }, 'comment', 'Debe tener mínimo 15 caracteres y máximo 140'],
    [{ status: 1, comment: 'x'.repeat(141) }, 'comment', 'Debe tener mínimo 15 caracteres y máximo 140'],
    [{ status: 1, comment: `   ${'x'.repeat(13)}   ` }, 'comment', 'Debe tener mínimo 15 caracteres y máximo 140'],
    [{ status: 1 }, 'comment', '¡El campo es requerido!'],
    [{ status: 0, comment: 'Lectura duplicada por error' }, 'status', 'Solo se permite eliminar la medición (status 1).'],
  ])('refuses %j with 400 on %s', async (body, field, message) => {
    const res = await del(heart, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field, message });
  });

  it('does not let consulta delete (403), and another client gets 404', async () => {
    expect((await del(heart, { status: 1, comment: 'Lectura duplicada por error' }, a.tokens.consulta)).status).toBe(403);
    expect((await del(heart, { status: 1, comment: 'Lectura duplicada por error' }, b.tokens.admin)).status).toBe(404);
  });

  it('deletes with a 15-character reason, hides the reading from lists by default and refuses a second delete', async () => {
    const res = await del(heart, { status: 1, comment: 'x'.repeat(15) }, a.tokens.enfermeria, 'patch');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: heart, status: 1, comment: 'x'.repeat(15) });
    expect((await list({ clinical_element: 1 }, a.tokens.consulta, id)).body).toEqual([]);
    const all = await list({ clinical_element: 1, include_deleted: true }, a.tokens.consulta, id);
    expect(all.body).toEqual([expect.objectContaining({ id: heart, status: 1, comment: 'x'.repeat(15) })]);
    const again = await del(heart, { status: 1, comment: 'x'.repeat(15) });
    expect(again.status).toBe(409);
  });

  it('removes systolic and diastolic together (blood pressure is one reading)', async () => {
    const [sys] = (await list({ clinical_element: 3 }, a.tokens.consulta, id)).body;
    expect((await del(sys.id, { status: 1, comment: 'Brazalete mal colocado' })).status).toBe(200);
    expect((await list({ clinical_element: 4 }, a.tokens.consulta, id)).body).toEqual([]);
  });

  it('refuses to delete a reading not flagged eraseble', async () => {
    const [m] = (await post({ clinical_element: 6, value: 110 }, a.tokens.admin, id)).body;
    await execute(t.sequelize, 'UPDATE measurements SET eraseble = :no WHERE id = :id', { no: false, id: m.id });
    const res = await del(m.id, { status: 1, comment: 'Lectura duplicada por error' });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Esta medición no se puede eliminar.');
  });
});

describe('report downloads (D4): CSV and PDF through short-lived signed links', () => {
  let id: number;
  beforeAll(async () => {
    id = await newPatient(a, '1050000001');
    await post(
      {
        measurements: [
          { clinical_element: 1, value: 70, when: '2026-11-10T13:00:00Z' },
          { clinical_element: 7, value: 36.5, when: '2026-11-11T13:00:00Z' },
          { systolic: 120, diastolic: 80, when: '2026-11-12T13:00:00Z' },
          { clinical_element: 1, value: 90, when: '2026-09-01T13:00:00Z' },
        ],
      },
      a.tokens.admin,
      id,
    );
    // Legacy data migrated from the old product may hold formula-like text.
    await execute(t.sequelize, 'UPDATE patients SET first_name = \'=HYPERLINK("http://x")\' WHERE id = :id', { id });
  });

  it('streams the CSV: BOM, Spanish headers, local times, the period only, formula cells neutralised', async () => {
    const link = await list({ format: 'csv', start_at: '2026-11-01', end_at: '2026-11-21' }, a.tokens.consulta, id);
    expect(link.status).toBe(200);
    expect(link.body).toEqual({
      url: expect.stringMatching(/^\/api\/v1\/downloads\/[\w-]+\.[\w-]+$/),
      expires_at: '2026-11-21T15:05:00.000Z',
    });
    const file = await t.http
      .get(link.body.url)
      .buffer(true)
      .parse((res, cb) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => cb(null, Buffer.concat(chunks)));
      });
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(file.headers['content-disposition']).toContain('attachment; filename="mediciones-1050000001.csv"');
    const text = (file.body as Buffer).toString('utf8');
    expect(text.startsWith('\ufeff')).toBe(true);
    const lines = text.slice(1).trim().split('\n');
    expect(lines[0]).toBe('Documento,Paciente,Fecha y hora (America/Bogota),Elemento clínico,Valor,Unidad,Código LOINC,Origen');
    expect(lines).toHaveLength(5);
    expect(lines[1]).toBe(`1050000001,"'=HYPERLINK(""http://x"") PÉREZ GÓMEZ",2026-11-10 08:00,Frecuencia cardiaca,70,lpm,8867-4,Personal`);
    expect(lines[2]).toContain(',Temperatura,36.5,°C,8310-5,');
    expect(lines.slice(3).map((l) => l.split(',').slice(3, 5).join(' '))).toEqual(['Presión sistólica 120', 'Presión diastólica 80']);
  });

  it('filters the CSV by clinical element', async () => {
    const link = await list({ format: 'csv', start_at: '2026-11-01', end_at: '2026-11-21', clinical_element: 7 }, a.tokens.consulta, id);
    const file = await t.http.get(link.body.url);
    expect(file.text.trim().split('\n')).toHaveLength(2);
  });

  it('serves the PDF, and the link expires after 5 minutes', async () => {
    const link = await t.http
      .get(`/api/v1/patients/${id}/show_pdf`)
      .query({ start_at: '2026-11-01', end_at: '2026-11-21' })
      .set(bearer(a.tokens.consulta));
    expect(link.status).toBe(200);
    const file = await t.http
      .get(link.body.url)
      .buffer(true)
      .parse((res, cb) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => cb(null, Buffer.concat(chunks)));
      });
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect((file.body as Buffer).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect((file.body as Buffer).length).toBeGreaterThan(2000);

    const saved = clock;
    clock = new Date(saved.getTime() + 5 * 60_000 + 1000);
    try {
      const late = await t.http.get(link.body.url);
      expect(late.status).toBe(410);
      expect(late.body.message).toBe('El enlace de descarga expiró. Genere el reporte de nuevo.');
    } finally {
      clock = saved;
    }
  });

  it("writes the PDF dates day/month/year in the patient's zone, as the screens do (01 §1)", async () => {
    const link = await t.http
      .get(`/api/v1/patients/${id}/show_pdf`)
      .query({ start_at: '2026-11-01', end_at: '2026-11-21' })
      .set(bearer(a.tokens.consulta));
    const file = await t.http
      .get(link.body.url)
      .buffer(true)
      .parse((res, cb) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => cb(null, Buffer.concat(chunks)));
      });
    const text = pdfText(file.body as Buffer);
    expect(text).toContain('Reporte de signos vitales');
    expect(text).toContain('01/11/2026 a 21/11/2026');
    // 15:00 UTC is 10:00 in Bogotá (UTC-5); the readings were taken at 13:00 UTC, 08:00 there.
    expect(text).toContain('21/11/2026 10:00 (America/Bogota)');
    for (const day of ['10/11/2026 08:00', '11/11/2026 08:00', '12/11/2026 08:00']) expect(text).toContain(day);
    // No year-first date anywhere, nor a UTC clock.
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    expect(text).not.toContain('13:00');
  });

  it('refuses altered links and never serves another client', async () => {
    const link = (await list({ format: 'csv' }, a.tokens.consulta, id)).body.url as string;
    const [payload, signature] = link.split('/').pop()!.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, c: b.clientId })).toString('base64url');
    const res = await t.http.get(`/api/v1/downloads/${forged}.${signature}`);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('El enlace de descarga no es válido.');
    // Client B cannot obtain a link for A's patient in the first place.
    expect((await list({ format: 'csv' }, b.tokens.admin, id)).status).toBe(404);
    expect((await t.http.get(`/api/v1/patients/${id}/show_pdf`).set(bearer(b.tokens.admin))).status).toBe(404);
  });

  it('refuses a period longer than a year', async () => {
    const res = await t.http
      .get(`/api/v1/patients/${id}/show_pdf`)
      .query({ start_at: '2024-01-01', end_at: '2026-11-21' })
      .set(bearer(a.tokens.consulta));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: 'end_at', message: 'El periodo no puede superar 366 días.' });
  });
});
