import type { Sequelize, Transaction } from 'sequelize';
import { execute, insertReturningId, select } from '../../db/sql.js';
import { badRequest, forbidden, notFound } from '../../http/errors.js';
import type { ListParams } from '../../http/list-params.js';
import type { StaffPrincipal } from '../../http/auth.js';
import { displayName } from '@vigia/contract/rules/names';
import { patientForRead, patientForWrite } from './record-access.js';
import { toIso } from '../../db/raw-dates.js';
import { AI_SUMMARY_TYPE, observationTypeName, timespanText } from './observations.rules.js';
import type { components } from '@vigia/contract/openapi';

type ObservationDto = components['schemas']['Observation'];
type ObservationInput = components['schemas']['ObservationInput'];

interface ObservationRow {
  id: number;
  observation_type: number;
  value_text: string;
  user_name: string | null;
  observed_at: string | Date;
  erasable: boolean | number;
}

const COLUMNS = 'id, observation_type, value_text, user_name, observed_at, erasable';

/** The one place an observations row becomes the contract's Observation. */
function toObservationDto(r: ObservationRow, timeZone: string, now: Date): ObservationDto {
  const at = new Date(toIso(r.observed_at)!);
  return {
    id: Number(r.id),
    observation_type: Number(r.observation_type) as ObservationDto['observation_type'],
    observation_type_name: observationTypeName(Number(r.observation_type)),
    value_text: r.value_text,
    user_name: r.user_name,
    observed_at: at.toISOString(),
    time_zone: timeZone,
    timespan_text: timespanText(at, now),
    erasable: !!r.erasable,
  };
}

export async function listObservations(sequelize: Sequelize, principal: StaffPrincipal, patientId: number, p: ListParams, now: Date) {
  const patient = await patientForRead(principal, patientId);
  const params = { clientId: principal.clientId, patientId };
  const rows = await select<ObservationRow>(
    sequelize,
    `SELECT ${COLUMNS} FROM observations WHERE client_id = :clientId AND patient_id = :patientId ORDER BY observed_at DESC, id DESC LIMIT :limit OFFSET :offset`,
    { ...params, limit: p.limit, offset: p.offset },
  );
  const [{ n }] = await select<{ n: number }>(
    sequelize,
    'SELECT COUNT(*) AS n FROM observations WHERE client_id = :clientId AND patient_id = :patientId',
    params,
  );
  return { rows: rows.map((r) => toObservationDto(r, patient.time_zone, now)), total: Number(n) };
}

async function insertObservation(
  sequelize: Sequelize,
  v: {
    clientId: number;
    patientId: number;
    type: number;
    text: string;
    userId: number | null;
    userName: string | null;
    erasable: boolean;
    now: Date;
  },
  transaction?: Transaction,
): Promise<number> {
  return insertReturningId(
    sequelize,
    `INSERT INTO observations (client_id, patient_id, observation_type, value_text, user_id, user_name, observed_at, erasable, created_at)
     VALUES (:clientId, :patientId, :type, :text, :userId, :userName, :now, :erasable, :now) RETURNING id`,
    v,
    transaction,
  );
}

async function findObservation(sequelize: Sequelize, clientId: number, patientId: number, id: number): Promise<ObservationRow> {
  const [row] = await select<ObservationRow>(
    sequelize,
    `SELECT ${COLUMNS} FROM observations WHERE id = :id AND client_id = :clientId AND patient_id = :patientId`,
    { id, clientId, patientId },
  );
  if (!row) throw notFound('La anotación no existe.');
  return row;
}

/** Staff notes (types 0 to 4) are erasable; the assistant's summaries are not. */
export async function createObservation(
  sequelize: Sequelize,
  principal: StaffPrincipal,
  patientId: number,
  input: ObservationInput,
  now: Date,
) {
  const patient = await patientForWrite(principal, patientId, 'clinical.write');
  const text = input.value_text.trim();
  if (!text) throw badRequest('value_text', '¡El campo es requerido!');
  const u = principal.user;
  const id = await insertObservation(sequelize, {
    clientId: principal.clientId,
    patientId,
    type: input.observation_type,
    text,
    userId: principal.userId,
    userName: displayName(`${u.first_name} ${u.last_name}`),
    erasable: true,
    now,
  });
  return toObservationDto(await findObservation(sequelize, principal.clientId, patientId, id), patient.time_zone, now);
}

/**
 * For the AI assistant: a conversation summary (type 5), kept for good. The assistant's jobs call
 * it through their deps (this module writes observations), signed with the assistant's name.
 */
export function recordConversationSummary(
  sequelize: Sequelize,
  clientId: number,
  patientId: number,
  text: string,
  now: Date,
  opts: { transaction?: Transaction; author?: string } = {},
) {
  return insertObservation(
    sequelize,
    { clientId, patientId, type: AI_SUMMARY_TYPE, text, userId: null, userName: opts.author ?? 'Glady IA', erasable: false, now },
    opts.transaction,
  );
}

export async function deleteObservation(sequelize: Sequelize, principal: StaffPrincipal, patientId: number, id: number): Promise<void> {
  await patientForWrite(principal, patientId, 'clinical.write');
  const row = await findObservation(sequelize, principal.clientId, patientId, id);
  if (!row.erasable) throw forbidden('Esta anotación no se puede eliminar.');
  await execute(sequelize, 'DELETE FROM observations WHERE id = :id', { id });
}
