import type { Schemas } from '../../contract';
import type { JsonSchema } from '../../crud/schema-rules';

type Jwks = Schemas['Jwks'];
type ApiClient = Schemas['ApiClient'];

/** Where the form takes the system's public keys from: a pasted JWK Set or its URL (one of the two, as the API asks). */
export type KeysFrom = 'jwks' | 'jwks_url';

export const KEYS_FROM_OPTIONS: { value: KeysFrom; label: string }[] = [
  { value: 'jwks', label: 'Pegar JWKS' },
  { value: 'jwks_url', label: 'URL de JWKS' },
];

export const JWKS_NOT_JSON = 'El JWKS no es un JSON válido: pegue el JWK Set completo, desde la primera { hasta la última }.';

/**
 * The pasted text as the JWK Set the API takes, or the Spanish reason it is not one, with the
 * contract's `Jwks` schema for its limits and messages ('El JWKS debe ser un objeto con una lista
 * "keys"', 'entre 1 y 20 claves'). Which keys are acceptable (public, RSA or EC P-256/P-384) the
 * server says under the field.
 */
export function readJwks(text: string, schema: JsonSchema): { jwks: Jwks } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: JWKS_NOT_JSON };
  }
  const notASet = schema['x-message'] ?? JWKS_NOT_JSON;
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !Array.isArray((value as Jwks).keys)) {
    return { problem: notASet };
  }
  const { keys } = value as Jwks;
  const limits = schema.properties?.keys ?? {};
  if (keys.length < (limits.minItems ?? 1) || keys.length > (limits.maxItems ?? Infinity))
    return { problem: limits['x-message'] ?? notASet };
  return { jwks: value as Jwks };
}

/** The text as JSON, or the text itself (the form's rule refused it before; the server would name the field). */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The form's keys, scopes and status as the API's fields (the name goes with the declared fields). */
export function apiClientBody(values: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = { scopes: values.scopes, status: values.status === 'suspended' ? 'suspended' : 'active' };
  if (values.keys_from === 'jwks_url') body.jwks_url = String(values.jwks_url ?? '').trim();
  else body.jwks = parsed(String(values.jwks ?? ''));
  return body;
}

/** A client's record as the edit form's values: the keys it has, the JWK Set as indented text. */
export function apiClientValues(record: Record<string, unknown>): Record<string, unknown> {
  const client = record as Partial<ApiClient>;
  return {
    keys_from: client.jwks_url ? 'jwks_url' : 'jwks',
    jwks: client.jwks ? JSON.stringify(client.jwks, null, 2) : '',
    jwks_url: client.jwks_url ?? '',
  };
}
