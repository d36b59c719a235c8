import type { Schemas } from '../../contract';

type Scope = Schemas['ApiClientScope'];

/**
 * What each SMART scope of the contract lets a system read, in Spanish for the administrator, with
 * the FHIR type the integrator knows. A Record: a scope added to the contract fails to compile here.
 */
const SCOPE_NAMES: Record<Scope, { name: string; type: string }> = {
  'system/*.rs': { name: 'Todas', type: 'system/*.rs' },
  'system/Patient.rs': { name: 'Pacientes', type: 'Patient' },
  'system/Observation.rs': { name: 'Mediciones', type: 'Observation' },
  'system/DetectedIssue.rs': { name: 'Alertas', type: 'DetectedIssue' },
  'system/Condition.rs': { name: 'Condiciones clínicas', type: 'Condition' },
  'system/Device.rs': { name: 'Dispositivos', type: 'Device' },
  'system/RelatedPerson.rs': { name: 'Cuidadores', type: 'RelatedPerson' },
  'system/MedicationRequest.rs': { name: 'Órdenes de medicamentos', type: 'MedicationRequest' },
  'system/ServiceRequest.rs': { name: 'Órdenes de medición', type: 'ServiceRequest' },
  'system/Group.rs': { name: 'Etiquetas y sus pacientes', type: 'Group' },
};

/** The options of the scopes' multi-select: 'Pacientes (Patient)', 'Todas (system/*.rs)'. */
export const SCOPE_OPTIONS = (Object.entries(SCOPE_NAMES) as [Scope, { name: string; type: string }][]).map(([value, s]) => ({
  value,
  label: `${s.name} (${s.type})`,
}));

/** The short Spanish name of a scope (a scope the screen does not know shows as sent). */
export function scopeName(scope: string): string {
  return SCOPE_NAMES[scope as Scope]?.name ?? scope;
}
