import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { objectSchema, type OpenApiDocument } from '../../crud/schema-rules';
import { apiClientBody, apiClientValues, JWKS_NOT_JSON, readJwks } from './api-client-form';
import { SCOPE_OPTIONS, scopeName } from './api-client-scopes';

const publicJwk = generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey.export({ format: 'jwk' });
const jwks = { keys: [publicJwk] };
const contract = parse(readFileSync(new URL('../../../../openapi.yaml', import.meta.url), 'utf8')) as OpenApiDocument;
const JWKS_SCHEMA = objectSchema(contract, 'Jwks');

describe("'Clientes de API' form (issue 37)", () => {
  it.each([
    ['not JSON', '{"keys": [', JWKS_NOT_JSON],
    ['a plain word', 'clave', JWKS_NOT_JSON],
    ['an array', '[]', 'El JWKS debe ser un objeto con una lista "keys"'],
    ['an object without keys', '{"kty": "EC"}', 'El JWKS debe ser un objeto con una lista "keys"'],
    ['keys not a list', '{"keys": {}}', 'El JWKS debe ser un objeto con una lista "keys"'],
    ['no key', '{"keys": []}', 'El JWKS debe tener entre 1 y 20 claves'],
    ['21 keys', JSON.stringify({ keys: Array.from({ length: 21 }, () => publicJwk) }), 'El JWKS debe tener entre 1 y 20 claves'],
  ])('refuses a pasted JWKS that is %s with a Spanish reason', (_case, text, problem) => {
    expect(readJwks(text, JWKS_SCHEMA)).toEqual({ problem });
  });

  it('reads a pasted JWK Set as the object the API takes', () => {
    expect(readJwks(`  ${JSON.stringify(jwks, null, 2)}\n`, JWKS_SCHEMA)).toEqual({ jwks });
  });

  it('sends the pasted JWK Set as an object and no URL, with the scopes and the status', () => {
    const body = apiClientBody({
      keys_from: 'jwks',
      jwks: JSON.stringify(jwks),
      jwks_url: 'https://old.example.co/jwks.json',
      scopes: ['system/Patient.rs'],
      status: 'suspended',
    });
    expect(body).toEqual({ jwks, scopes: ['system/Patient.rs'], status: 'suspended' });
  });

  it('sends the URL, trimmed, and no JWKS when the URL is chosen', () => {
    const body = apiClientBody({
      keys_from: 'jwks_url',
      jwks: '{"keys": []}',
      jwks_url: ' https://his.example.co/jwks ',
      scopes: ['system/*.rs'],
    });
    expect(body).toEqual({ jwks_url: 'https://his.example.co/jwks', scopes: ['system/*.rs'], status: 'active' });
  });

  it('fills the edit form from the record: the keys it has, the JWK Set indented', () => {
    expect(apiClientValues({ jwks, jwks_url: null })).toEqual({ keys_from: 'jwks', jwks: JSON.stringify(jwks, null, 2), jwks_url: '' });
    expect(apiClientValues({ jwks: null, jwks_url: 'https://his.example.co/jwks' })).toEqual({
      keys_from: 'jwks_url',
      jwks: '',
      jwks_url: 'https://his.example.co/jwks',
    });
  });

  it('names every scope of the contract in Spanish with its FHIR type', () => {
    expect(SCOPE_OPTIONS).toHaveLength(11);
    expect(SCOPE_OPTIONS).toContainEqual({ value: 'system/Composition.rs', label: 'Resúmenes digitales de atención (RDA) (Composition)' });
    expect(SCOPE_OPTIONS).toContainEqual({ value: 'system/Patient.rs', label: 'Pacientes (Patient)' });
    expect(SCOPE_OPTIONS).toContainEqual({ value: 'system/*.rs', label: 'Todas (system/*.rs)' });
    expect(scopeName('system/RelatedPerson.rs')).toBe('Cuidadores');
    expect(scopeName('system/Unknown.rs')).toBe('system/Unknown.rs');
  });
});
