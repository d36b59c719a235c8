import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import type { Sequelize } from 'sequelize';
import { stringify, type Stringifier } from 'csv-stringify';
import type { Response } from 'express';
import { select } from '../../db/sql.js';
import { attachment, type DownloadClaims } from '../../http/downloads.js';
import { clinicalElement, MEASUREMENT_STATUS } from '@vigia/contract/rules/vitals';
import { formatValue, neutraliseCell } from '../measurements/measurements.rules.js';
import { SOURCE_LABELS } from '../measurements/measurements.csv.js';
import { PATIENT_STATUS_NAMES } from '@vigia/contract/rules/access';
import { VITAL_SIGN_GROUPS, type VitalSignGroup } from './reports.rules.js';
import { localDateTime } from '@vigia/contract/rules/dates';

/** Rows per query: every report streams page by page (keyset), never the whole table at once. */
const PAGE = 2000;

type Row = Array<string | number>;

/** Starts a UTF-8 CSV download (with the BOM Excel needs for accents) and answers a writer that respects back-pressure. */
function startCsv(res: Response, fileName: string, columns: string[]) {
  res.status(200);
  res.setHeader('Content-Type', 'text/csv; charset=utf-8');
  attachment(res, fileName);
  res.write('\ufeff');
  const csv: Stringifier = stringify({ header: true, columns });
  csv.pipe(res);
  return {
    async write(row: Row) {
      if (!csv.write(row)) await once(csv, 'drain');
    },
    async end() {
      csv.end();
      await finished(res);
    },
  };
}

const text = (v: string | null | undefined) => neutraliseCell(v ?? '');
const asDate = (v: Date | string) => (v instanceof Date ? v : new Date(v));

/** 'Número de Horas anteriores': every reading of the client in the signed period, in each patient's zone. */
export async function streamClientMeasurements(sequelize: Sequelize, claims: DownloadClaims, res: Response) {
  const out = startCsv(res, `mediciones-ultimas-${claims.params.hours}-horas.csv`, [
    'Documento',
    'Paciente',
    'Fecha y hora',
    'Zona horaria',
    'Elemento clínico',
    'Valor',
    'Unidad',
    'Código LOINC',
    'Origen',
  ]);
  let after: { when: unknown; id: unknown } | null = null;
  for (;;) {
    const keyset = after ? ' AND (m."when" > :aw OR (m."when" = :aw AND m.id > :aid))' : '';
    const rows: Array<{
      id: number;
      clinical_element: number;
      value: number;
      when: Date | string;
      source: string;
      nid: string;
      first_name: string;
      last_name: string;
      time_zone: string;
    }> = await select(
      sequelize,
      `SELECT m.id, m.clinical_element, m.value, m."when", m.source, p.nid, p.first_name, p.last_name, p.time_zone
         FROM measurements m JOIN patients p ON p.id = m.patient_id
         WHERE m.client_id = :c AND m.status = ${MEASUREMENT_STATUS.valid} AND m."when" >= :start AND m."when" < :end${keyset}
         ORDER BY m."when", m.id LIMIT ${PAGE}`,
      {
        c: claims.clientId,
        start: new Date(String(claims.params.start)),
        end: new Date(String(claims.params.end)),
        aw: after?.when,
        aid: after?.id,
      },
    );
    for (const r of rows) {
      const e = clinicalElement(r.clinical_element);
      await out.write([
        text(r.nid),
        text(`${r.first_name} ${r.last_name}`),
        localDateTime(asDate(r.when), r.time_zone),
        r.time_zone,
        text(e?.name ?? String(r.clinical_element)),
        formatValue(Number(r.value)),
        e?.unit ?? '',
        e?.loinc ?? '',
        SOURCE_LABELS[r.source] ?? text(r.source),
      ]);
    }
    if (rows.length < PAGE) break;
    const last = rows[rows.length - 1];
    after = { when: last.when, id: last.id };
  }
  await out.end();
}

/** Vital signs by group: each patient's latest reading of every element of the group (patients without any are left out). */
export async function streamVitalSigns(sequelize: Sequelize, claims: DownloadClaims, res: Response) {
  const group = String(claims.params.group) as VitalSignGroup;
  const elements = [...VITAL_SIGN_GROUPS[group]];
  const columns = ['Documento', 'Paciente', 'Estado'];
  for (const id of elements) {
    const e = clinicalElement(id)!;
    columns.push(`${e.name} (${e.unit})`, `Fecha ${e.name}`);
  }
  const out = startCsv(res, `signos-vitales-${group}.csv`, columns);
  const pageSize = 500;
  let afterId = 0;
  for (;;) {
    const patients = await select<{ id: number; nid: string; first_name: string; last_name: string; status: number; time_zone: string }>(
      sequelize,
      `SELECT id, nid, first_name, last_name, status, time_zone FROM patients WHERE client_id = :c AND id > :after ORDER BY id LIMIT ${pageSize}`,
      { c: claims.clientId, after: afterId },
    );
    if (!patients.length) break;
    const latest = await select<{ patient_id: number; clinical_element: number; value: number; when: Date | string }>(
      sequelize,
      `SELECT m.patient_id, m.clinical_element, m.value, m."when" FROM measurements m
       WHERE m.patient_id IN (:ids) AND m.clinical_element IN (:els) AND m.status = ${MEASUREMENT_STATUS.valid}
         AND m."when" = (SELECT MAX(m2."when") FROM measurements m2 WHERE m2.patient_id = m.patient_id AND m2.clinical_element = m.clinical_element AND m2.status = ${MEASUREMENT_STATUS.valid})`,
      { ids: patients.map((p) => p.id), els: elements },
    );
    const byPatient = new Map<number, Map<number, { value: number; when: Date }>>();
    for (const l of latest) {
      const m = byPatient.get(Number(l.patient_id)) ?? new Map();
      m.set(Number(l.clinical_element), { value: Number(l.value), when: asDate(l.when) });
      byPatient.set(Number(l.patient_id), m);
    }
    for (const p of patients) {
      const values = byPatient.get(Number(p.id));
      if (!values) continue;
      const row: Row = [text(p.nid), text(`${p.first_name} ${p.last_name}`), PATIENT_STATUS_NAMES[Number(p.status)] ?? ''];
      for (const id of elements) {
        const v = values.get(id);
        row.push(v ? formatValue(v.value) : '', v ? localDateTime(v.when, p.time_zone) : '');
      }
      await out.write(row);
    }
    afterId = Number(patients[patients.length - 1].id);
    if (patients.length < pageSize) break;
  }
  await out.end();
}

/** Patient status changes between the signed dates (table patient_status_changes), in the requesting user's zone. */
export async function streamStatusChanges(sequelize: Sequelize, claims: DownloadClaims, res: Response) {
  const tz = String(claims.params.time_zone);
  const out = startCsv(res, 'cambios-de-estado.csv', [
    'Fecha y hora',
    'Documento',
    'Paciente',
    'Estado anterior',
    'Estado nuevo',
    'Usuario',
  ]);
  const where = ['s.client_id = :c'];
  const repl: Record<string, unknown> = { c: claims.clientId };
  if (claims.params.start) {
    where.push('s.created_at >= :start');
    repl.start = new Date(String(claims.params.start));
  }
  if (claims.params.end) {
    where.push('s.created_at < :end');
    repl.end = new Date(String(claims.params.end));
  }
  let afterId = 0;
  for (;;) {
    const rows = await select<{
      id: number;
      created_at: Date | string;
      from_status: number;
      to_status: number;
      nid: string;
      first_name: string;
      last_name: string;
      u_first: string | null;
      u_last: string | null;
    }>(
      sequelize,
      `SELECT s.id, s.created_at, s.from_status, s.to_status, p.nid, p.first_name, p.last_name, u.first_name AS u_first, u.last_name AS u_last
       FROM patient_status_changes s JOIN patients p ON p.id = s.patient_id LEFT JOIN users u ON u.id = s.user_id
       WHERE ${where.join(' AND ')} AND s.id > :after ORDER BY s.id LIMIT ${PAGE}`,
      { ...repl, after: afterId },
    );
    for (const r of rows) {
      await out.write([
        localDateTime(asDate(r.created_at), tz),
        text(r.nid),
        text(`${r.first_name} ${r.last_name}`),
        PATIENT_STATUS_NAMES[Number(r.from_status)] ?? String(r.from_status),
        PATIENT_STATUS_NAMES[Number(r.to_status)] ?? String(r.to_status),
        text(r.u_first ? `${r.u_first} ${r.u_last ?? ''}`.trim() : 'Sistema'),
      ]);
    }
    if (rows.length < PAGE) break;
    afterId = Number(rows[rows.length - 1].id);
  }
  await out.end();
}
