import { coded, stated, statedHistoryList, type StatedHistoryDeps, type StatedRow } from '../stated_history/stated-history.js';
import type { components } from '@vigia/contract/openapi';

type AllergyDto = components['schemas']['PatientAllergy'];
type AllergyInput = components['schemas']['AllergyInput'];

export type AllergyDeps = StatedHistoryDeps;

type AllergyRow = StatedRow<{ allergy_type: string; description: string; active: boolean | number }>;

/**
 * The allergies a patient states (table patient_allergies, P235), active first, newest first: what
 * the record shows and what the patient's RDA reads (its builder keeps the active ones).
 */
export const allergies = statedHistoryList<AllergyRow, AllergyDto, AllergyInput>({
  table: 'patient_allergies',
  columns: {
    allergy_type: coded('allergy_types', 'Seleccione un tipo de alergia de la lista.'),
    description: stated('Escriba la descripción, de máximo 200 caracteres'),
    active: (active) => active ?? true,
  },
  order: 'active DESC, id DESC',
  notFound: 'La alergia no existe.',
  /** The one place a patient_allergies row becomes the contract's PatientAllergy. */
  present: (r, catalogues) => ({
    allergy_type: r.allergy_type,
    allergy_type_name: catalogues.code('allergy_types', r.allergy_type)?.name ?? r.allergy_type,
    description: r.description,
    active: !!r.active,
  }),
});

export const { list: listAllergies, create: createPatientAllergy, update: updatePatientAllergy, remove: deletePatientAllergy } = allergies;
