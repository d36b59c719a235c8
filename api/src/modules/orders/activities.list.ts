import { select } from '../../db/sql.js';
import { badRequest } from '../../http/errors.js';
import type { ListParams } from '../../http/list-params.js';
import type { StaffPrincipal } from '../../http/auth.js';
import { patientPermissions } from '@vigia/contract/rules/access';
import { patientSearchClauses } from '../patients/patient-search.sql.js';
import { ORDER_ELEMENT_NAMES, addDays, localParts, localToUtc } from '@vigia/contract/rules/activities';
import { displayName } from '@vigia/contract/rules/names';
import { ACTIVITY_SELECT, toActivityDto, type ActivityRow } from './activities.service.js';
import { isConfirmableAt } from './activities.confirm.rules.js';
import { toDate, type OrdersDeps } from './orders.queries.js';
import type { components } from '@vigia/contract/openapi';

type ClientActivity = components['schemas']['ClientActivity'];

interface Row extends ActivityRow {
  patient_id: number;
  first_name: string;
  last_name: string;
  patient_status: number;
}

export interface ClientActivityQuery {
  date?: string;
  status?: number;
  type?: number;
  q?: string | null;
}

/** 'Actividades' reads its days in the organisation's zone (the clients module's reader, handed by app.ts). */
export type ClientActivitiesDeps = OrdersDeps & { clientTimeZone: (clientId: number) => Promise<string> };

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar day 'YYYY-MM-DD' that exists (2026-02-30 does not). */
function isDay(value: string): boolean {
  if (!DAY.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

const SELECT = `${ACTIVITY_SELECT.replace('SELECT a.id', 'SELECT a.patient_id, p.first_name, p.last_name, p.status AS patient_status, a.id')}
  JOIN patients p ON p.id = a.patient_id`;

/**
 * 'Actividades' (P69): the client's activities of one day in the client's time zone (default:
 * today there), by time, with the patient; optional status, order type and patient search.
 * `can_confirm` tells whether this user may confirm the medication now (the confirm call's rule).
 */
export async function listClientActivities(deps: ClientActivitiesDeps, staff: StaffPrincipal, p: ListParams, f: ClientActivityQuery) {
  const zone = await deps.clientTimeZone(staff.clientId);
  const now = deps.now();
  const day = f.date ?? localParts(now, zone).date;
  if (!isDay(day)) throw badRequest('date', 'La fecha no es válida (formato AAAA-MM-DD).');
  const where = ['a.client_id = :clientId', 'a.programmed_at >= :from', 'a.programmed_at < :to'];
  const params: Record<string, unknown> = {
    clientId: staff.clientId,
    from: localToUtc(day, 0, zone),
    to: localToUtc(addDays(day, 1), 0, zone),
  };
  if (f.status != null) {
    where.push('a.status = :status');
    params.status = f.status;
  }
  if (f.type != null) {
    where.push('o.order_type = :type');
    params.type = f.type;
  }
  patientSearchClauses(f.q, 'a.patient_id', where, params);
  const clause = where.join(' AND ');
  const rows = await select<Row>(deps.sequelize, `${SELECT} WHERE ${clause} ORDER BY a.programmed_at, a.id LIMIT :limit OFFSET :offset`, {
    ...params,
    limit: p.limit,
    offset: p.offset,
  });
  const [{ n }] = await select<{ n: number }>(
    deps.sequelize,
    `SELECT COUNT(*) AS n FROM activities a JOIN orders o ON o.id = a.order_id WHERE ${clause}`,
    params,
  );
  const items: ClientActivity[] = rows.map((r) => {
    const element = r.clinical_element == null ? null : Number(r.clinical_element);
    return {
      ...toActivityDto(r),
      clinical_element_name: element == null ? null : (ORDER_ELEMENT_NAMES[element] ?? null),
      patient: { id: Number(r.patient_id), full_name: `${displayName(r.first_name)} ${displayName(r.last_name)}` },
      can_confirm:
        patientPermissions(staff.role, Number(r.patient_status)).manage_activities &&
        isConfirmableAt({ order_type: Number(r.order_type), status: Number(r.status), programmed_at: toDate(r.programmed_at) }, now),
    };
  });
  return { rows: items, total: Number(n), date: day, timeZone: zone };
}
