import type { Sequelize, Transaction } from 'sequelize';
import { execute, select } from '../../db/sql.js';
import { AppError, badRequest, conflict } from '../../http/errors.js';
import type { StaffPrincipal } from '../../http/auth.js';
import type { Catalogues } from '../catalogues/catalogues.service.js';
import type { CodeListName } from '../catalogues/catalogues.sync.js';
import { Encounter } from '../../db/models/encounters.model.js';
import { ClientSite } from '../../db/models/clients.model.js';
import { ambulatoryDocument } from '../fhir/rda.document.js';
import { documentUuids } from '../fhir/rda.profiles.js';
import {
  consultationGaps,
  consultationInput,
  loadConsultationRecords,
  loadDiagnoses,
  loadReadingIds,
  loadRiskFactors,
} from './encounters.rda-inputs.js';
import { epicrisisPdf } from './encounters.epicrisis.js';
import { rdaComplete, type RdaGap } from '@vigia/contract/rules/rda';
import { correctionReasonOf, diagnosesProblem, sickLeaveProblem, TELECONSULTATION_DEFAULTS } from '@vigia/contract/rules/teleconsultations';
import { ENCOUNTER_STATUS } from '@vigia/contract/rules/encounters';
import { MEASUREMENT_STATUS } from '@vigia/contract/rules/vitals';
import type { components } from '@vigia/contract/openapi';

type S = components['schemas'];

/**
 * The teleconsultation ('Teleconsulta / telemonitoreo', issue 51): its draft, the gaps of its RDA
 * and its close, which builds the RDA de consulta externa and hands it to the RDA store. The
 * encounters service finds the encounter and checks the user may write it; this file holds what
 * only a teleconsultation does.
 */

/** What the RDA store (module rdas) takes: the one entry every writer of an RDA calls. */
export interface RecordRdaInput {
  clientId: number;
  patientId: number;
  encounterId: number;
  kind: 'consulta';
  bundle: object;
  /** A nota aclaratoria: the version it replaces and the clinician's reason. */
  replaces?: { id: number; reason: string };
}
export type RecordRda = (input: RecordRdaInput, transaction?: Transaction) => Promise<unknown>;
/** The latest version of an encounter's RDA in the store (module rdas' latestEncounterRda). */
export type LatestRda = (
  clientId: number,
  encounterId: number,
  transaction?: Transaction,
) => Promise<{ id: number; identifier: string; version: number } | null>;

export interface TeleconsultationDeps {
  sequelize: Sequelize;
  catalogues: Catalogues;
  now: () => Date;
  /** The organisation's time zone (module clients' clientTimeZone): its days and its dates. */
  clientTimeZone: (clientId: number) => Promise<string>;
  /** The RDA store; without it a closed teleconsultation's RDA is built (so it is valid) and not kept. */
  recordRda?: RecordRda;
  /** The store's latest version of the encounter's RDA: what a nota aclaratoria replaces, what the form shows. */
  latestRda?: LatestRda;
}

const CLOSED = 'La teleconsulta ya fue cerrada; no admite cambios.';
const NOT_CLOSED = 'La teleconsulta no está cerrada: cambie su borrador y ciérrela; la nota aclaratoria es para una cerrada.';

/** The Spanish name of each list a teleconsultation's codes come from, for the 400 that names it. */
const LIST_NAMES: Partial<Record<CodeListName, string>> = {
  tech_modalities: 'modalidades de atención',
  care_environments: 'entornos de atención',
  reps_services: 'servicios REPS',
  cups_consultations: 'CUPS de consulta',
  external_causes: 'causas externas',
  license_scopes: 'alcances de incapacidad',
  icd10co: 'la CIE-10 de Colombia',
  diagnosis_types: 'tipos de diagnóstico',
  risk_factors: 'factores de riesgo',
};

function checkCode(catalogues: Catalogues, list: CodeListName, field: string, code: string | null | undefined) {
  if (code == null) return;
  if (!catalogues.code(list, code)) throw badRequest(field, `El código ${code} no existe en la lista de ${LIST_NAMES[list]}.`);
}

const nameOf = (catalogues: Catalogues, list: CodeListName, code: string | null) =>
  code ? (catalogues.code(list, code)?.name ?? null) : null;

export async function teleconsultationDto(deps: TeleconsultationDeps, e: Encounter): Promise<S['Teleconsultation']> {
  const c = deps.catalogues;
  const [diagnoses, risks, readingIds, site, rda] = await Promise.all([
    loadDiagnoses(deps.sequelize, e.id),
    loadRiskFactors(deps.sequelize, e.id),
    loadReadingIds(deps.sequelize, e.id),
    e.site_id ? ClientSite.findOne({ where: { id: e.site_id, client_id: e.client_id }, attributes: ['name'] }) : null,
    e.status === ENCOUNTER_STATUS.done && deps.latestRda ? deps.latestRda(e.client_id, e.id) : null,
  ]);
  const modality = e.modality ?? TELECONSULTATION_DEFAULTS.modality;
  const environment = e.environment ?? TELECONSULTATION_DEFAULTS.environment;
  const externalCause = e.external_cause ?? TELECONSULTATION_DEFAULTS.external_cause;
  return {
    modality,
    modality_name: nameOf(c, 'tech_modalities', modality),
    environment,
    environment_name: nameOf(c, 'care_environments', environment),
    reps_service: e.reps_service ?? null,
    reps_service_name: nameOf(c, 'reps_services', e.reps_service ?? null),
    cups_code: e.cups_code ?? null,
    cups_name: nameOf(c, 'cups_consultations', e.cups_code ?? null),
    external_cause: externalCause,
    external_cause_name: nameOf(c, 'external_causes', externalCause),
    reason: e.reason ?? null,
    findings: e.findings ?? null,
    plan: e.plan ?? null,
    medication_note: e.medication_note ?? null,
    sick_leave_scope: e.sick_leave_scope ?? null,
    sick_leave_scope_name: nameOf(c, 'license_scopes', e.sick_leave_scope ?? null),
    sick_leave_days: e.sick_leave_days ?? null,
    site_id: e.site_id ?? null,
    site_name: site?.name ?? null,
    alert_id: e.alert_id ?? null,
    diagnoses: diagnoses.map((d) => ({
      code: d.code,
      name: nameOf(c, 'icd10co', d.code) ?? d.code,
      rank: d.rank,
      diagnosis_type: d.diagnosis_type,
      diagnosis_type_name: nameOf(c, 'diagnosis_types', d.diagnosis_type),
    })),
    reading_ids: readingIds,
    risk_factors: risks.map((f) => ({ code: f.code, name: nameOf(c, 'risk_factors', f.code) ?? f.code, text: f.text })),
    rda_id: rda?.id ?? null,
  };
}

/** A new teleconsultation's own columns: the defaults, and the alert it was opened from (the patient's own). */
export async function newTeleconsultationFields(deps: TeleconsultationDeps, clientId: number, patientId: number, alertId?: number) {
  if (alertId !== undefined) {
    const [alert] = await select<{ id: number }>(
      deps.sequelize,
      'SELECT id FROM alerts WHERE id = :id AND client_id = :clientId AND patient_id = :patientId',
      {
        id: alertId,
        clientId,
        patientId,
      },
    );
    if (!alert) throw badRequest('alert_id', 'La alerta no existe o no es de este paciente.');
  }
  return { ...TELECONSULTATION_DEFAULTS, alert_id: alertId ?? null };
}

/** The text columns a draft takes as they come (trimmed, blank = null), and the coded ones. */
const TEXTS = ['reason', 'findings', 'plan', 'medication_note'] as const;
const CODES: Array<[keyof S['TeleconsultationUpdate'], CodeListName]> = [
  ['modality', 'tech_modalities'],
  ['environment', 'care_environments'],
  ['reps_service', 'reps_services'],
  ['cups_code', 'cups_consultations'],
  ['external_cause', 'external_causes'],
  ['sick_leave_scope', 'license_scopes'],
];

async function checkUpdate(deps: TeleconsultationDeps, e: Encounter, input: S['TeleconsultationUpdate']) {
  for (const [field, list] of CODES) checkCode(deps.catalogues, list, field, input[field] as string | null | undefined);
  for (const d of input.diagnoses ?? []) {
    checkCode(deps.catalogues, 'icd10co', 'diagnoses', d.code);
    checkCode(deps.catalogues, 'diagnosis_types', 'diagnoses', d.diagnosis_type);
  }
  const problem = input.diagnoses && diagnosesProblem(input.diagnoses);
  if (problem) throw badRequest('diagnoses', problem);
  for (const f of input.risk_factors ?? []) checkCode(deps.catalogues, 'risk_factors', 'risk_factors', f.code);
  const scope = input.sick_leave_scope !== undefined ? input.sick_leave_scope : (e.sick_leave_scope ?? null);
  const days = input.sick_leave_days !== undefined ? input.sick_leave_days : (e.sick_leave_days ?? null);
  const leave = sickLeaveProblem(scope, days);
  if (leave) throw badRequest(leave.field, leave.message);
  if (input.site_id != null && !(await ClientSite.findOne({ where: { id: input.site_id, client_id: e.client_id }, attributes: ['id'] }))) {
    throw badRequest('site_id', 'La sede no existe.');
  }
  const ids = [...new Set(input.reading_ids ?? [])];
  if (ids.length) {
    const found = await select<{ id: number }>(
      deps.sequelize,
      'SELECT id FROM measurements WHERE id IN (:ids) AND client_id = :clientId AND patient_id = :patientId AND status = :valid',
      { ids, clientId: e.client_id, patientId: e.patient_id, valid: MEASUREMENT_STATUS.valid },
    );
    const ok = new Set(found.map((r) => Number(r.id)));
    const wrong = ids.find((id) => !ok.has(id));
    if (wrong !== undefined) throw badRequest('reading_ids', `La medición ${wrong} no existe o no es de este paciente.`);
  }
  return ids;
}

/** Changes a draft: the columns given, and each list given replaced whole. */
export async function updateTeleconsultationDraft(deps: TeleconsultationDeps, e: Encounter, input: S['TeleconsultationUpdate']) {
  if (e.status === ENCOUNTER_STATUS.done) throw conflict(CLOSED);
  const readingIds = await checkUpdate(deps, e, input);
  await deps.sequelize.transaction((t) => writeChanges(deps, e, input, readingIds, ENCOUNTER_STATUS.pending, t));
}

/**
 * Writes checked changes to a teleconsultation in `status` (the draft's Pendiente, a nota
 * aclaratoria's Realizado): its columns given and each list given replaced whole. A
 * teleconsultation no longer in that status answers 409 and nothing is written.
 */
async function writeChanges(
  deps: TeleconsultationDeps,
  e: Encounter,
  input: S['TeleconsultationUpdate'],
  readingIds: number[],
  status: string,
  t: Transaction,
) {
  const now = deps.now();
  const set: Record<string, unknown> = {};
  for (const [field] of CODES) if (input[field] !== undefined) set[field] = input[field];
  for (const field of TEXTS) if (input[field] !== undefined) set[field] = input[field]?.trim() || null;
  if (input.sick_leave_days !== undefined) set.sick_leave_days = input.sick_leave_days;
  if (input.site_id !== undefined) set.site_id = input.site_id;
  const base = { encounterId: e.id, clientId: e.client_id, now };
  {
    // Column names come from the constants above; every value is bound.
    const assignments = Object.keys(set).map((k) => `${k} = :${k}`);
    const changed = await execute(
      deps.sequelize,
      `UPDATE encounters SET ${[...assignments, 'updated_at = :now'].join(', ')} WHERE id = :encounterId AND client_id = :clientId AND status = :status`,
      { ...set, ...base, status },
      t,
    );
    if (changed !== 1) throw conflict(status === ENCOUNTER_STATUS.pending ? CLOSED : NOT_CLOSED);
    if (input.diagnoses) {
      await execute(deps.sequelize, 'DELETE FROM encounter_diagnoses WHERE encounter_id = :encounterId', base, t);
      for (const [i, d] of input.diagnoses.entries()) {
        await execute(
          deps.sequelize,
          `INSERT INTO encounter_diagnoses (client_id, encounter_id, rank, code, diagnosis_type, created_at, updated_at)
           VALUES (:clientId, :encounterId, :rank, :code, :type, :now, :now)`,
          { ...base, rank: i + 1, code: d.code, type: d.diagnosis_type ?? null },
          t,
        );
      }
    }
    if (input.reading_ids) {
      await execute(deps.sequelize, 'DELETE FROM encounter_readings WHERE encounter_id = :encounterId', base, t);
      for (const id of readingIds) {
        await execute(
          deps.sequelize,
          `INSERT INTO encounter_readings (client_id, encounter_id, measurement_id, created_at, updated_at)
           VALUES (:clientId, :encounterId, :id, :now, :now)`,
          { ...base, id },
          t,
        );
      }
    }
    if (input.risk_factors) {
      await execute(deps.sequelize, 'DELETE FROM encounter_risk_factors WHERE encounter_id = :encounterId', base, t);
      for (const [i, f] of input.risk_factors.entries()) {
        await execute(
          deps.sequelize,
          `INSERT INTO encounter_risk_factors (client_id, encounter_id, position, code, text, created_at, updated_at)
           VALUES (:clientId, :encounterId, :position, :code, :text, :now, :now)`,
          { ...base, position: i + 1, code: f.code, text: f.text.trim() },
          t,
        );
      }
    }
  }
}

const recordsOf = (deps: TeleconsultationDeps, e: Encounter, userId: number) => loadConsultationRecords(deps, e, userId);

/** What the RDA still lacks if `userId` closed the teleconsultation now. */
export async function teleconsultationGaps(deps: TeleconsultationDeps, e: Encounter, userId: number): Promise<S['RdaGaps']> {
  if (e.status === ENCOUNTER_STATUS.done) throw conflict(CLOSED);
  const gaps = consultationGaps(deps, await recordsOf(deps, e, userId));
  return { complete: rdaComplete(gaps), gaps };
}

function incomplete(gaps: RdaGap[], what = 'cerrar la teleconsulta'): AppError {
  const required = gaps.filter((g) => g.required);
  return new AppError(
    409,
    'rda_incomplete',
    `No se puede ${what}: a su RDA le falta información. ${required.map((g) => g.message).join('; ')}.`,
    required.map((g) => ({ field: `${g.record}.${g.field}`, message: g.message })),
  );
}

/**
 * Closes a complete teleconsultation: builds its RDA (with the Epicrisis PDF), marks it done by
 * the closing user and hands the Bundle to the RDA store in the same transaction, so a
 * teleconsultation is never closed without its RDA kept. Incomplete: 409 with each gap, nothing
 * changes.
 */
export async function closeTeleconsultation(deps: TeleconsultationDeps, actor: StaffPrincipal, e: Encounter): Promise<void> {
  if (e.status === ENCOUNTER_STATUS.done) throw conflict(CLOSED);
  const records = await recordsOf(deps, e, actor.userId);
  const gaps = consultationGaps(deps, records);
  if (!rdaComplete(gaps)) throw incomplete(gaps);
  const now = deps.now();
  const input = await consultationInput(deps, records, now);
  const zone = await deps.clientTimeZone(e.client_id);
  const bundle = ambulatoryDocument({ ...input, epicrisisPdf: await epicrisisPdf(input, zone) }, { now, uuid: documentUuids() });
  await deps.sequelize.transaction(async (t) => {
    // Conditional: two clicks on 'Cerrar' close once and write one RDA.
    const changed = await execute(
      deps.sequelize,
      `UPDATE encounters SET status = :done, checkout = :now, responsible = :uid, updated_at = :now
       WHERE id = :id AND client_id = :clientId AND status = :pending`,
      { done: ENCOUNTER_STATUS.done, pending: ENCOUNTER_STATUS.pending, now, uid: actor.userId, id: e.id, clientId: e.client_id },
      t,
    );
    if (changed !== 1) throw conflict(CLOSED);
    await deps.recordRda?.({ clientId: e.client_id, patientId: e.patient_id, encounterId: e.id, kind: 'consulta', bundle }, t);
  });
}

/**
 * A nota aclaratoria (issue 51): changes a closed teleconsultation and writes the next version of
 * its RDA, in one transaction. The changes are written first and the document is built from what
 * was written, so the gaps are those of the corrected teleconsultation (409 with each, nothing
 * kept). The attending practitioner and the period stay those of the close (`responsible`,
 * `checkout`): a correction changes what was recorded, not who attended nor when. The new Bundle
 * has a new identifier, Composition.status 'amended' and relatesTo 'replaces' the previous
 * version's identifier; the store keeps the previous version as it was.
 */
export async function amendTeleconsultation(
  deps: TeleconsultationDeps,
  actor: StaffPrincipal,
  e: Encounter,
  input: S['TeleconsultationAmendment'],
): Promise<S['Rda']> {
  if (e.status !== ENCOUNTER_STATUS.done) throw conflict(NOT_CLOSED);
  const reason = correctionReasonOf(input.reason);
  if ('problem' in reason) throw badRequest('reason', reason.problem);
  if (!deps.recordRda || !deps.latestRda) throw new Error('amendTeleconsultation: the RDA store is not wired');
  const { recordRda, latestRda } = deps;
  const readingIds = await checkUpdate(deps, e, input.changes);
  const zone = await deps.clientTimeZone(e.client_id);
  const attender = e.responsible ?? e.created_by ?? actor.userId;
  const end = e.checkout ? new Date(e.checkout) : deps.now();
  return deps.sequelize.transaction(async (t) => {
    await writeChanges(deps, e, input.changes, readingIds, ENCOUNTER_STATUS.done, t);
    const fresh = await Encounter.findOne({ where: { id: e.id, client_id: e.client_id }, transaction: t });
    const records = await loadConsultationRecords(deps, fresh!, attender, t);
    const gaps = consultationGaps(deps, records);
    if (!rdaComplete(gaps)) throw incomplete(gaps, 'escribir la nota aclaratoria');
    const previous = await latestRda(e.client_id, e.id, t);
    const now = deps.now();
    const built = await consultationInput(deps, records, end);
    const correction = previous ? { replaces: previous.identifier, version: previous.version + 1, reason: reason.reason } : undefined;
    const pdf = await epicrisisPdf(built, zone);
    const bundle = ambulatoryDocument(
      { ...built, epicrisisPdf: pdf, ...(correction ? { correction } : {}) },
      { now, uuid: documentUuids() },
    );
    const replaces = previous ? { id: previous.id, reason: reason.reason } : undefined;
    return (await recordRda(
      { clientId: e.client_id, patientId: e.patient_id, encounterId: e.id, kind: 'consulta', bundle, ...(replaces ? { replaces } : {}) },
      t,
    )) as S['Rda'];
  });
}
