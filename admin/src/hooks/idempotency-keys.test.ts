import { describe, expect, it } from 'vitest';
import { keyForSubmit, newUuid } from './idempotency-keys';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('keyForSubmit: one key per submit, the same for its retries', () => {
  let n = 0;
  const make = () => `k${++n}`;
  const entry = { path: '/patients/{id}/alerts/{alertId}/alert_entries', params: { id: 1, alertId: 2 }, values: { description: 'Llamé' } };
  it.each([
    ['a first submit gets a new key', null, entry, 'new'],
    ['the same submit again (after a timeout) keeps its key', { key: 'kept', submit: JSON.stringify(entry) }, entry, 'kept'],
    [
      'a changed text is a new submit',
      { key: 'kept', submit: JSON.stringify(entry) },
      { ...entry, values: { description: 'Llamé.' } },
      'new',
    ],
    ['another alert is a new submit', { key: 'kept', submit: JSON.stringify(entry) }, { ...entry, params: { id: 1, alertId: 3 } }, 'new'],
  ])('%s', (_what, last, submit, expected) => {
    const kept = keyForSubmit(last, submit, make);
    if (expected === 'kept') expect(kept).toBe(last);
    else expect(kept.key).toMatch(/^k\d+$/);
    expect(kept.submit).toBe(JSON.stringify(submit));
  });
});

describe('newUuid', () => {
  it('uses randomUUID where the browser has it', () => {
    expect(newUuid({ randomUUID: () => 'x', getRandomValues: (a) => a })).toBe('x');
  });
  it('builds a version 4 UUID from getRandomValues outside secure contexts', () => {
    const bytes = {
      getRandomValues: <T extends ArrayBufferView | null>(a: T) => (new Uint8Array((a as unknown as Uint8Array).buffer).fill(0xff), a),
    };
    expect(newUuid(bytes as Pick<Crypto, 'getRandomValues'>)).toMatch(UUID_V4);
    expect(newUuid({ getRandomValues: (a) => a } as Pick<Crypto, 'getRandomValues'>)).toMatch(UUID_V4);
  });
});
