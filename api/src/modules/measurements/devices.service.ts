import crypto from 'node:crypto';
import type { Sequelize, Transaction } from 'sequelize';
import { execute, insertReturningId, select } from '../../db/sql.js';
import { AppError, badRequest, conflict, notFound } from '../../http/errors.js';
import { normaliseNid } from '@vigia/contract/rules/validation';
import { ingestReadings, type IngestDeps, type IngestItem, type IngestPatient } from './measurements.ingest.js';
import type { components } from '@vigia/contract/openapi';

type DeviceDto = components['schemas']['Device'];

/**
 * Device gateways (01 §2 Ajustes: a patient's `card_id`, or a multi-patient card whose readings
 * name the patient). Each device has its own secret, shown once when registered or rotated and
 * stored only as a SHA-256 hash (it is 32 random bytes, so a slow hash adds nothing).
 */

interface DeviceRow {
  id: number;
  client_id: number;
  card_id: string;
  multipatient: boolean | number;
  name: string | null;
  secret_hash: string;
  secret_rotated_at: Date | string;
  last_seen_at: Date | string | null;
  created_at: Date | string;
}

const iso = (v: Date | string | null) => (v == null ? null : (v instanceof Date ? v : new Date(v)).toISOString());
const hashSecret = (secret: string) => crypto.createHash('sha256').update(secret, 'utf8').digest();
const newSecret = () => `vgd_${crypto.randomBytes(32).toString('base64url')}`;

function toDeviceDto(d: DeviceRow): DeviceDto {
  return {
    id: d.id,
    card_id: d.card_id,
    multipatient: !!d.multipatient,
    name: d.name,
    secret_rotated_at: iso(d.secret_rotated_at)!,
    last_seen_at: iso(d.last_seen_at),
    created_at: iso(d.created_at)!,
  };
}

const COLUMNS = 'id, client_id, card_id, multipatient, name, secret_hash, secret_rotated_at, last_seen_at, created_at';

export async function listDevices(sequelize: Sequelize, clientId: number) {
  const rows = await select<DeviceRow>(sequelize, `SELECT ${COLUMNS} FROM devices WHERE client_id = :c ORDER BY card_id`, { c: clientId });
  return rows.map(toDeviceDto);
}

export async function registerDevice(sequelize: Sequelize, clientId: number, now: Date, body: components['schemas']['DeviceInput']) {
  const cardId = body.card_id.trim();
  if (!cardId) throw badRequest('card_id', '¡El campo es requerido!');
  if (body.multipatient) {
    const [c] = await select<{ multipatient: boolean | number }>(sequelize, 'SELECT multipatient FROM clients WHERE id = :c', {
      c: clientId,
    });
    if (!c?.multipatient) throw badRequest('multipatient', 'El cliente no tiene habilitada la tarjeta multipaciente.');
  }
  // Card numbers are unique per client (P147): another client's device with the same number is
  // neither a conflict nor visible here.
  const taken = () => conflict('Ya existe un dispositivo con ese número de tarjeta.', 'card_id');
  const [existing] = await select<{ id: number }>(sequelize, 'SELECT id FROM devices WHERE client_id = :c AND card_id = :card', {
    c: clientId,
    card: cardId,
  });
  if (existing) throw taken();
  const secret = newSecret();
  const id = await insertReturningId(
    sequelize,
    `INSERT INTO devices (client_id, card_id, multipatient, name, secret_hash, secret_rotated_at, created_at, updated_at)
     VALUES (:c, :card, :multi, :name, :hash, :now, :now, :now) RETURNING id`,
    {
      c: clientId,
      card: cardId,
      multi: !!body.multipatient,
      name: body.name?.trim() || null,
      hash: hashSecret(secret).toString('hex'),
      now,
    },
  ).catch((err: unknown) => {
    // The same number registered twice at once in this client: unique (client_id, card_id).
    throw (err as Error)?.name === 'SequelizeUniqueConstraintError' ? taken() : err;
  });
  const [row] = await select<DeviceRow>(sequelize, `SELECT ${COLUMNS} FROM devices WHERE id = :id`, { id });
  return { ...toDeviceDto(row), secret };
}

export async function rotateDeviceSecret(sequelize: Sequelize, clientId: number, id: number, now: Date) {
  const secret = newSecret();
  const changed = await execute(
    sequelize,
    'UPDATE devices SET secret_hash = :hash, secret_rotated_at = :now, updated_at = :now WHERE id = :id AND client_id = :c',
    { hash: hashSecret(secret).toString('hex'), now, id, c: clientId },
  );
  if (!changed) throw notFound('El dispositivo no existe.');
  const [row] = await select<DeviceRow>(sequelize, `SELECT ${COLUMNS} FROM devices WHERE id = :id`, { id });
  return { ...toDeviceDto(row), secret };
}

export async function deleteDevice(sequelize: Sequelize, clientId: number, id: number) {
  const changed = await execute(sequelize, 'DELETE FROM devices WHERE id = :id AND client_id = :c', { id, c: clientId });
  if (!changed) throw notFound('El dispositivo no existe.');
}

const DEVICE_UNAUTHORIZED = 'Dispositivo no autorizado.';
const DUMMY_HASH = hashSecret(newSecret());

/**
 * The card names the device only within its client (P147): every device with this card number is
 * a candidate, and the secret picks one. Each candidate's hash is compared in constant time, all of
 * them whatever matched (an unknown card is compared against a dummy hash), so an unknown card and
 * a wrong secret answer the same 401 after the same work. One query per request, as before.
 */
async function authenticateDevice(sequelize: Sequelize, cardId: string, secret: string | undefined): Promise<DeviceRow> {
  const candidates = await select<DeviceRow>(sequelize, `SELECT ${COLUMNS} FROM devices WHERE card_id = :card`, { card: cardId });
  const given = hashSecret(secret ?? '');
  let device: DeviceRow | null = null;
  for (const candidate of candidates.length ? candidates : [null]) {
    const expected = candidate ? Buffer.from(candidate.secret_hash, 'hex') : DUMMY_HASH;
    const ok = crypto.timingSafeEqual(given, expected.length === given.length ? expected : DUMMY_HASH);
    if (ok && candidate && !device) device = candidate;
  }
  if (!device || !secret) throw new AppError(401, 'unauthorized', DEVICE_UNAUTHORIZED);
  return device;
}

type DeviceReading = components['schemas']['DeviceReading'];

/** Resolves each reading's patient through the card: the card's one patient, or by document on a multi-patient card. */
async function resolvePatients(
  sequelize: Sequelize,
  device: DeviceRow,
  readings: DeviceReading[],
  prefix: (i: number) => string,
): Promise<IngestPatient[]> {
  if (!device.multipatient) {
    const patients = await select<IngestPatient & { nid: string }>(
      sequelize,
      'SELECT id, status, nid FROM patients WHERE client_id = :c AND card_id = :card LIMIT 2',
      { c: device.client_id, card: device.card_id },
    );
    if (!patients.length) throw conflict('La tarjeta no está asignada a ningún paciente.', 'card_id');
    if (patients.length > 1) throw conflict('La tarjeta está asignada a más de un paciente.', 'card_id');
    readings.forEach((r, i) => {
      if (r.patient_nid && normaliseNid(r.patient_nid) !== patients[0].nid)
        throw badRequest(`${prefix(i)}patient_nid`, 'El paciente no está asociado a esta tarjeta.');
    });
    return readings.map(() => patients[0]);
  }
  readings.forEach((r, i) => {
    if (!r.patient_nid?.trim())
      throw badRequest(`${prefix(i)}patient_nid`, 'Una tarjeta multipaciente debe indicar el documento del paciente en cada lectura.');
  });
  const nids = [...new Set(readings.map((r) => normaliseNid(r.patient_nid!)))];
  const rows = await select<IngestPatient & { nid: string }>(
    sequelize,
    'SELECT id, status, nid FROM patients WHERE client_id = :c AND multipatient_card_id = :card AND nid IN (:nids)',
    { c: device.client_id, card: device.card_id, nids },
  );
  const byNid = new Map<string, IngestPatient & { nid: string }>();
  for (const p of rows) {
    if (byNid.has(p.nid)) throw conflict('Hay más de un paciente con ese documento en la tarjeta.', 'patient_nid');
    byNid.set(p.nid, p);
  }
  return readings.map((r, i) => {
    const p = byNid.get(normaliseNid(r.patient_nid!));
    if (!p) throw badRequest(`${prefix(i)}patient_nid`, 'El paciente no está asociado a esta tarjeta.');
    return p;
  });
}

const lastSeenWritten = new Map<number, number>();

export async function receiveDeviceReadings(
  deps: IngestDeps,
  cardId: string,
  secret: string | undefined,
  body: components['schemas']['DeviceReadingsInput'],
) {
  const device = await authenticateDevice(deps.sequelize, cardId, secret);
  const batch = Array.isArray(body.readings) ? body.readings : null;
  if (batch && (body.clinical_element != null || body.value != null || body.systolic != null || body.diastolic != null)) {
    throw badRequest('readings', 'Envíe una lectura o una lista de lecturas, no ambas.');
  }
  if (batch && !batch.length) throw badRequest('readings', 'Debe tener al menos 1 elementos.');
  const readings = batch ?? [body];
  const prefix = (i: number) => (batch ? `readings.${i}.` : '');
  const seen = new Set<string>();
  readings.forEach((r, i) => {
    if (!r.reading_id) return;
    if (seen.has(r.reading_id)) throw badRequest(`${prefix(i)}reading_id`, 'El identificador de lectura está repetido en el lote.');
    seen.add(r.reading_id);
  });
  const patients = await resolvePatients(deps.sequelize, device, readings, prefix);
  const items: IngestItem[] = readings.map((input, i) => ({
    patient: patients[i],
    input,
    readingId: input.reading_id ?? null,
    fieldPrefix: prefix(i),
  }));
  const result = await ingestReadings(deps, {
    clientId: device.client_id,
    source: 'device',
    batch: Boolean(batch),
    deviceId: device.id,
    items,
  });
  // Last contact, written at most once a minute per device and process: not a write per reading.
  const now = deps.now();
  if ((lastSeenWritten.get(device.id) ?? 0) < now.getTime() - 60_000) {
    lastSeenWritten.set(device.id, now.getTime());
    await execute(deps.sequelize, 'UPDATE devices SET last_seen_at = :now WHERE id = :id', { now, id: device.id });
  }
  return { stored: readings.length - result.duplicates, duplicates: result.duplicates, measurements: result.stored.map((s) => s.id) };
}

/**
 * The gateways with these cards changed hands (a patient's card_id was set or cleared): their
 * updated_at moves, as a FHIR Device's patient is the one holding its card (issue 37), so
 * `_lastUpdated` searches and an export's `_since` find them. Asked by the patients module in its
 * own transaction (composition root).
 */
export async function touchDevicesOfCards(
  sequelize: Sequelize,
  clientId: number,
  cards: string[],
  now: Date,
  transaction?: Transaction,
): Promise<void> {
  if (!cards.length) return;
  await execute(
    sequelize,
    'UPDATE devices SET updated_at = :now WHERE client_id = :clientId AND card_id IN (:cards)',
    { now, clientId, cards },
    transaction,
  );
}
