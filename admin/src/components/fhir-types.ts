import type { Schemas } from '../contract';

type FhirType = Schemas['FhirExportType'];

/**
 * The Spanish name of each FHIR type the API serves, for an administrator, beside the type the
 * integrator knows: 'Clientes de API' (scopes) and 'Exportaciones FHIR' (types) read this one table.
 * A Record: a type added to the contract fails to compile here.
 */
export const FHIR_TYPE_NAMES: Record<FhirType, string> = {
  Patient: 'Pacientes',
  Observation: 'Mediciones',
  DetectedIssue: 'Alertas',
  Condition: 'Condiciones clínicas',
  Device: 'Dispositivos',
  RelatedPerson: 'Cuidadores',
  MedicationRequest: 'Órdenes de medicamentos',
  ServiceRequest: 'Órdenes de medición',
  Group: 'Etiquetas y sus pacientes',
  Composition: 'Resúmenes digitales de atención (RDA)',
};

/** 'Pacientes'; a type the screen does not know shows as sent. */
export function fhirTypeName(type: string): string {
  return FHIR_TYPE_NAMES[type as FhirType] ?? type;
}
