import { FHIR_TYPES } from '../modules/api_clients/api-clients.rules.js';

/**
 * The FHIR API's and the token endpoint's templates (issue 37): a type the API serves keeps its
 * name, every id is `{id}`, so the label set stays as small as the API.
 */
export function fhirRouteOf(path: string): string {
  if (path === '/oauth/token') return path;
  const m = /^\/fhir\/R4\/(.*)$/.exec(path);
  if (!m) return 'sin_ruta';
  const parts = m[1].split('/');
  const [first, second, third] = parts;
  if (parts.length === 1 && ['metadata', '$export'].includes(first)) return `/fhir/R4/${first}`;
  if (m[1] === '.well-known/smart-configuration') return path;
  if (first === '$export-status' && parts.length === 2) return '/fhir/R4/$export-status/{id}';
  if (first === '$export-file' && parts.length === 3) return '/fhir/R4/$export-file/{id}/{file}';
  if (!(FHIR_TYPES as readonly string[]).includes(first)) return 'fhir_otra';
  if (parts.length === 1) return `/fhir/R4/${first}`;
  if (parts.length === 2) return second === '$export' ? `/fhir/R4/${first}/$export` : `/fhir/R4/${first}/{id}`;
  if (parts.length === 3 && third === '$export') return `/fhir/R4/${first}/{id}/$export`;
  if (parts.length === 3 && third === '$document') return `/fhir/R4/${first}/{id}/$document`;
  return 'fhir_otra';
}
