import { coded, stated, statedHistoryList, type StatedHistoryDeps, type StatedRow } from '../stated_history/stated-history.js';
import { normaliseIcd10 } from '@vigia/contract/rules/history';
import type { components } from '@vigia/contract/openapi';

type FamilyHistoryDto = components['schemas']['PatientFamilyHistory'];
type FamilyHistoryInput = components['schemas']['FamilyHistoryInput'];

export type FamilyHistoryDeps = StatedHistoryDeps;

type FamilyHistoryRow = StatedRow<{ relationship: string; description: string; icd10: string | null }>;

/**
 * The family history a patient states (table patient_family_history, P235) in the guide's
 * relationship order (parents, siblings, uncles and aunts, grandparents), newest first within
 * each: what the record shows and what the patient's RDA reads.
 */
export const familyHistory = statedHistoryList<FamilyHistoryRow, FamilyHistoryDto, FamilyHistoryInput>({
  table: 'patient_family_history',
  columns: {
    relationship: coded('family_relationships', 'Seleccione un parentesco de la lista.'),
    description: stated('Escriba la enfermedad del familiar, de máximo 200 caracteres'),
    icd10: (code) => normaliseIcd10(code),
  },
  order: 'relationship, id DESC',
  notFound: 'El antecedente familiar no existe.',
  /** The one place a patient_family_history row becomes the contract's PatientFamilyHistory. */
  present: (r, catalogues) => ({
    relationship: r.relationship,
    relationship_name: catalogues.code('family_relationships', r.relationship)?.name ?? r.relationship,
    description: r.description,
    icd10: r.icd10,
  }),
});

export const {
  list: listFamilyHistory,
  create: createPatientFamilyHistory,
  update: updatePatientFamilyHistory,
  remove: deletePatientFamilyHistory,
} = familyHistory;
