import { Op, type Sequelize, type WhereOptions } from 'sequelize';
import { execute } from '../../db/sql.js';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors.js';
import type { ListParams } from '../../http/list-params.js';
import type { StaffPrincipal } from '../../http/auth.js';
import { can, PATIENT_STATUS } from '@vigia/contract/rules/access';
import { GENDERS, type Catalogues } from '../catalogues/catalogues.service.js';
import { findPatient } from '../patients/patients.service.js';
import { Patient } from '../../db/models/patients.model.js';
import { ageOn } from '../patients/patients.rules.js';
import { User } from '../../db/models/users.model.js';
import { Stock, Supply } from '../../db/models/inventory.model.js';
import { dayRange, findSupply } from '../inventory/inventory.common.js';
import { applyMove } from '../inventory/inventory.moves.js';
import { Encounter, EncounterObservation } from '../../db/models/encounters.model.js';
import * as rules from '@vigia/contract/rules/encounters';
import type { components } from '@vigia/contract/openapi';
import { localDate } from '@vigia/contract/rules/dates';
import * as tele from './encounters.teleconsultation.js';

type S = components['schemas'];

export interface EncounterDeps {
  sequelize: Sequelize;
  catalogues: Catalogues;
  now: () => Date;
  /** The organisation's time zone (module clients' clientTimeZone): its days and its dates. */
  clientTimeZone: (clientId: number) => Promise<string>;
  /** Where a closed teleconsultation's RDA goes (module rdas' recordRda); optional until it is wired. */
  recordRda?: tele.RecordRda;
  /** The latest version of a closed teleconsultation's RDA (module rdas' latestEncounterRda). */
  latestRda?: tele.LatestRda;
}

const DECEASED = 'El paciente está registrado como fallecido; su ficha no admite cambios.';
const DONE = 'La atención ya fue realizada; no admite cambios.';

function toObservationDto(o: EncounterObservation): S['EncounterObservation'] {
  const logs = typeof o.logs_obs === 'string' ? JSON.parse(o.logs_obs) : o.logs_obs;
  return {
    id: o.id,
    clinical_element: o.clinical_element,
    encounter_id: o.encounter_id,
    patient_id: o.patient_id,
    date: new Date(o.date).toISOString(),
    source: o.source,
    value: o.value,
    logs_obs: logs ?? [],
  };
}

async function toEncounterDto(deps: EncounterDeps, e: Encounter, patient: Patient): Promise<S['Encounter']> {
  const [responsible, supply, stock, observations] = await Promise.all([
    e.responsible ? User.findByPk(e.responsible, { attributes: ['first_name', 'last_name'] }) : null,
    e.medication_id ? Supply.findByPk(e.medication_id) : null,
    e.stock_id ? Stock.findByPk(e.stock_id, { attributes: ['serial'] }) : null,
    EncounterObservation.findAll({ where: { encounter_id: e.id }, order: [['id', 'ASC']] }),
  ]);
  return {
    id: e.id,
    patient_id: e.patient_id,
    kind: e.kind as S['EncounterKind'],
    status: e.status as S['Encounter']['status'],
    checkout: e.checkout ? new Date(e.checkout).toISOString() : null,
    responsible: e.responsible,
    responsible_name: responsible ? `${responsible.first_name} ${responsible.last_name}` : null,
    medication_id: e.medication_id,
    medication_name: supply?.tradename ?? null,
    biological_type: supply?.generic_name ?? null,
    stock_id: e.stock_id,
    serial: stock?.serial ?? null,
    dose: e.dose,
    management: e.management,
    vaccination_card: e.vaccination_card == null ? null : Boolean(e.vaccination_card),
    observations: e.observations,
    dispositivo: e.dispositivo,
    created_at: new Date(e.created_at).toISOString(),
    patient: {
      id: patient.id,
      full_name: `${patient.first_name} ${patient.last_name}`,
      id_type_name: deps.catalogues.idType(patient.id_type)?.name ?? '',
      nid: patient.nid,
      age: ageOn(patient.birth_date, localDate(deps.now(), patient.time_zone)),
      gender_name: GENDERS[patient.gender] ?? 'Otro',
      status: patient.status as S['PatientStatus'],
    },
    elements: observations.map(toObservationDto),
    teleconsultation: e.kind === TELECONSULTATION ? await tele.teleconsultationDto(deps, e) : null,
  };
}

const TELECONSULTATION = 'teleconsultation';
const NOT_TELECONSULTATION = 'Esta atención no es una teleconsulta.';

function assertWritable(actor: StaffPrincipal, patient: Patient) {
  if (!can(actor.role, 'clinical.write')) throw forbidden();
  if (patient.status === PATIENT_STATUS.deceased) throw forbidden(DECEASED);
}

async function findEncounter(clientId: number, id: number, field?: string): Promise<Encounter> {
  const e = await Encounter.findOne({ where: { id, client_id: clientId } });
  if (!e) throw field ? badRequest(field, 'La atención no existe.') : notFound('La atención no existe.');
  return e;
}

export async function createEncounter(deps: EncounterDeps, actor: StaffPrincipal, patientId: number, kind: string, alertId?: number) {
  const patient = await findPatient(actor.clientId, patientId);
  assertWritable(actor, patient);
  if (alertId !== undefined && kind !== TELECONSULTATION) throw badRequest('alert_id', 'Solo una teleconsulta se abre desde una alerta.');
  const own = kind === TELECONSULTATION ? await tele.newTeleconsultationFields(deps, actor.clientId, patient.id, alertId) : {};
  const e = await Encounter.create({
    ...own,
    client_id: actor.clientId,
    patient_id: patient.id,
    kind,
    status: rules.ENCOUNTER_STATUS.pending,
    checkout: null,
    responsible: null,
    created_by: actor.userId,
    medication_id: null,
    stock_id: null,
    dose: null,
    management: null,
    vaccination_card: null,
    observations: null,
    dispositivo: null,
  });
  return toEncounterDto(deps, e, patient);
}

export async function getEncounter(deps: EncounterDeps, clientId: number, id: number) {
  const e = await findEncounter(clientId, id);
  return toEncounterDto(deps, e, await findPatient(clientId, e.patient_id));
}

export async function listPatientEncounters(deps: EncounterDeps, clientId: number, patientId: number, p: ListParams) {
  const patient = await findPatient(clientId, patientId);
  const { rows, count } = await Encounter.findAndCountAll({
    where: { client_id: clientId, patient_id: patient.id },
    order: [
      ['created_at', 'DESC'],
      ['id', 'DESC'],
    ],
    offset: p.offset,
    limit: p.limit,
  });
  return { rows: await Promise.all(rows.map((e) => toEncounterDto(deps, e, patient))), total: count };
}

/** The batch a vaccination takes its unit from: the one asked for, else the first to expire (FEFO). */
async function chooseBatch(clientId: number, supplyId: number, stockId: number | null | undefined, today: string): Promise<Stock> {
  if (stockId) {
    const s = await Stock.findOne({ where: { id: stockId, client_id: clientId } });
    if (!s) throw badRequest('stock_id', 'El lote no existe.');
    if (s.medical_supply_id !== supplyId) throw badRequest('stock_id', 'El lote no corresponde al laboratorio elegido.');
    if (s.expiration_date < today) throw badRequest('stock_id', `El lote ${s.serial} está vencido.`);
    return s;
  }
  const s = await Stock.findOne({
    where: {
      client_id: clientId,
      medical_supply_id: supplyId,
      active: true,
      cuantity: { [Op.gte]: 1 },
      expiration_date: { [Op.gte]: today },
    },
    order: [
      ['expiration_date', 'ASC'],
      ['id', 'ASC'],
    ],
  });
  if (!s) throw badRequest('medication_id', 'No hay lotes vigentes con unidades disponibles de este biológico.');
  return s;
}

export async function saveEncounter(deps: EncounterDeps, actor: StaffPrincipal, id: number, input: S['EncounterUpdate']) {
  const e = await findEncounter(actor.clientId, id);
  const patient = await findPatient(actor.clientId, e.patient_id);
  assertWritable(actor, patient);
  if (e.status === rules.ENCOUNTER_STATUS.done) throw conflict(DONE);
  // 'Guardar' would close it without its RDA: a teleconsultation closes only through closeEncounter.
  if (e.kind === TELECONSULTATION) throw conflict('Una teleconsulta se cierra con «Cerrar teleconsulta», que escribe su RDA.');
  const now = deps.now();
  const fields = {
    management: input.management !== undefined ? input.management?.trim() || null : e.management,
    observations: input.observations !== undefined ? input.observations?.trim() || null : e.observations,
    vaccination_card: input.vaccination_card !== undefined ? input.vaccination_card : e.vaccination_card,
    dispositivo: input.dispositivo !== undefined ? input.dispositivo?.trim() || null : e.dispositivo,
    medication_id: input.medication_id !== undefined ? input.medication_id : e.medication_id,
    dose: input.dose !== undefined ? input.dose : e.dose,
    stock_id: e.stock_id,
  };
  let batch: Stock | null = null;
  if (e.kind === 'vaccination') {
    const problem = rules.vaccinationProblem({
      biological_type: input.biological_type ?? null,
      medication_id: fields.medication_id,
      dose: fields.dose,
    });
    if (problem) throw badRequest(problem.field, problem.message);
    const supply = await findSupply(actor.clientId, fields.medication_id!, 'medication_id');
    if (supply.type !== 'biologico' || (supply.generic_name ?? '').toUpperCase() !== input.biological_type!.trim().toUpperCase()) {
      throw badRequest('medication_id', 'El laboratorio no corresponde al tipo de biológico elegido.');
    }
    const zone = await deps.clientTimeZone(actor.clientId);
    batch = await chooseBatch(actor.clientId, supply.id, input.stock_id, localDate(now, zone));
    fields.stock_id = batch.id;
  } else {
    const values = new Map(
      (await EncounterObservation.findAll({ where: { encounter_id: e.id } })).map((o) => [o.clinical_element, o.value]),
    );
    const missing = rules.firstMissing(values);
    if (missing) throw badRequest(`element_${missing.id}`, `${missing.name}: ¡El campo es requerido!`);
  }
  await deps.sequelize.transaction(async (transaction) => {
    // Conditional: two clicks on 'Guardar' cannot both take a unit.
    const changed = await execute(
      deps.sequelize,
      `UPDATE encounters SET status = :done, checkout = :now, responsible = :uid, updated_at = :now, medication_id = :medication_id,
        stock_id = :stock_id, dose = :dose, management = :management, observations = :observations, vaccination_card = :vaccination_card,
        dispositivo = :dispositivo WHERE id = :id AND client_id = :cid AND status = :pending`,
      {
        ...fields,
        done: rules.ENCOUNTER_STATUS.done,
        pending: rules.ENCOUNTER_STATUS.pending,
        now,
        uid: actor.userId,
        id: e.id,
        cid: actor.clientId,
      },
      transaction,
    );
    if (changed !== 1) throw conflict(DONE);
    if (batch) {
      await applyMove(
        deps,
        {
          clientId: actor.clientId,
          stockId: batch.id,
          type: 'aplicacion',
          amount: 1,
          author: actor.userId,
          encounterId: e.id,
          notes: `Aplicación a ${patient.first_name} ${patient.last_name}`,
        },
        transaction,
      );
    }
  });
  return getEncounter(deps, actor.clientId, id);
}

/** The teleconsultation `id` of the user's client, which the user may write. */
async function writableTeleconsultation(actor: StaffPrincipal, id: number): Promise<Encounter> {
  const e = await findEncounter(actor.clientId, id);
  assertWritable(actor, await findPatient(actor.clientId, e.patient_id));
  if (e.kind !== TELECONSULTATION) throw conflict(NOT_TELECONSULTATION);
  return e;
}

export async function updateTeleconsultation(deps: EncounterDeps, actor: StaffPrincipal, id: number, input: S['TeleconsultationUpdate']) {
  await tele.updateTeleconsultationDraft(deps, await writableTeleconsultation(actor, id), input);
  return getEncounter(deps, actor.clientId, id);
}

export async function teleconsultationRdaGaps(deps: EncounterDeps, actor: StaffPrincipal, id: number) {
  return tele.teleconsultationGaps(deps, await writableTeleconsultation(actor, id), actor.userId);
}

/** A nota aclaratoria of a closed teleconsultation: the same writers as its close (clinical.write, not a deceased patient's). */
export async function amendEncounter(deps: EncounterDeps, actor: StaffPrincipal, id: number, input: S['TeleconsultationAmendment']) {
  return tele.amendTeleconsultation(deps, actor, await writableTeleconsultation(actor, id), input);
}

export async function closeEncounter(deps: EncounterDeps, actor: StaffPrincipal, id: number) {
  await tele.closeTeleconsultation(deps, actor, await writableTeleconsultation(actor, id));
  return getEncounter(deps, actor.clientId, id);
}

export function elementsOf(type?: string): S['EncounterElement'][] {
  return rules.ENCOUNTER_ELEMENTS.filter((e) => !type || e.type === type).map((e) => ({ ...e }));
}

export async function assertEncounter(clientId: number, id: number) {
  await findEncounter(clientId, id);
}

export async function createObservation(deps: EncounterDeps, actor: StaffPrincipal, input: S['EncounterObservationInput']) {
  const e = await findEncounter(actor.clientId, input.encounter_id);
  const patient = await findPatient(actor.clientId, e.patient_id);
  assertWritable(actor, patient);
  const element = rules.elementById(input.clinical_element);
  if (!element) throw badRequest('clinical_element', 'El elemento clínico no existe.');
  const problem = rules.validateElementValue(element, input.value);
  if (problem) throw badRequest('value', problem);
  const existing = await EncounterObservation.findOne({ where: { encounter_id: e.id, clinical_element: element.id } });
  if (existing) throw conflict('Ese elemento ya tiene un valor en esta atención; modifíquelo.', 'clinical_element');
  const o = await EncounterObservation.create({
    client_id: actor.clientId,
    encounter_id: e.id,
    patient_id: e.patient_id,
    clinical_element: element.id,
    date: deps.now(),
    source: 'staff',
    value: input.value.trim(),
    logs_obs: [],
  });
  return toObservationDto(o);
}

export async function updateObservation(deps: EncounterDeps, actor: StaffPrincipal, id: number, value: string) {
  const o = await EncounterObservation.findOne({ where: { id, client_id: actor.clientId } });
  if (!o) throw notFound('La observación no existe.');
  const patient = await findPatient(actor.clientId, o.patient_id);
  assertWritable(actor, patient);
  const element = rules.elementById(o.clinical_element)!;
  const problem = rules.validateElementValue(element, value);
  if (problem) throw badRequest('value', problem);
  const after = value.trim();
  if (after !== o.value) {
    const logs = typeof o.logs_obs === 'string' ? JSON.parse(o.logs_obs) : [...(o.logs_obs ?? [])];
    logs.push(rules.logEntry(o.value, after, deps.now(), patient.time_zone));
    o.logs_obs = logs;
    o.value = after;
    o.changed('logs_obs', true);
    await o.save();
  }
  return toObservationDto(o);
}

/** The batch view's application table: encounters saved with this batch (03 §2 'Ver Lote'). */
export async function listStockApplications(
  deps: Pick<EncounterDeps, 'clientTimeZone'>,
  clientId: number,
  stockId: number,
  p: ListParams,
  f: { date1?: string; date2?: string },
) {
  const where: WhereOptions<Encounter> = { client_id: clientId, stock_id: stockId, status: rules.ENCOUNTER_STATUS.done };
  const range = dayRange(f.date1, f.date2, await deps.clientTimeZone(clientId));
  if (range) Object.assign(where, { checkout: range });
  const { rows, count } = await Encounter.findAndCountAll({
    where,
    order: [
      ['checkout', 'DESC'],
      ['id', 'DESC'],
    ],
    offset: p.offset,
    limit: p.limit,
  });
  const patients = new Map(
    (rows.length ? await Patient.findAll({ where: { id: [...new Set(rows.map((r) => r.patient_id))] } }) : []).map((x) => [x.id, x]),
  );
  const userIds = [...new Set(rows.map((r) => r.responsible).filter((x): x is number => x != null))];
  const users = new Map(
    (userIds.length ? await User.findAll({ where: { id: userIds } }) : []).map((u) => [u.id, `${u.first_name} ${u.last_name}`]),
  );
  return {
    total: count,
    rows: rows.map((r): S['StockApplication'] => {
      const pt = patients.get(r.patient_id);
      return {
        encounter_id: r.id,
        patient_id: r.patient_id,
        patient_name: pt ? `${pt.first_name} ${pt.last_name}` : '',
        nid: pt?.nid ?? '',
        checkout: new Date(r.checkout!).toISOString(),
        dose: r.dose,
        responsible_name: r.responsible != null ? (users.get(r.responsible) ?? null) : null,
      };
    }),
  };
}
