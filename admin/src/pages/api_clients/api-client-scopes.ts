import type { Schemas } from '../../contract';
import { FHIR_TYPE_NAMES } from '../../components/fhir-types';

type Scope = Schemas['ApiClientScope'];

/**
 * What each SMART scope of the contract lets a system read, in Spanish for the administrator, with
 * the FHIR type the integrator knows (names: components/fhir-types.ts, one per type of the contract).
 */
const SCOPE_NAMES = Object.fromEntries([
  ['system/*.rs', { name: 'Todas', type: 'system/*.rs' }],
  ...Object.entries(FHIR_TYPE_NAMES).map(([type, name]) => [`system/${type}.rs`, { name, type }]),
]) as Record<Scope, { name: string; type: string }>;

/** The options of the scopes' multi-select: 'Pacientes (Patient)', 'Todas (system/*.rs)'. */
export const SCOPE_OPTIONS = (Object.entries(SCOPE_NAMES) as [Scope, { name: string; type: string }][]).map(([value, s]) => ({
  value,
  label: `${s.name} (${s.type})`,
}));

/** The short Spanish name of a scope (a scope the screen does not know shows as sent). */
export function scopeName(scope: string): string {
  return SCOPE_NAMES[scope as Scope]?.name ?? scope;
}
