import type { Sequelize } from 'sequelize';
import { Positional, select } from '../../db/sql.js';
import { isPostgres } from '../../db/database.js';
import { badRequest } from '../../http/errors.js';
import type { ListParams } from '../../http/list-params.js';
import { patientSearchClauses } from '../patients/patient-search.sql.js';
import { tagsOf } from '../patients/patient-tags.sql.js';
import { INT_RANGE } from '@vigia/contract/rules/schema';
import { MEASUREMENT_STATUS } from '@vigia/contract/rules/vitals';
import { TRIAGE_FLAG_TABS, triageFlagBit, type TriageFlagCode } from '@vigia/contract/rules/triage';
import type { components } from '@vigia/contract/openapi';
import type { TriageFlag } from './triage.rules.js';

type TriageItem = components['schemas']['TriageItem'];
type TagRef = components['schemas']['TagRef'];
type LastReading = TriageItem['last_reading'];

export interface TriageFilters {
  flag?: TriageFlagCode;
  tags?: string;
}

interface Row {
  patient_id: number;
  score: number;
  flags: string;
  last_reading_at: Date | string | null;
  computed_at: Date | string;
  nid: string;
  first_name: string;
  last_name: string;
}

const asDate = (v: Date | string) => (v instanceof Date ? v : new Date(v));
const iso = (v: Date | string) => asDate(v).toISOString();

/** The one place a summary row becomes the contract's TriageItem. */
function toTriageItem(r: Row, tags: TagRef[], last: LastReading): TriageItem {
  const flags = JSON.parse(r.flags) as TriageFlag[];
  return {
    id: Number(r.patient_id),
    patient: {
      id: Number(r.patient_id),
      nid: r.nid,
      first_name: r.first_name,
      last_name: r.last_name,
      full_name: `${r.first_name} ${r.last_name}`,
      tags,
    },
    score: Number(r.score),
    flags: flags.map((f) => ({ ...f, tab: TRIAGE_FLAG_TABS[f.code] })),
    last_reading_at: r.last_reading_at == null ? null : iso(r.last_reading_at),
    last_reading: last,
    computed_at: iso(r.computed_at),
  };
}

/**
 * GET /triage: an index walk of triage_summaries (client_id, score) with a LIMIT; filters by flag
 * (a bit of flag_mask), tags and the patient search narrow the same walk. Only active patients
 * have a summary, so the count is the summaries'.
 */
export async function listTriage(sequelize: Sequelize, clientId: number, p: ListParams, filters: TriageFilters) {
  const where = ['s.client_id = :clientId'];
  const params: Record<string, unknown> = { clientId };
  if (filters.flag) {
    where.push('(s.flag_mask & :bit) <> 0');
    params.bit = triageFlagBit(filters.flag);
  }
  if (filters.tags) {
    const ids = filters.tags.split(',').map(Number);
    if (ids.some((id) => !Number.isInteger(id) || id > INT_RANGE.maximum))
      throw badRequest('tags', 'Hay un id de etiqueta fuera de rango.');
    where.push('EXISTS (SELECT 1 FROM patient_tags pt WHERE pt.patient_id = s.patient_id AND pt.tag_id IN (:tagIds))');
    params.tagIds = ids;
  }
  patientSearchClauses(p.q, 's.patient_id', where, params);
  const direction = p.sort === 'score' && p.order === 'ASC' ? 'ASC' : 'DESC';
  const [rows, [count]] = await Promise.all([
    select<Row>(
      sequelize,
      `SELECT s.patient_id, s.score, s.flags, s.last_reading_at, s.computed_at, p.nid, p.first_name, p.last_name
         FROM triage_summaries s JOIN patients p ON p.id = s.patient_id
        WHERE ${where.join(' AND ')}
        ORDER BY s.score ${direction}, s.patient_id ${direction} LIMIT :limit OFFSET :offset`,
      { ...params, limit: p.limit, offset: p.offset },
    ),
    select<{ n: number }>(sequelize, `SELECT COUNT(*) AS n FROM triage_summaries s WHERE ${where.join(' AND ')}`, params),
  ]);
  const ids = rows.map((r) => Number(r.patient_id));
  const [tags, lasts] = await Promise.all([tagsOf(sequelize, ids), lastReadings(sequelize, rows)]);
  return {
    rows: rows.map((r) => toTriageItem(r, tags.get(Number(r.patient_id)) ?? [], lasts.get(Number(r.patient_id)) ?? null)),
    total: Number(count?.n ?? 0),
  };
}

/**
 * The values of each patient's latest valid reading (issue 50: a phone's card shows the value, not
 * only its time): every element read at that instant, so blood pressure gives both figures. The
 * summary row the page already read holds that instant (`last_reading_at`, the latest valid
 * reading up to its computation, triage.summaries.ts), so each patient is one lookup of the
 * (patient_id, when) index at exactly it (issue 52), where a MAX("when") read every valid reading
 * of the page's patients; and the values shown are those of the time shown beside them. The
 * instants go back bound as Dates, which each dialect writes as it stores readings' times (text
 * '… +00:00' on SQLite, timestamptz on PostgreSQL), so the equality holds on both. PostgreSQL gets
 * the pairs as two arrays (one text, planned as a nested loop of index lookups): a list of 100 ORs
 * cost it more to plan than the MAX did to run.
 */
async function lastReadings(
  sequelize: Sequelize,
  page: Array<Pick<Row, 'patient_id' | 'last_reading_at'>>,
): Promise<Map<number, NonNullable<LastReading>>> {
  const out = new Map<number, NonNullable<LastReading>>();
  const read = page.filter((r) => r.last_reading_at != null);
  if (!read.length) return out;
  const valid = MEASUREMENT_STATUS.valid;
  type Found = { patient_id: number; clinical_element: number; value: number; when: Date | string };
  let found: Found[];
  if (isPostgres(sequelize))
    found = await select<Found>(
      sequelize,
      `SELECT m.patient_id, m.clinical_element, m.value, m."when"
         FROM unnest($1::int[], $2::timestamptz[]) AS l (patient_id, at)
         JOIN measurements m ON m.patient_id = l.patient_id AND m."when" = l.at
        WHERE m.status = ${valid}
        ORDER BY m.patient_id, m.clinical_element`,
      new Positional([read.map((r) => Number(r.patient_id)), read.map((r) => asDate(r.last_reading_at!))]),
    );
  else {
    const params: Record<string, unknown> = {};
    const at = read.map((r, i) => {
      params[`p${i}`] = Number(r.patient_id);
      params[`w${i}`] = asDate(r.last_reading_at!);
      return `(m.patient_id = :p${i} AND m."when" = :w${i})`;
    });
    found = await select<Found>(
      sequelize,
      `SELECT m.patient_id, m.clinical_element, m.value, m."when" FROM measurements m
        WHERE m.status = ${valid} AND (${at.join(' OR ')})
        ORDER BY m.patient_id, m.clinical_element`,
      params,
    );
  }
  for (const m of found) {
    const id = Number(m.patient_id);
    const entry = out.get(id) ?? { when: iso(m.when), values: [] };
    entry.values.push({ clinical_element: Number(m.clinical_element), value: Number(m.value) });
    out.set(id, entry);
  }
  return out;
}
