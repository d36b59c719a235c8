import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import type { Sequelize } from 'sequelize';
import { stringify } from 'csv-stringify';
import type { Response } from 'express';
import { select } from '../../db/sql.js';
import { attachment, type DownloadClaims } from '../../http/downloads.js';
import { notFound } from '../../http/errors.js';
import { clinicalElement } from '@vigia/contract/rules/vitals';
import { measurementFilter, type PatientRef } from './measurements.service.js';
import { formatValue, neutraliseCell } from './measurements.rules.js';
import { localDateTime } from '@vigia/contract/rules/dates';

/** Rows read per query: a year of readings streams in pages, never loaded at once. */
const CSV_PAGE = 2000;

export const SOURCE_LABELS: Record<string, string> = { staff: 'Personal', device: 'Dispositivo', assistant: 'Asistente', portal: 'Portal' };

interface ExportPatient extends PatientRef {
  nid: string;
  first_name: string;
  last_name: string;
}

async function findExportPatient(sequelize: Sequelize, clientId: number, patientId: number): Promise<ExportPatient> {
  const [p] = await select<ExportPatient>(
    sequelize,
    'SELECT id, client_id, status, time_zone, nid, first_name, last_name FROM patients WHERE id = :id AND client_id = :c',
    { id: patientId, c: clientId },
  );
  if (!p) throw notFound('El paciente no existe.');
  return p;
}

/** Streams the patient's readings of the signed period as CSV (UTF-8 with BOM, Spanish headers). */
export async function streamMeasurementsCsv(sequelize: Sequelize, claims: DownloadClaims, res: Response): Promise<void> {
  const p = claims.params;
  const patient = await findExportPatient(sequelize, claims.clientId, Number(p.patient_id));
  const element = p.clinical_element == null ? null : Number(p.clinical_element);
  const { where, replacements } = measurementFilter(patient, {
    clinical_element: element,
    start: new Date(String(p.start)),
    end: new Date(String(p.end)),
  });

  res.status(200);
  res.setHeader('Content-Type', 'text/csv; charset=utf-8');
  attachment(res, `mediciones-${patient.nid}.csv`);
  // Excel reads UTF-8 (accents, °C) only with the byte-order mark.
  res.write('\ufeff');
  const csv = stringify({
    header: true,
    columns: [
      'Documento',
      'Paciente',
      `Fecha y hora (${patient.time_zone})`,
      'Elemento clínico',
      'Valor',
      'Unidad',
      'Código LOINC',
      'Origen',
    ],
  });
  csv.pipe(res);
  const document = neutraliseCell(patient.nid);
  const name = neutraliseCell(`${patient.first_name} ${patient.last_name}`);

  let after: { when: unknown; id: unknown } | null = null;
  for (;;) {
    const keyset = after ? ' AND ("when" > :aw OR ("when" = :aw AND id > :aid))' : '';
    const rows: Array<{ id: number | string; clinical_element: number; value: number; when: Date | string; source: string }> = await select(
      sequelize,
      `SELECT id, clinical_element, value, "when", source FROM measurements WHERE ${where}${keyset} ORDER BY "when", id LIMIT ${CSV_PAGE}`,
      { ...replacements, aw: after?.when, aid: after?.id },
    );
    for (const r of rows) {
      const e = clinicalElement(r.clinical_element);
      const when = r.when instanceof Date ? r.when : new Date(r.when);
      const ok = csv.write([
        document,
        name,
        localDateTime(when, patient.time_zone),
        neutraliseCell(e?.name ?? String(r.clinical_element)),
        formatValue(Number(r.value)),
        e?.unit ?? '',
        e?.loinc ?? '',
        SOURCE_LABELS[r.source] ?? neutraliseCell(r.source),
      ]);
      if (!ok) await once(csv, 'drain');
    }
    if (rows.length < CSV_PAGE) break;
    const last = rows[rows.length - 1];
    after = { when: last.when, id: last.id };
  }
  csv.end();
  await finished(res);
}
