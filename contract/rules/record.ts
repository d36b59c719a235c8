/** Small display rules of the patient record shared by the API and the admin. */

/** dd/mm/aaaa hh:mm in the patient's zone (01 §1: dates day/month/year): the one formatter of dates.ts. */
export { formatWhen as formatDateTime } from './dates';

/** Types staff can choose in 'Crear Anotación' (01 §2); 5 is the assistant's summary. */
export const STAFF_OBSERVATION_TYPES = [
  { value: 0, label: 'Nota de enfermería' },
  { value: 1, label: 'Evolución Médica' },
  { value: 2, label: 'Admisión' },
  { value: 3, label: 'Salida/Epicrisis' },
  { value: 4, label: 'Otro' },
] as const;
export const EMPTY_OBSERVATIONS = 'No hay ninguna observación registrada';

/** Relationship choices of a caregiver to the patient (stored upper-cased, free text allowed). */
export const CAREGIVER_RELATIONSHIPS = [
  'HIJO(A)',
  'CÓNYUGE O PAREJA',
  'PADRE O MADRE',
  'HERMANO(A)',
  'NIETO(A)',
  'OTRO FAMILIAR',
  'CUIDADOR(A) PROFESIONAL',
  'AMIGO(A) O VECINO(A)',
] as const;

/**
 * Device card (01 §5): the multi-patient card can be set only when the client is multi-patient
 * and the patient has no gateway (single-patient card).
 */
export function canSetMultipatientCard(clientMultipatient: boolean, patient: { card_id: string | null }): boolean {
  return clientMultipatient && !patient.card_id;
}
