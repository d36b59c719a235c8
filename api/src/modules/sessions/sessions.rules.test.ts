import { describe, expect, it } from 'vitest';
import { browserLabel, lastUsedIsStale, sessionEndedMessage, sortSessions } from './sessions.rules';

describe('browserLabel', () => {
  it.each([
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', 'Chrome en Linux'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox en Windows'],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
      'Mobile Safari en iOS',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
      'Edge en Windows',
    ],
    ['curl/8.5.0', 'Navegador desconocido'],
    ['', 'Navegador desconocido'],
    [null, 'Navegador desconocido'],
  ])('%s → %s', (ua, label) => {
    expect(browserLabel(ua)).toBe(label);
  });
});

describe('sessionEndedMessage', () => {
  it.each([
    ['ended_by_user', /^Su sesión fue cerrada desde otra sesión de su cuenta/],
    ['ended_by_admin', /^Su sesión fue cerrada por un administrador/],
    ['password_reset', /^Su sesión fue cerrada porque se cambió la contraseña/],
  ])('%s says why', (reason, message) => {
    expect(sessionEndedMessage(reason)).toMatch(message);
  });
  it.each([['sign_out'], [null], ['toString'], ['otra']])('%s keeps the plain 401', (reason) => {
    expect(sessionEndedMessage(reason)).toBeNull();
  });
});

describe('lastUsedIsStale: written at most every 5 minutes', () => {
  const t = Date.UTC(2026, 3, 6, 14);
  it.each([
    [null, t, true],
    [t, t, false],
    [t, t + 299_999, false],
    [t, t + 300_000, true],
  ])('last %s, now %s → %s', (last, now, stale) => {
    expect(lastUsedIsStale(last, now)).toBe(stale);
  });
});

describe('sortSessions', () => {
  it('puts the current session first, then the newest', () => {
    const s = [
      { id: 'a', current: false, created_at: '2026-04-01T10:00:00.000Z' },
      { id: 'b', current: true, created_at: '2026-03-01T10:00:00.000Z' },
      { id: 'c', current: false, created_at: '2026-04-02T10:00:00.000Z' },
    ];
    expect(sortSessions(s).map((x) => x.id)).toEqual(['b', 'c', 'a']);
  });
});
