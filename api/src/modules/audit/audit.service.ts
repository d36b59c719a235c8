import type { Sequelize } from 'sequelize';
import { select } from '../../db/sql.js';
import { badRequest, notFound } from '../../http/errors.js';
import type { ListParams } from '../../http/list-params.js';
import { displayName } from '@vigia/contract/rules/names';
import type { components } from '@vigia/contract/openapi';
import { validateRange } from './audit.rules.js';
import { addDays, localToUtc } from '@vigia/contract/rules/activities';

type AuditEvent = components['schemas']['AuditEvent'];

export interface AuditFilters {
  patient_id?: number;
  user_id?: number;
  resource?: string;
  /** Calendar days ('aaaa-mm-dd') in `timeZone`, both inclusive. */
  from?: string;
  to?: string;
  timeZone: string;
}

interface Row {
  id: number;
  created_at: string | Date;
  user_id: number | null;
  user_first_name: string | null;
  user_last_name: string | null;
  actor_kind: AuditEvent['actor_kind'];
  action: AuditEvent['action'];
  resource: AuditEvent['resource'];
  resource_id: string | null;
  patient_id: number | null;
  patient_first_name: string | null;
  patient_last_name: string | null;
  summary: string;
  changes: string | null;
  method: AuditEvent['method'];
  path: string;
  status: number;
  ip: string | null;
}

const fullName = (first: string | null, last: string | null) => (first || last ? displayName(`${first ?? ''} ${last ?? ''}`) : null);

function parseChanges(text: string | null): Record<string, unknown> | null {
  if (!text) return null;
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function toDto(r: Row): AuditEvent {
  return {
    id: Number(r.id),
    created_at: new Date(r.created_at).toISOString(),
    user_id: r.user_id === null ? null : Number(r.user_id),
    user_name: fullName(r.user_first_name, r.user_last_name),
    actor_kind: r.actor_kind,
    action: r.action,
    resource: r.resource,
    resource_id: r.resource_id,
    patient_id: r.patient_id === null ? null : Number(r.patient_id),
    patient_name: fullName(r.patient_first_name, r.patient_last_name),
    summary: r.summary,
    changes: parseChanges(r.changes),
    method: r.method,
    path: r.path,
    status: Number(r.status),
    ip: r.ip,
  };
}

/** This client's audit events, newest first, filtered; the patient's name and the user's come from their own client only. */
export async function listAuditEvents(
  sequelize: Sequelize,
  clientId: number,
  p: ListParams,
  f: AuditFilters,
): Promise<{ rows: AuditEvent[]; total: number }> {
  const bad = validateRange(f.from, f.to);
  if (bad) throw badRequest(bad.field, bad.message);
  const where = ['e.client_id = :clientId'];
  const repl: Record<string, unknown> = { clientId, limit: p.limit, offset: p.offset };
  if (f.patient_id) {
    where.push('e.patient_id = :patientId');
    repl.patientId = f.patient_id;
  }
  if (f.user_id) {
    where.push('e.user_id = :userId');
    repl.userId = f.user_id;
  }
  if (f.resource) {
    where.push('e.resource = :resource');
    repl.resource = f.resource;
  }
  // 'Desde'/'Hasta' are whole days of the staff user's zone.
  if (f.from) {
    where.push('e.created_at >= :from');
    repl.from = localToUtc(f.from, 0, f.timeZone);
  }
  if (f.to) {
    where.push('e.created_at < :to');
    repl.to = localToUtc(addDays(f.to, 1), 0, f.timeZone);
  }
  const cond = where.join(' AND ');
  const order = p.sort && p.order === 'ASC' ? 'ASC' : 'DESC';
  const rows = await select<Row>(
    sequelize,
    `SELECT e.id, e.created_at, e.user_id, u.first_name AS user_first_name, u.last_name AS user_last_name, e.actor_kind, e.action, e.resource,
            e.resource_id, e.patient_id, pt.first_name AS patient_first_name, pt.last_name AS patient_last_name, e.summary, e.changes,
            e.method, e.path, e.status, e.ip
       FROM audit_events e
       LEFT JOIN users u ON u.id = e.user_id AND u.client_id = e.client_id
       LEFT JOIN patients pt ON pt.id = e.patient_id AND pt.client_id = e.client_id
      WHERE ${cond}
      ORDER BY e.created_at ${order}, e.id ${order}
      LIMIT :limit OFFSET :offset`,
    repl,
  );
  const [{ n }] = await select<{ n: number }>(sequelize, `SELECT COUNT(*) AS n FROM audit_events e WHERE ${cond}`, repl);
  return { rows: rows.map(toDto), total: Number(n) };
}

/** The patient's own trail: 404 for a patient of another client, like every patient route. */
export async function listPatientAuditEvents(
  sequelize: Sequelize,
  clientId: number,
  patientId: number,
  p: ListParams,
  f: Omit<AuditFilters, 'patient_id'>,
) {
  const [found] = await select<{ id: number }>(sequelize, 'SELECT id FROM patients WHERE id = :patientId AND client_id = :clientId', {
    patientId,
    clientId,
  });
  if (!found) throw notFound('El paciente no existe.');
  return listAuditEvents(sequelize, clientId, p, { ...f, patient_id: patientId });
}
