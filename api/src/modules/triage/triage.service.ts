import type { Sequelize } from 'sequelize';
import { select } from '../../db/sql.js';
import { badRequest } from '../../http/errors.js';
import type { ListParams } from '../../http/list-params.js';
import { patientSearchClauses } from '../patients/patient-search.sql.js';
import { tagsOf } from '../patients/patient-tags.sql.js';
import { INT_RANGE } from '@vigia/contract/rules/schema';
import { TRIAGE_FLAG_TABS, triageFlagBit, type TriageFlagCode } from '@vigia/contract/rules/triage';
import type { components } from '@vigia/contract/openapi';
import type { TriageFlag } from './triage.rules.js';

type TriageItem = components['schemas']['TriageItem'];
type TagRef = components['schemas']['TagRef'];

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

const iso = (v: Date | string) => (v instanceof Date ? v : new Date(v)).toISOString();

/** The one place a summary row becomes the contract's TriageItem. */
function toTriageItem(r: Row, tags: TagRef[]): TriageItem {
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
  const tags = await tagsOf(
    sequelize,
    rows.map((r) => Number(r.patient_id)),
  );
  return { rows: rows.map((r) => toTriageItem(r, tags.get(Number(r.patient_id)) ?? [])), total: Number(count?.n ?? 0) };
}
