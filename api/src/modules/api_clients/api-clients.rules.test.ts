import { describe, it, expect } from 'vitest';
import { MAX_ASSERTION_LIFETIME_S } from './api-clients.clock.rules';
import { ASSERTION_TYPE, assertionProblem, grantScopes, jwksProblem, parseScope, readTokenRequest, scopeCovers } from './api-clients.rules';

describe('parseScope (SMART v2 system scopes)', () => {
  it.each([
    ['system/Patient.rs', { type: 'Patient', read: true, search: true }],
    ['system/Observation.r', { type: 'Observation', read: true, search: false }],
    ['system/Group.s', { type: 'Group', read: false, search: true }],
    ['system/Composition.rs', { type: 'Composition', read: true, search: true }],
    ['system/*.rs', { type: '*', read: true, search: true }],
    // SMART v1's `.read` is v2's `.rs`.
    ['system/Patient.read', { type: 'Patient', read: true, search: true }],
    ['system/Patient.cruds', null],
    ['system/Patient.write', null],
    ['system/Patient.sr', null],
    ['patient/Patient.rs', null],
    ['user/*.rs', null],
    ['system/Encounter.rs', null],
    ['system/patient.rs', null],
    ['', null],
  ])('%s → %j', (text, expected) => {
    expect(parseScope(text)).toEqual(expected);
  });
});

describe('grantScopes (asked ∩ registered)', () => {
  it.each<[string, string[], string[]]>([
    ['system/Patient.rs', ['system/Patient.rs'], ['system/Patient.rs']],
    ['system/Patient.rs system/Observation.rs', ['system/Patient.rs'], ['system/Patient.rs']],
    ['system/Observation.rs', ['system/Patient.rs'], []],
    ['system/*.rs', ['system/Patient.rs', 'system/Observation.rs'], ['system/Patient.rs', 'system/Observation.rs']],
    ['system/Patient.r', ['system/*.rs'], ['system/Patient.r']],
    // The RDA's Composition (issue 51): not registrable by name yet, granted out of every type.
    ['system/Composition.rs', ['system/*.rs'], ['system/Composition.rs']],
    ['system/*.rs', ['system/Patient.rs'], ['system/Patient.rs']],
    ['system/*.rs', ['system/*.rs'], ['system/*.rs']],
    ['system/*.rs system/Patient.rs', ['system/*.rs'], ['system/*.rs']],
    ['system/Patient.read', ['system/Patient.rs'], ['system/Patient.rs']],
    ['system/Patient.cruds', ['system/*.rs'], []],
    ['patient/*.rs launch openid', ['system/*.rs'], []],
    ['  system/Device.rs   system/Device.rs ', ['system/Device.rs'], ['system/Device.rs']],
    ['system/Group.rs', [], []],
  ])('asked %j of %j → %j', (asked, registered, expected) => {
    expect(grantScopes(asked, registered)).toEqual(expected);
  });
});

describe('scopeCovers', () => {
  it.each<[string[], string, 'read' | 'search', boolean]>([
    [['system/*.rs'], 'Group', 'search', true],
    [['system/*.rs'], 'Composition', 'read', true],
    [['system/Patient.rs'], 'Composition', 'read', false],
    [['system/Patient.rs'], 'Patient', 'read', true],
    [['system/Patient.r'], 'Patient', 'search', false],
    [['system/Patient.rs'], 'Observation', 'read', false],
    [[], 'Patient', 'read', false],
  ])('%j covers %s %s: %s', (granted, type, permission, expected) => {
    expect(scopeCovers(granted, type as 'Patient', permission)).toBe(expected);
  });
});

describe('readTokenRequest', () => {
  const good = { grant_type: 'client_credentials', client_assertion_type: ASSERTION_TYPE, client_assertion: 'a.b.c', scope: 'system/*.rs' };
  it.each<[string, unknown, string | null]>([
    ['a complete form', good, null],
    ['no body', undefined, 'invalid_request'],
    ['an array', [good], 'invalid_request'],
    ['no grant_type', { ...good, grant_type: undefined }, 'invalid_request'],
    ['another grant_type', { ...good, grant_type: 'password' }, 'unsupported_grant_type'],
    ['a repeated grant_type', { ...good, grant_type: ['client_credentials', 'client_credentials'] }, 'invalid_request'],
    [
      'another assertion type',
      { ...good, client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:saml2-bearer' },
      'invalid_client',
    ],
    ['no assertion', { ...good, client_assertion: '' }, 'invalid_request'],
    ['no scope', { ...good, scope: ' ' }, 'invalid_request'],
    ['an assertion over 16,000 characters', { ...good, client_assertion: 'x'.repeat(16_001) }, 'invalid_request'],
  ])('%s → %s', (_name, body, error) => {
    const r = readTokenRequest(body);
    expect(r.ok ? null : r.error).toBe(error);
  });
});

describe('assertionProblem', () => {
  const now = 1_800_000_000;
  const expected = { clientId: 'abc', audience: 'https://vigia.example/oauth/token', nowSeconds: now };
  const good = { iss: 'abc', sub: 'abc', aud: expected.audience, exp: now + 120, jti: 'j-1' };
  it.each<[string, object, string | null]>([
    ['a good assertion', good, null],
    ['aud as a list with the endpoint', { ...good, aud: ['other', expected.audience] }, null],
    ['exp exactly five minutes ahead', { ...good, exp: now + MAX_ASSERTION_LIFETIME_S }, null],
    ['exp past five minutes and the clock-skew allowance', { ...good, exp: now + MAX_ASSERTION_LIFETIME_S + 61 }, 'exp too far ahead'],
    ['exp in the past beyond the allowance', { ...good, exp: now - 61 }, 'expired'],
    ['iat beyond the allowance ahead', { ...good, iat: now + 61 }, 'iat in the future'],
    ['no exp', { ...good, exp: undefined }, 'exp missing'],
    ['another iss', { ...good, iss: 'xyz' }, 'iss'],
    ['sub other than iss', { ...good, sub: 'xyz' }, 'sub'],
    ['another aud', { ...good, aud: 'https://evil.example/oauth/token' }, 'aud'],
    ['no jti', { ...good, jti: undefined }, 'jti'],
    ['a jti over 255 characters', { ...good, jti: 'j'.repeat(256) }, 'jti'],
  ])('%s → %s', (_name, claims, problem) => {
    expect(assertionProblem(claims, expected)).toBe(problem);
  });
});

describe('jwksProblem (a pasted JWKS)', () => {
  const rsa = { kty: 'RSA', kid: 'a', n: 'nnnn', e: 'AQAB' };
  const ec = { kty: 'EC', crv: 'P-384', x: 'xxxx', y: 'yyyy' };
  it.each<[string, unknown, RegExp | null]>([
    ['an RSA and an EC public key', { keys: [rsa, ec] }, null],
    ['a signing key', { keys: [{ ...rsa, use: 'sig' }] }, null],
    ['P-256', { keys: [{ ...ec, crv: 'P-256' }] }, null],
    ['no keys', { keys: [] }, /lista "keys"/],
    ['keys not a list', { keys: rsa }, /lista "keys"/],
    ['an RSA private key', { keys: [{ ...rsa, d: 'dddd' }] }, /clave privada/],
    ['an EC private key', { keys: [{ ...ec, d: 'dddd' }] }, /clave privada/],
    ['a symmetric key', { keys: [{ kty: 'oct', k: 'kkkk' }] }, /clave privada/],
    ['an OKP key', { keys: [{ kty: 'OKP', crv: 'Ed25519', x: 'xxxx' }] }, /RSA o EC/],
    ['P-521', { keys: [{ ...ec, crv: 'P-521' }] }, /RSA o EC/],
    ['an RSA key without its modulus', { keys: [{ kty: 'RSA', e: 'AQAB' }] }, /RSA o EC/],
    ['an encryption key', { keys: [{ ...rsa, use: 'enc' }] }, /de firma/],
    ['null among the keys', { keys: [null] }, /RSA o EC/],
  ])('%s', (_name, jwks, problem) => {
    const answer = jwksProblem(jwks as { keys?: unknown });
    if (problem === null) expect(answer).toBeNull();
    else expect(answer).toMatch(problem);
  });
});
