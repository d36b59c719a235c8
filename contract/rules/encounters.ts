import { formatWhen } from './dates';
import { MESSAGES, validateText, validateVital } from './validation';

/** Pure encounter rules (03 §2 'Encounter screen', §3, §4, §5). */

export type ElementType = 'textolargo' | 'cuantitativo' | 'select' | 'boolean' | 'textocorto';
export interface EncounterElement {
  id: number;
  name: string;
  abbreviation: string;
  unity: string | null;
  type: ElementType;
  required: boolean;
  options: string[];
}

export const ENCOUNTER_STATUS = { pending: 'Pendiente', done: 'Realizado' } as const;

/**
 * The generic encounter's form. Vital signs keep their D6 codes; the rest use codes from 100 (P75).
 * 03 §5: vitals, text fields, skin integrity and general aspect are required.
 */
export const ENCOUNTER_ELEMENTS: EncounterElement[] = [
  { id: 1, name: 'Frecuencia cardiaca', abbreviation: 'FC', unity: 'lpm', type: 'cuantitativo', required: true, options: [] },
  { id: 2, name: 'Saturación de oxígeno', abbreviation: 'SpO2', unity: '%', type: 'cuantitativo', required: true, options: [] },
  { id: 3, name: 'Presión arterial sistólica', abbreviation: 'PAS', unity: 'mmHg', type: 'cuantitativo', required: true, options: [] },
  { id: 4, name: 'Presión arterial diastólica', abbreviation: 'PAD', unity: 'mmHg', type: 'cuantitativo', required: true, options: [] },
  { id: 7, name: 'Temperatura', abbreviation: 'T', unity: '°C', type: 'cuantitativo', required: true, options: [] },
  { id: 5, name: 'Peso', abbreviation: 'Peso', unity: 'kg', type: 'cuantitativo', required: false, options: [] },
  {
    id: 101,
    name: 'Integridad de la piel',
    abbreviation: 'Piel',
    unity: null,
    type: 'select',
    required: true,
    options: ['Íntegra', 'Lesión leve', 'Lesión moderada', 'Lesión severa'],
  },
  {
    id: 102,
    name: 'Aspecto general',
    abbreviation: 'Aspecto',
    unity: null,
    type: 'select',
    required: true,
    options: ['Bueno', 'Regular', 'Malo'],
  },
  { id: 103, name: '¿Presenta dolor?', abbreviation: 'Dolor', unity: null, type: 'boolean', required: false, options: [] },
  { id: 104, name: 'Motivo de la atención', abbreviation: 'Motivo', unity: null, type: 'textocorto', required: true, options: [] },
  { id: 105, name: 'Evolución y plan', abbreviation: 'Evolución', unity: null, type: 'textolargo', required: true, options: [] },
];

export function elementById(id: number): EncounterElement | undefined {
  return ENCOUNTER_ELEMENTS.find((e) => e.id === id);
}

/** The message for a value of an element, or null when it is valid. */
export function validateElementValue(e: EncounterElement, value: string | null | undefined): string | null {
  const v = value == null ? '' : String(value).trim();
  if (!v) return e.required ? MESSAGES.required : null;
  switch (e.type) {
    case 'cuantitativo':
      return validateVital(v);
    case 'select':
      return e.options.includes(v) ? null : `Seleccione una opción: ${e.options.join(', ')}.`;
    case 'boolean':
      return v === 'true' || v === 'false' ? null : 'Seleccione Sí o No.';
    case 'textocorto':
      return validateText(v, 200);
    default:
      return validateText(v, 600);
  }
}

/** The first required element without a value, for the 'Guardar' of a generic encounter. */
export function firstMissing(values: ReadonlyMap<number, string>): EncounterElement | null {
  return ENCOUNTER_ELEMENTS.find((e) => e.required && !(values.get(e.id) ?? '').trim()) ?? null;
}

export interface VaccinationFields {
  biological_type: string | null;
  medication_id: number | null;
  dose: string | null;
}

/** 03 §4-5: a vaccination is saved only with its biological type, laboratory and dose. */
export function vaccinationProblem(v: VaccinationFields): { field: keyof VaccinationFields; message: string } | null {
  if (!v.biological_type?.trim()) return { field: 'biological_type', message: MESSAGES.required };
  if (v.medication_id == null) return { field: 'medication_id', message: MESSAGES.required };
  if (!v.dose) return { field: 'dose', message: MESSAGES.required };
  return null;
}

/** One entry of an observation's change log; `datef` is shown in the patient's zone. */
export function logEntry(before: string, after: string, at: Date, timeZone: string) {
  return { date: at.toISOString(), datef: formatWhen(at, timeZone), before, after };
}
