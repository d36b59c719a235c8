import { describe, expect, it } from 'vitest';
import { canTakeEarlyRead, EARLY_READ_FRESH_MS, earlyReadKey } from './early-reads.rules';

describe('earlyReadKey: the entry and axios name one GET alike', () => {
  it.each([
    ['a path alone', 'http://h/api/v1/patients/7', 'http://h/api/v1/patients/7'],
    ['a relative path, on the page origin', '/api/v1/me', 'http://localhost/api/v1/me'],
    [
      'query parameters in another order',
      'http://h/api/v1/patients/7/measurements?order=desc&clinical_element=1&_start=0&_end=200',
      'http://h/api/v1/patients/7/measurements?_end=200&_start=0&clinical_element=1&order=desc',
    ],
    ['a repeated parameter keeps its values, sorted', 'http://h/x?b=2&a=1&b=1', 'http://h/x?a=1&b=1&b=2'],
    ['an empty query is no query', 'http://h/x?', 'http://h/x'],
    ['encoded values stay equal', 'http://h/x?q=a%20b', 'http://h/x?q=a+b'],
  ])('%s', (_, url, key) => {
    expect(earlyReadKey(url)).toBe(key);
  });

  it('different reads get different keys', () => {
    expect(earlyReadKey('http://h/x?clinical_element=1')).not.toBe(earlyReadKey('http://h/x?clinical_element=2'));
    expect(earlyReadKey('http://h/patients/1')).not.toBe(earlyReadKey('http://h/patients/10'));
  });

  it('a URL that cannot be parsed has none', () => {
    expect(earlyReadKey('http://[bad', 'not a base')).toBeNull();
  });
});

describe('canTakeEarlyRead', () => {
  const read = { token: 'abc', startedAt: 1_000 };
  it.each([
    ['the same session, at once', read, 'abc', 1_000, true],
    ['the same session, at the edge of fresh', read, 'abc', 1_000 + EARLY_READ_FRESH_MS, true],
    ['too late: read again', read, 'abc', 1_001 + EARLY_READ_FRESH_MS, false],
    ['another session', read, 'xyz', 1_500, false],
    ['no session', read, null, 1_500, false],
    ['a clock that went back', read, 'abc', 999, false],
    ['no early read', undefined, 'abc', 1_500, false],
  ] as const)('%s', (_, r, token, now, expected) => {
    expect(canTakeEarlyRead(r, token, now)).toBe(expected);
  });
});
