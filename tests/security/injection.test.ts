import type { Response } from 'superagent';
import zlib from 'node:zlib';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execute } from '../../api/src/db/sql';
import { startTestProduct, createOrg, bearer, patientBody, type TestProduct, type Org } from '../support/product';

/**
 * Stored HTML/script and spreadsheet-formula payloads (OWASP XSS, CSV injection) come back inert:
 * the API keeps them as plain JSON strings, every CSV export neutralises a cell a spreadsheet would
 * run (leading apostrophe, P27), and the PDF carries them as drawn text with no script or action.
 * The browser half (the admin renders them as text, no dialog fires) is tests/e2e/injection.test.ts.
 */
export const HTML_PAYLOADS = [
  '<img src=x onerror=alert(1)>',
  '<script>alert("xss")</script>',
  '"><svg onload=alert(1)>',
  "javascript:alert('x')",
];
export const CSV_PAYLOADS = [
  "=cmd|' /C calc'!A0",
  '+SUM(1,2)',
  "-2+3+cmd|' /C calc'!A0",
  "@SUM(1+1)*cmd|' /C calc'!A0",
  '\t=1+1',
  '\r=1+1',
  '=HYPERLINK("http://x.test","clic")',
];
const PAYLOADS = [...HTML_PAYLOADS, ...CSV_PAYLOADS];

let t: TestProduct;
let org: Org;
const stored: Array<{ field: string; payload: string; patientId?: number }> = [];
/** Patients whose names hold a payload written straight into the database (legacy or imported rows). */
const legacy: Array<{ payload: string; patientId: number }> = [];
const refused: Array<{ field: string; payload: string; message: string }> = [];
const figures = { payloads: PAYLOADS.length, stored: 0, refused: 0, legacyNames: 0, csvCellsChecked: 0, pdfsChecked: 0 };

beforeAll(async () => {
  t = await startTestProduct();
  org = await createOrg(t, 'Clinica Inyeccion');
});
afterAll(async () => {
  console.info(`[security] injection: ${JSON.stringify(figures)}`);
  await t?.stop();
});

const admin = () => bearer(org.tokens.admin);
let nid = 7_500_000_000;

/** Stores the payload; a 400 with a Spanish message (the field's own rule) is an inert outcome too. */
async function store(field: string, payload: string, send: () => Promise<{ status: number; body: { id?: number; message: string } }>) {
  const res = await send();
  expect(res.status, `${field} ${JSON.stringify(payload)}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
  if (res.status < 300) {
    stored.push({ field, payload });
    figures.stored++;
    return res.body;
  }
  expect(res.status).toBe(400);
  expect(res.body.message).toMatch(/[a-záéíóúñ]/i);
  refused.push({ field, payload, message: res.body.message });
  figures.refused++;
  return null;
}

/** RFC 4180 cells of a CSV text (quoted fields may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n' || (c === '\r' && text[i + 1] === '\n')) {
      if (c === '\r') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  if (cell || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

/** A spreadsheet runs a cell starting with = + - @ tab or CR (OWASP). */
const RUNS_AS_FORMULA = /^[=+\-@\t\r]/;

const binary = (res: Response, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
};

describe('stored payloads', () => {
  it('are stored verbatim or refused with a Spanish message, never a 5xx', async () => {
    const tag = await store('tag name', 'etiqueta', () =>
      t.http.post('/api/v1/tags').set(admin()).send({ name: 'etiqueta base', color: 'red' }),
    );
    for (const [i, payload] of PAYLOADS.entries()) {
      const p = await store('patient name', payload, () =>
        t.http
          .post('/api/v1/patients')
          .set(admin())
          .send(patientBody({ nid: String(++nid), first_name: payload, last_name: `x ${payload}` })),
      );
      const host =
        p?.id ??
        (
          await t.http
            .post('/api/v1/patients')
            .set(admin())
            .send(patientBody({ nid: String(++nid) }))
        ).body.id;
      await store('tag name', payload, () =>
        t.http
          .post('/api/v1/tags')
          .set(admin())
          .send({ name: `${payload.slice(0, 36)} ${i}`, color: 'blue' }),
      );
      const note = await store('note', payload, () =>
        t.http.post(`/api/v1/patients/${host}/observations`).set(admin()).send({ observation_type: 0, value_text: payload }),
      );
      if (note) stored[stored.length - 1].patientId = host;
      await store('condition notes', payload, () =>
        t.http.post(`/api/v1/patients/${host}/conditions`).set(admin()).send({ condition_type_id: 1, notes: payload }),
      );
      await store('address', payload, () =>
        t.http
          .put(`/api/v1/patients/${host}`)
          .set(admin())
          .send({ address: payload, tag_ids: tag ? [tag.id] : [] }),
      );
      await store('reading comment', payload, async () => {
        const m = await t.http.post(`/api/v1/patients/${host}/measurements`).set(admin()).send({ clinical_element: 1, value: 70 });
        return t.http
          .put(`/api/v1/patients/${host}/measurements/${m.body[0].id}`)
          .set(admin())
          .send({ status: 1, comment: `Anulada por ${payload}`.slice(0, 140).padEnd(15, '.') });
      });
    }
    // Names accept letters and spaces only (01 §5), so the API refuses every payload there: the
    // first line of defence. The exports must still be safe for rows that did not pass through it.
    expect(refused.filter((r) => r.field === 'patient name').map((r) => r.payload)).toEqual(PAYLOADS);
    for (const payload of PAYLOADS) {
      const id = (
        await t.http
          .post('/api/v1/patients')
          .set(admin())
          .send(patientBody({ nid: String(++nid) }))
      ).body.id;
      await execute(t.sequelize, 'UPDATE patients SET first_name = :p, last_name = :p WHERE id = :id', { p: payload, id });
      legacy.push({ payload, patientId: id });
      figures.legacyNames++;
    }
    expect(stored.filter((s) => s.field === 'note').length).toBe(PAYLOADS.length);
  });

  it('come back through the API as the same plain strings (JSON, never HTML)', async () => {
    for (const s of stored.filter((x) => x.field === 'note')) {
      const res = await t.http.get(`/api/v1/patients/${s.patientId}/observations`).set(admin());
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.stringify(res.body)).toContain(JSON.stringify(s.payload.trim()).slice(1, -1));
    }
  });

  it('are neutralised in every CSV export (checked in the downloaded files)', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const files: string[] = [];
    for (const s of legacy) {
      await t.http.post(`/api/v1/patients/${s.patientId}/measurements`).set(admin()).send({ clinical_element: 1, value: 71 });
      const link = await t.http.get(`/api/v1/patients/${s.patientId}/measurements`).query({ format: 'csv' }).set(admin());
      expect(link.status, JSON.stringify(link.body)).toBe(200);
      files.push(link.body.url);
    }
    for (const report of [
      '/api/v1/reports/client_measurements?hours=24',
      `/api/v1/reports/patient_status_changes?start_date=2020-01-01&end_date=${today}`,
      '/api/v1/reports/vital_signs?hours=24',
    ]) {
      const link = await t.http.get(report).set(admin());
      if (link.status === 200 && link.body.url) files.push(link.body.url);
    }
    let payloadCells = 0;
    for (const url of files) {
      const file = await t.http.get(url);
      expect(file.status).toBe(200);
      expect(file.headers['content-type']).toMatch(/^text\/csv/);
      for (const row of parseCsv(file.text.replace(/^\ufeff/, '')).slice(1)) {
        for (const cell of row) {
          figures.csvCellsChecked++;
          if (!/^\d+(\.\d+)?$/.test(cell)) expect(cell, `${url}: a text cell a spreadsheet would run`).not.toMatch(RUNS_AS_FORMULA);
          if (PAYLOADS.some((p) => cell.toUpperCase().includes(p.trim().toUpperCase().slice(1, 8)))) payloadCells++;
        }
      }
    }
    expect(payloadCells, 'the payloads reached the CSV files').toBeGreaterThan(0);
  });

  it('are plain text in the PDF report: the file is produced and carries no script or action', async () => {
    for (const s of legacy) {
      const link = await t.http.get(`/api/v1/patients/${s.patientId}/show_pdf`).set(admin());
      expect(link.status).toBe(200);
      const file = await t.http.get(link.body.url).buffer(true).parse(binary);
      expect(file.status).toBe(200);
      expect(file.headers['content-type']).toBe('application/pdf');
      const pdf = file.body as Buffer;
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      // Every stream inflated, so nothing hides in compressed content.
      let all = pdf.toString('latin1');
      for (const m of all.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
        try {
          all += zlib.inflateSync(Buffer.from(m[1], 'latin1')).toString('latin1');
        } catch {
          /* not deflated */
        }
      }
      for (const key of ['/JavaScript', '/JS', '/OpenAction', '/AA', '/Launch', '/URI', '/SubmitForm', '/EmbeddedFile', '/RichMedia']) {
        expect(all.includes(key), `${key} in the PDF of ${JSON.stringify(s.payload)}`).toBe(false);
      }
      figures.pdfsChecked++;
    }
    expect(figures.pdfsChecked).toBeGreaterThan(0);
  });
});
