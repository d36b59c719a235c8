import type { Schemas } from '../../contract';
import { INSTITUTION_RDA_PATH } from '../../constants';
import { MAX_DIAGNOSES, teleconsultationGaps, type TeleconsultationDraft } from '@vigia/contract/rules/teleconsultations';
import type { RdaGap, RdaRecord } from '@vigia/contract/rules/rda';

/**
 * The teleconsultation form's values (issue 51) and the draft the API takes, and where each gap of
 * the RDA is fixed. Pure: the screen is TeleconsultationForm.tsx.
 */

type Teleconsultation = Schemas['Teleconsultation'];
export type TeleconsultationBody = Schemas['TeleconsultationUpdate'];

/** The chosen code of 'Sin incapacidad' in the form (the API's null scope). */
export const NO_SICK_LEAVE_CHOICE = 'none';

/** '06 Otro' with this text is the explicit 'no risk factor found' (rda-plan §2.6). */
export const NO_RISK_FACTORS = { code: '06', text: 'Sin factores de riesgo identificados' } as const;

export const MAX_RELATED = MAX_DIAGNOSES - 1;

export interface TeleconsultationValues {
  reason?: string | null;
  findings?: string | null;
  plan?: string | null;
  medication_note?: string | null;
  main_code?: string | null;
  main_type?: string | null;
  related?: string[];
  reading_ids?: number[];
  risk_factors?: Array<{ code?: string | null; text?: string | null } | undefined>;
  sick_leave_scope?: string;
  sick_leave_days?: number | null;
  cups_code?: string | null;
  reps_service?: string | null;
  site_id?: number | null;
  modality?: string;
  environment?: string;
  external_cause?: string;
}

/** The form's values of a stored teleconsultation. */
export function valuesOf(t: Teleconsultation): TeleconsultationValues {
  const main = t.diagnoses.find((d) => d.rank === 1);
  return {
    reason: t.reason,
    findings: t.findings,
    plan: t.plan,
    medication_note: t.medication_note,
    main_code: main?.code ?? null,
    main_type: main?.diagnosis_type ?? null,
    related: t.diagnoses.filter((d) => d.rank > 1).map((d) => d.code),
    reading_ids: t.reading_ids,
    risk_factors: t.risk_factors.map((f) => ({ code: f.code, text: f.text })),
    sick_leave_scope: t.sick_leave_scope ?? NO_SICK_LEAVE_CHOICE,
    sick_leave_days: t.sick_leave_days,
    cups_code: t.cups_code,
    reps_service: t.reps_service,
    site_id: t.site_id,
    modality: t.modality,
    environment: t.environment,
    external_cause: t.external_cause,
  };
}

const text = (v: string | null | undefined) => v?.trim() || null;

/** The risk factors the form holds that say something: a code and its text. */
function riskFactorsOf(v: TeleconsultationValues) {
  return (v.risk_factors ?? []).flatMap((f) => (f?.code && f.text?.trim() ? [{ code: f.code, text: f.text.trim() }] : []));
}

/** The diagnoses to store: the main one first with its type, then up to 3 related ones (only with a main one). */
function diagnosesOf(v: TeleconsultationValues): NonNullable<TeleconsultationBody['diagnoses']> {
  if (!v.main_code) return [];
  const related = [...new Set(v.related ?? [])].filter((c) => c !== v.main_code).slice(0, MAX_RELATED);
  return [{ code: v.main_code, diagnosis_type: v.main_type ?? null }, ...related.map((code) => ({ code }))];
}

/** The whole draft, every list replaced (PATCH /encounters/{id}/teleconsultation). */
export function teleconsultationBody(v: TeleconsultationValues): TeleconsultationBody {
  const scope = v.sick_leave_scope && v.sick_leave_scope !== NO_SICK_LEAVE_CHOICE ? v.sick_leave_scope : null;
  return {
    ...(v.modality ? { modality: v.modality } : {}),
    ...(v.environment ? { environment: v.environment } : {}),
    ...(v.external_cause ? { external_cause: v.external_cause } : {}),
    reps_service: v.reps_service ?? null,
    cups_code: v.cups_code ?? null,
    reason: text(v.reason),
    findings: text(v.findings),
    plan: text(v.plan),
    medication_note: text(v.medication_note),
    sick_leave_scope: scope,
    sick_leave_days: scope ? (v.sick_leave_days ?? null) : null,
    site_id: v.site_id ?? null,
    diagnoses: diagnosesOf(v),
    reading_ids: v.reading_ids ?? [],
    risk_factors: riskFactorsOf(v),
  };
}

/**
 * The gaps as they stand with what the form holds now: the parties' gaps as the server last said
 * (organisation, sede, professional, patient), and the consultation's own from the contract's rule,
 * which the server runs too. `medications` is the patient's medication orders, as far as known.
 */
export function liveGaps(serverGaps: RdaGap[], encounterId: number, v: TeleconsultationValues, medications: number): RdaGap[] {
  const body = teleconsultationBody(v);
  const draft: TeleconsultationDraft = {
    id: encounterId,
    cups_code: body.cups_code ?? null,
    reason: body.reason ?? null,
    findings: body.findings ?? null,
    plan: body.plan ?? null,
    medication_note: body.medication_note ?? null,
    sick_leave_scope: body.sick_leave_scope ?? null,
    sick_leave_days: body.sick_leave_days ?? null,
    site_id: body.site_id ?? null,
    diagnoses: (body.diagnoses ?? []).map((d, i) => ({ rank: i + 1, diagnosis_type: d.diagnosis_type ?? null })),
    risk_factors: body.risk_factors?.length ?? 0,
    medications,
  };
  return [...serverGaps.filter((g) => g.record !== 'encounter'), ...teleconsultationGaps(draft)];
}

/**
 * Whether the patient has medication orders, from the server's gaps of the stored draft: with no
 * note stored, the server asks for one exactly when there are none. With a note stored it cannot
 * tell; the note stays asked for.
 */
export function medicationsKnown(serverGaps: RdaGap[], storedNote: string | null): number {
  if (storedNote?.trim()) return 0;
  return serverGaps.some((g) => g.record === 'encounter' && g.field === 'medication_note') ? 0 : 1;
}

/** The form field of an encounter gap (the main diagnosis' code or its type). */
export function formFieldOf(gap: Pick<RdaGap, 'field' | 'message'>): string {
  if (gap.field === 'diagnoses') return /tipo/i.test(gap.message) ? 'main_type' : 'main_code';
  return gap.field;
}

/** What fixes a gap: a screen of another record, or a field of this form. */
export type GapTarget = { to: string; label: string } | { field: string; label: string };

/** The patient's fields edited in the contact dialog; the rest are in the basic-data one. */
const PATIENT_CONTACT_FIELDS = new Set(['city_id', 'address']);

/**
 * Where a gap is fixed. The organisation and its sedes on the institution's card of 'Integraciones'
 * (INSTITUTION_RDA_PATH), the professional on the user's edit, the patient in the patient page's
 * edit dialogs (`?edit=`), the consultation in this form.
 */
export function gapTarget(record: RdaRecord, id: number, field: string, message: string): GapTarget {
  switch (record) {
    case 'patient':
      return {
        to: `/patients/${id}?edit=${PATIENT_CONTACT_FIELDS.has(field) ? 'contact' : 'basic'}`,
        label: 'Corregir en la ficha del paciente',
      };
    case 'practitioner':
      return { to: `/users/edit/${id}`, label: 'Corregir en el usuario' };
    case 'organization':
    case 'site':
      return { to: INSTITUTION_RDA_PATH, label: 'Corregir en los datos de la institución' };
    default:
      return { field: formFieldOf({ field, message }), label: 'Ir al campo' };
  }
}

/**
 * A 409 `rda_incomplete`'s errors (`field` is `registro.campo`) as gaps, with the record to fix:
 * the patient, the user who closes, the client (organisation and sede), this encounter.
 */
export function gapsOfRefusal(
  errors: Array<{ field: string; message: string }>,
  ids: { patientId: number; userId: number; clientId: number; encounterId: number },
): RdaGap[] {
  const idOf: Record<RdaRecord, number> = {
    patient: ids.patientId,
    practitioner: ids.userId,
    organization: ids.clientId,
    site: ids.clientId,
    encounter: ids.encounterId,
  };
  return errors.map(({ field, message }) => {
    const [head, ...rest] = field.split('.');
    const record = (head in idOf ? head : 'encounter') as RdaRecord;
    return { record, id: idOf[record], field: rest.join('.') || head, message, required: true };
  });
}

/**
 * Whether the form holds changes the stored draft does not: what 'Guardar borrador' would send
 * differs from what the stored teleconsultation gives. A gap's link to another screen saves them
 * first, so the nurse who goes to fix the patient's record finds her consultation on coming back.
 */
export function draftChanged(stored: TeleconsultationValues, now: TeleconsultationValues): boolean {
  return JSON.stringify(teleconsultationBody(stored)) !== JSON.stringify(teleconsultationBody(now));
}

/** How often a closed teleconsultation reads its RDA again while it is on its way to the platform. */
export const RDA_POLL_MS = 3_000;

/**
 * react-query's refetchInterval for the RDA of a closed teleconsultation: every RDA_POLL_MS while it
 * is 'pendiente' (the send job has it; it becomes 'enviado' or 'rechazado' by itself), else none.
 * 'sin enviar' changes only when an administrator configures the platform or resends it elsewhere:
 * not polled, as neither is any final state.
 */
export function rdaPollInterval(status: string | undefined): number | false {
  return status === 'pendiente' ? RDA_POLL_MS : false;
}
