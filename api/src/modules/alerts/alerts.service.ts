import type { Sequelize } from 'sequelize';
import { execute, insertReturningId, select } from '../../db/sql.js';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors.js';
import type { StaffPrincipal } from '../../http/auth.js';
import { can, PATIENT_STATUS } from '@vigia/contract/rules/access';
import type { Catalogues } from '../catalogues/catalogues.service.js';
import { findPatient } from '../patients/patients.service.js';
import { patientSearchClauses } from '../patients/patient-search.sql.js';
import { countFromFilterCounts } from './alerts.counts.js';
import {
  ALERT_TYPE_NAMES,
  PRIORITY_KEYS,
  PRIORITY_NAMES,
  alertStatusName,
  canonicalElement,
  elementName,
  elementUnit,
  validateEntry,
  ALERT_STATUS,
} from '@vigia/contract/rules/alarms';
import type { components } from '@vigia/contract/openapi';
import { dayStartUtc, nextDay } from '@vigia/contract/rules/dates';

type AlertDto = components['schemas']['Alert'];
type AlertDetail = components['schemas']['AlertDetail'];
type AlertEntry = components['schemas']['AlertEntry'];
type AlertMeasurement = components['schemas']['AlertMeasurement'];
type AlertClose = components['schemas']['AlertClose'];

export interface AlertDeps {
  sequelize: Sequelize;
  catalogues: Catalogues;
  now: () => Date;
}

interface AlertRow {
  id: number;
  client_id: number;
  patient_id: number;
  alert_type: number;
  status: number;
  priority: number;
  clinical_element: number | null;
  description: string | null;
  alarm_id: number | null;
  measurement_id: number | null;
  activity_id: number | null;
  value: number | null;
  alarm_name: string | null;
  minimum_condition: number | null;
  maximum_condition: number | null;
  close_type: string | null;
  closed_at: string | Date | null;
  escalated_at: string | Date | null;
  created_at: string | Date;
  first_name: string;
  last_name: string;
  nid: string;
  time_zone: string;
  m_value: number | null;
  m_when: string | Date | null;
  m_element: number | null;
  closer_first: string | null;
  closer_last: string | null;
}

const SELECT_ALERT = `SELECT al.id, al.client_id, al.patient_id, al.alert_type, al.status, al.priority, al.clinical_element, al.description, al.alarm_id,
    al.measurement_id, al.activity_id, al.value, al.alarm_name, al.minimum_condition, al.maximum_condition, al.close_type, al.closed_at, al.escalated_at, al.created_at,
    p.first_name, p.last_name, p.nid, p.time_zone, m.value AS m_value, m."when" AS m_when, m.clinical_element AS m_element,
    u.first_name AS closer_first, u.last_name AS closer_last
  FROM alerts al
  JOIN patients p ON p.id = al.patient_id
  LEFT JOIN measurements m ON m.id = al.measurement_id
  LEFT JOIN users u ON u.id = al.closed_by`;

const iso = (v: string | Date) => new Date(v).toISOString();

function toMeasurement(id: number, value: number, when: string | Date, element: number): AlertMeasurement {
  return {
    id: Number(id),
    value: Number(value),
    when: iso(when),
    clinical_element: Number(element),
    clinical_element_name: elementName(Number(element)),
    clinical_element_unit: elementUnit(Number(element)),
  };
}

/** The one place an alerts row becomes the contract's Alert. */
function toAlertDto(r: AlertRow, entries: AlertEntry[]): AlertDto {
  const element = r.clinical_element ?? r.m_element;
  const hasAlarm = r.alarm_name != null && r.minimum_condition != null && r.maximum_condition != null;
  return {
    id: Number(r.id),
    type: Number(r.alert_type) as AlertDto['type'],
    type_name: ALERT_TYPE_NAMES[Number(r.alert_type)] ?? '',
    status: Number(r.status),
    status_name: alertStatusName(Number(r.status)),
    close_type: (r.close_type as AlertDto['close_type']) ?? null,
    priority: Number(r.priority) as AlertDto['priority'],
    priority_name: PRIORITY_NAMES[Number(r.priority)] ?? '',
    clinical_element: element == null ? null : Number(element),
    clinical_element_name: elementName(element),
    clinical_element_unit: elementUnit(element),
    description: r.description,
    value: r.value ?? r.m_value ?? null,
    created_at: iso(r.created_at),
    closed_at: r.closed_at ? iso(r.closed_at) : null,
    time_zone_patient: r.time_zone,
    patient: { id: Number(r.patient_id), full_name: `${r.first_name} ${r.last_name}`, nid: r.nid },
    alarm: hasAlarm
      ? {
          id: r.alarm_id == null ? null : Number(r.alarm_id),
          name: r.alarm_name!,
          priority: Number(r.priority),
          minimum_condition: Number(r.minimum_condition),
          maximum_condition: Number(r.maximum_condition),
        }
      : null,
    measurement: r.measurement_id != null && r.m_when != null ? toMeasurement(r.measurement_id, r.m_value!, r.m_when, r.m_element!) : null,
    activity_id: r.activity_id == null ? null : Number(r.activity_id),
    entries,
    closed_by_name: r.closer_first ? `${r.closer_first} ${r.closer_last}` : (entries.at(-1)?.user_name ?? null),
    escalated_at: r.escalated_at ? iso(r.escalated_at) : null,
  };
}

async function entriesOf(sequelize: Sequelize, alertIds: number[]): Promise<Map<number, AlertEntry[]>> {
  const map = new Map<number, AlertEntry[]>();
  if (!alertIds.length) return map;
  const rows = await select<{
    id: number;
    alert_id: number;
    description: string;
    user_id: number | null;
    user_name: string;
    created_at: string;
  }>(
    sequelize,
    'SELECT id, alert_id, description, user_id, user_name, created_at FROM alert_entries WHERE alert_id IN (:ids) ORDER BY id',
    { ids: alertIds },
  );
  for (const e of rows) {
    const list = map.get(Number(e.alert_id)) ?? [];
    list.push({
      id: Number(e.id),
      description: e.description,
      user_id: e.user_id == null ? null : Number(e.user_id),
      user_name: e.user_name,
      created_at: iso(e.created_at),
    });
    map.set(Number(e.alert_id), list);
  }
  return map;
}

async function toDtos(sequelize: Sequelize, rows: AlertRow[]): Promise<AlertDto[]> {
  const entries = await entriesOf(
    sequelize,
    rows.map((r) => Number(r.id)),
  );
  return rows.map((r) => toAlertDto(r, entries.get(Number(r.id)) ?? []));
}

/** Filters common to the patient's list and the client's list. */
function filterClauses(q: AlertFilters, where: string[], params: Record<string, unknown>) {
  if (q.alert_type != null) {
    where.push('al.alert_type = :alertType');
    params.alertType = q.alert_type;
  }
  if (q.clinical_element != null) {
    where.push('al.clinical_element IN (:elements)');
    params.elements = canonicalElement(q.clinical_element) === 1 ? [0, 1] : [q.clinical_element];
  }
  if (q.priority != null) {
    where.push('al.priority = :priority');
    params.priority = q.priority;
  }
  if (q.status === 'open') where.push(`al.status = ${ALERT_STATUS.open}`);
  // Only 1 and 2 are ever written; equality keeps the (client_id, status, created_at) index usable.
  if (q.status === 'closed') where.push(`al.status = ${ALERT_STATUS.closed}`);
}

export interface AlertFilters {
  status?: 'open' | 'closed';
  alert_type?: number;
  clinical_element?: number;
  priority?: number;
}

/** `total`, when given, answers the count instead of counting the filtered rows (the client's list without dates or a name: alert_filter_counts). */
async function page(
  sequelize: Sequelize,
  where: string[],
  params: Record<string, unknown>,
  offset: number,
  limit: number,
  total?: () => Promise<number>,
) {
  const clause = where.join(' AND ');
  // The page's ids first, from the alerts table alone, then the joins for those rows only: when
  // the order cannot come from an index (a name search), only ids are sorted, not joined rows.
  // Sent together: on SQLite they run back to back without a trip through JavaScript between them.
  const count = total
    ? total()
    : select<{ n: number }>(sequelize, `SELECT COUNT(*) AS n FROM alerts al WHERE ${clause}`, params).then(([{ n }]) => Number(n));
  const [rows, n] = await Promise.all([
    select<AlertRow>(
      sequelize,
      `${SELECT_ALERT} WHERE al.id IN (SELECT al.id FROM alerts al WHERE ${clause} ORDER BY al.created_at DESC, al.id DESC LIMIT :limit OFFSET :offset)
       ORDER BY al.created_at DESC, al.id DESC`,
      { ...params, limit, offset },
    ),
    count,
  ]);
  return { rows: await toDtos(sequelize, rows), total: n };
}

export async function listPatientAlerts(
  deps: AlertDeps,
  principal: StaffPrincipal,
  patientId: number,
  filters: AlertFilters,
  offset: number,
  limit: number,
) {
  await findPatient(principal.clientId, patientId);
  const where = ['al.patient_id = :patientId', 'al.client_id = :clientId'];
  const params: Record<string, unknown> = { patientId, clientId: principal.clientId };
  filterClauses(filters, where, params);
  return page(deps.sequelize, where, params, offset, limit);
}

export interface ClientAlertQuery extends AlertFilters {
  start_at?: string;
  end_at?: string;
  search?: string;
  /** Only these alerts (a notification digest's link); another client's ids match nothing. */
  ids?: number[];
}

/** 'Gestor de alertas': the client's alerts, newest first; dates are days in the user's zone (D5). */
export async function listClientAlerts(deps: AlertDeps, principal: StaffPrincipal, q: ClientAlertQuery, offset: number, limit: number) {
  const where = ['al.client_id = :clientId'];
  const params: Record<string, unknown> = { clientId: principal.clientId };
  filterClauses(q, where, params);
  const zone = principal.user.time_zone || 'UTC';
  if (q.start_at) {
    where.push('al.created_at >= :from');
    params.from = dayStartUtc(q.start_at, zone);
  }
  if (q.end_at) {
    where.push('al.created_at < :to');
    params.to = dayStartUtc(nextDay(q.end_at), zone);
  }
  patientSearchClauses(q.search, 'al.patient_id', where, params);
  if (q.ids?.length) {
    where.push('al.id IN (:ids)');
    params.ids = q.ids;
  }
  // Without a date, a name or ids, every clause is one the kept counts answer (migration 0021).
  const kept = !q.start_at && !q.end_at && !q.search?.trim() && !q.ids?.length;
  return page(deps.sequelize, where, params, offset, limit, kept ? () => countFromFilterCounts(deps.sequelize, where, params) : undefined);
}

async function findAlertRow(sequelize: Sequelize, clientId: number, patientId: number, alertId: number): Promise<AlertRow> {
  const [row] = await select<AlertRow>(
    sequelize,
    `${SELECT_ALERT} WHERE al.id = :alertId AND al.patient_id = :patientId AND al.client_id = :clientId`,
    {
      alertId,
      patientId,
      clientId,
    },
  );
  if (!row) throw notFound('La alerta no existe.');
  return row;
}

/** Staff only (P146): the detail carries staff notes and names, which the portal never shows. */
export async function getPatientAlert(
  deps: AlertDeps,
  principal: StaffPrincipal,
  patientId: number,
  alertId: number,
): Promise<AlertDetail> {
  const p = await findPatient(principal.clientId, patientId);
  const row = await findAlertRow(deps.sequelize, principal.clientId, patientId, alertId);
  const [dto] = await toDtos(deps.sequelize, [row]);
  const later = await select<{ id: number; value: number; when: string; clinical_element: number }>(
    deps.sequelize,
    `SELECT m.id, m.value, m."when", m.clinical_element FROM alert_measurements am JOIN measurements m ON m.id = am.measurement_id
     WHERE am.alert_id = :alertId ORDER BY m."when", m.id`,
    { alertId },
  );
  return {
    ...dto,
    later_measurements: later.map((m) => toMeasurement(m.id, m.value, m.when, m.clinical_element)),
    contact: {
      address: p.address,
      neighborhood: p.neighborhood,
      city_name: deps.catalogues.city(p.city_id)?.name ?? null,
      prefix: p.prefix,
      cellphone: p.cellphone,
      email: p.email,
    },
  };
}

/** Alert handling is a clinical write (P1), refused for a deceased patient (D9). */
async function assertMayHandle(principal: StaffPrincipal, patientId: number) {
  if (!can(principal.role, 'clinical.write')) throw forbidden();
  const p = await findPatient(principal.clientId, patientId);
  if (p.status === PATIENT_STATUS.deceased) throw forbidden('El paciente está registrado como fallecido; su ficha no admite cambios.');
}

const authorName = (principal: StaffPrincipal) => `${principal.user.first_name} ${principal.user.last_name}`.trim();

export async function addAlertEntry(
  deps: AlertDeps,
  principal: StaffPrincipal,
  patientId: number,
  alertId: number,
  description: string,
): Promise<AlertEntry> {
  await assertMayHandle(principal, patientId);
  const message = validateEntry(description);
  if (message) throw badRequest('description', message);
  await findAlertRow(deps.sequelize, principal.clientId, patientId, alertId);
  const now = deps.now();
  const text = description.trim();
  // One transaction: the conditional UPDATE locks the open alert row (PostgreSQL) or takes the write
  // lock (SQLite), so a close running at the same time either waits for this entry or has already
  // committed and this answers 409 with nothing stored.
  const id = await deps.sequelize.transaction(async (transaction) => {
    const open = await execute(
      deps.sequelize,
      `UPDATE alerts SET updated_at = updated_at WHERE id = :alertId AND patient_id = :patientId AND client_id = :clientId AND status = ${ALERT_STATUS.open}`,
      { alertId, patientId, clientId: principal.clientId },
      transaction,
    );
    if (open !== 1) throw conflict('La alerta está cerrada; no admite nuevas entradas.', 'description');
    return insertReturningId(
      deps.sequelize,
      'INSERT INTO alert_entries (alert_id, user_id, user_name, description, created_at) VALUES (:alertId, :userId, :userName, :text, :now) RETURNING id',
      { alertId, userId: principal.userId, userName: authorName(principal), text, now },
      transaction,
    );
  });
  return { id, description: text, user_id: principal.userId, user_name: authorName(principal), created_at: now.toISOString() };
}

/**
 * Closes an open alert (02 §4). The final entry, when sent, is stored in the same transaction; the
 * update only matches an open alert, so of two users closing at once one wins and the other gets
 * 409 with nothing stored.
 */
export async function closeAlert(
  deps: AlertDeps,
  principal: StaffPrincipal,
  patientId: number,
  alertId: number,
  body: AlertClose,
): Promise<AlertDetail> {
  await assertMayHandle(principal, patientId);
  if (body.description != null) {
    const message = validateEntry(body.description);
    if (message) throw badRequest('description', message);
  }
  const row = await findAlertRow(deps.sequelize, principal.clientId, patientId, alertId);
  if (Number(row.status) !== 1) throw conflict('La alerta ya fue cerrada.');
  const now = deps.now();
  await deps.sequelize.transaction(async (transaction) => {
    if (body.description != null) {
      await execute(
        deps.sequelize,
        'INSERT INTO alert_entries (alert_id, user_id, user_name, description, created_at) VALUES (:alertId, :userId, :userName, :text, :now)',
        { alertId, userId: principal.userId, userName: authorName(principal), text: body.description.trim(), now },
        transaction,
      );
    } else {
      const entries = await select<{ description: string }>(
        deps.sequelize,
        'SELECT description FROM alert_entries WHERE alert_id = :alertId',
        { alertId },
        transaction,
      );
      if (!entries.some((e) => validateEntry(e.description) === null)) throw badRequest('description', validateEntry('')!);
    }
    const changed = await execute(
      deps.sequelize,
      `UPDATE alerts SET status = ${ALERT_STATUS.closed}, close_type = :closeType, closed_by = :userId, closed_at = :now, updated_at = :now
       WHERE id = :alertId AND client_id = :clientId AND status = ${ALERT_STATUS.open}`,
      { closeType: body.close_type, userId: principal.userId, now, alertId, clientId: principal.clientId },
      transaction,
    );
    if (changed !== 1) throw conflict('La alerta ya fue cerrada.');
  });
  const detail = await getPatientAlert(deps, principal, patientId, alertId);
  return { ...detail, notification: { type: 'success', message: 'Alerta cerrada correctamente' } };
}

/** 02 §2.12: alerts created in the period by priority (default: the last 30 days), and open alerts now. */
export async function alertMetrics(deps: AlertDeps, principal: StaffPrincipal, q: { start_at?: string; end_at?: string }) {
  const zone = principal.user.time_zone || 'UTC';
  const from = q.start_at ? dayStartUtc(q.start_at, zone) : new Date(deps.now().getTime() - 30 * 86_400_000);
  const to = q.end_at ? dayStartUtc(nextDay(q.end_at), zone) : new Date(deps.now().getTime() + 60_000);
  // One range count per priority (index client_id, priority, created_at): counting entries reads
  // no column, where a GROUP BY read the priority of every alert in the period.
  const priorities = Object.keys(PRIORITY_KEYS).map(Number);
  const [[counts], open] = await Promise.all([
    select<Record<string, number | string>>(
      deps.sequelize,
      `SELECT ${priorities
        .map(
          (p) =>
            `(SELECT COUNT(*) FROM alerts WHERE client_id = :clientId AND priority = ${p} AND created_at >= :from AND created_at < :to) AS p${p}`,
        )
        .join(', ')}`,
      { clientId: principal.clientId, from, to },
    ),
    countAlerts(deps, principal, 'active'),
  ]);
  const byPriority = { low: 0, medium: 0, high: 0 };
  for (const p of priorities) byPriority[PRIORITY_KEYS[p]] = Number(counts[`p${p}`]);
  return { by_priority: byPriority, open };
}

/** The client's alerts in one status, from the counts the database keeps (alert_filter_counts, P200). */
export function countAlerts(deps: AlertDeps, principal: StaffPrincipal, status: 'active' | 'closed' = 'active'): Promise<number> {
  return countFromFilterCounts(deps.sequelize, ['al.client_id = :clientId', 'al.status = :status'], {
    clientId: principal.clientId,
    status: status === 'active' ? ALERT_STATUS.open : ALERT_STATUS.closed,
  });
}

/** Short polling for the alerts manager (P65): alerts newer than the id the page already knows. */
export async function alertUpdates(deps: AlertDeps, principal: StaffPrincipal, sinceId: number | undefined) {
  const open = await countAlerts(deps, principal, 'active');
  if (sinceId == null) {
    const [last] = await select<{ id: number }>(
      deps.sequelize,
      'SELECT id FROM alerts WHERE client_id = :clientId ORDER BY id DESC LIMIT 1',
      { clientId: principal.clientId },
    );
    return { last_id: last ? Number(last.id) : 0, open_count: open, alerts: [] };
  }
  const rows = await select<AlertRow>(
    deps.sequelize,
    `${SELECT_ALERT} WHERE al.client_id = :clientId AND al.id > :sinceId ORDER BY al.id LIMIT 50`,
    {
      clientId: principal.clientId,
      sinceId,
    },
  );
  const alerts = await toDtos(deps.sequelize, rows);
  return { last_id: alerts.length ? alerts.at(-1)!.id : sinceId, open_count: open, alerts };
}
