import { describe, expect, it } from 'vitest';
import { canonicalJson, keepsAnswer, readIdempotencyKey, requestHash, verdictFor } from './idempotency.rules';

describe('readIdempotencyKey', () => {
  it.each([
    [undefined, { ok: true, key: null }],
    ['3F0C2A9E-5B1D-4C7E-9A8F-2D6B1E4C0A7D', { ok: true, key: '3f0c2a9e-5b1d-4c7e-9a8f-2d6b1e4c0a7d' }],
    [' 3f0c2a9e-5b1d-4c7e-9a8f-2d6b1e4c0a7d ', { ok: true, key: '3f0c2a9e-5b1d-4c7e-9a8f-2d6b1e4c0a7d' }],
    ['', { ok: false }],
    ['abc', { ok: false }],
    ['3f0c2a9e5b1d4c7e9a8f2d6b1e4c0a7d', { ok: false }],
    ["3f0c2a9e-5b1d-4c7e-9a8f-2d6b1e4c0a7d'; DROP TABLE x", { ok: false }],
    [['3f0c2a9e-5b1d-4c7e-9a8f-2d6b1e4c0a7d'], { ok: false }],
  ])('%j → %j', (header, expected) => {
    expect(readIdempotencyKey(header)).toEqual(expected);
  });
});

describe('requestHash: what makes two requests the same', () => {
  const base = requestHash('POST', '/api/v1/patients/1/alerts/2/alert_entries', { description: 'Llamé al paciente' });
  it.each([
    [
      'the same body with its keys in another order',
      'POST',
      '/api/v1/patients/1/alerts/2/alert_entries',
      { description: 'Llamé al paciente' },
      true,
    ],
    ['the method in lower case', 'post', '/api/v1/patients/1/alerts/2/alert_entries', { description: 'Llamé al paciente' }, true],
    ['another text', 'POST', '/api/v1/patients/1/alerts/2/alert_entries', { description: 'Llamé al paciente.' }, false],
    ['another alert', 'POST', '/api/v1/patients/1/alerts/3/alert_entries', { description: 'Llamé al paciente' }, false],
    ['another method', 'PUT', '/api/v1/patients/1/alerts/2/alert_entries', { description: 'Llamé al paciente' }, false],
  ])('%s: %s', (_what, method, url, body, same) => {
    expect(requestHash(method, url, body) === base).toBe(same);
  });
  it('sorts keys at every depth and drops undefined members', () => {
    expect(canonicalJson({ b: [{ d: 1, c: 2 }], a: undefined, e: null })).toBe('{"b":[{"c":2,"d":1}],"e":null}');
    expect(requestHash('PUT', '/x', { a: 1, b: { c: 2, d: 3 } })).toBe(requestHash('PUT', '/x', { b: { d: 3, c: 2 }, a: 1 }));
  });
});

describe('verdictFor: a request whose key is already known', () => {
  const hash = 'h1';
  it.each([
    ['another request with the key', { request_hash: 'h2', status: 201, body: '{"id":1}' }, { kind: 'reused' }],
    ['another request while the first runs', { request_hash: 'h2', status: null, body: null }, { kind: 'reused' }],
    ['the first still running', { request_hash: hash, status: null, body: null }, { kind: 'in_progress', retryAfterSeconds: 2 }],
    ['the first answered', { request_hash: hash, status: 201, body: '{"id":7}' }, { kind: 'replay', status: 201, body: { id: 7 } }],
    [
      'PostgreSQL gives the status as text',
      { request_hash: hash, status: '200' as unknown as number, body: '[]' },
      { kind: 'replay', status: 200, body: [] },
    ],
  ])('%s', (_what, stored, expected) => {
    expect(verdictFor(stored, hash)).toEqual(expected);
  });
});

describe('keepsAnswer: only a successful write is kept', () => {
  it.each([
    [200, true],
    [201, true],
    [204, true],
    [400, false],
    [409, false],
    [422, false],
    [500, false],
    [503, false],
  ])('%i → %s', (status, kept) => expect(keepsAnswer(status)).toBe(kept));
});
