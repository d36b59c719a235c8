import { describe, it, expect } from 'vitest';
import { CLOCK_SKEW_S, MAX_ASSERTION_LIFETIME_S, assertionTimeProblem, jtiKeptUntil } from './api-clients.clock.rules';

describe('assertionTimeProblem (SMART Backend Services: exp at most 300 s ahead; 60 s of clock skew either way)', () => {
  const now = 1_800_000_000;
  it('quotes the specification’s numbers', () => {
    expect([MAX_ASSERTION_LIFETIME_S, CLOCK_SKEW_S]).toEqual([300, 60]);
  });

  it.each<[string, { exp?: unknown; iat?: unknown; nbf?: unknown }, string | null]>([
    ['exp now + 300 (the SMART client’s default)', { exp: now + 300 }, null],
    ['exp now + 301 (the SMART client rounding up)', { exp: now + 301 }, null],
    ['exp now + 360: five minutes and the whole allowance', { exp: now + 360 }, null],
    ['exp now + 361', { exp: now + 361 }, 'exp too far ahead'],
    ['exp now', { exp: now }, null],
    ['expired by 60 s', { exp: now - 60 }, null],
    ['expired by 61 s', { exp: now - 61 }, 'expired'],
    ['iat now', { exp: now + 300, iat: now }, null],
    ['iat in the future by 60 s', { exp: now + 300, iat: now + 60 }, null],
    ['iat in the future by 61 s', { exp: now + 300, iat: now + 61 }, 'iat in the future'],
    ['iat long past', { exp: now + 300, iat: now - 3600 }, null],
    ['nbf in the future by 60 s', { exp: now + 300, nbf: now + 60 }, null],
    ['nbf in the future by 61 s', { exp: now + 300, nbf: now + 61 }, 'not yet valid'],
    ['a client 60 s ahead: iat, nbf and exp all shifted', { iat: now + 60, nbf: now + 60, exp: now + 360 }, null],
    ['a client 60 s behind, at the end of its assertion', { iat: now - 360, exp: now - 60 }, null],
    ['no exp', {}, 'exp missing'],
    ['exp as text', { exp: String(now + 60) }, 'exp missing'],
    ['exp not finite', { exp: Infinity }, 'exp missing'],
    ['iat as text', { exp: now + 60, iat: String(now) }, 'iat not a number'],
    ['nbf null', { exp: now + 60, nbf: null }, 'nbf not a number'],
  ])('%s → %s', (_name, claims, problem) => {
    expect(assertionTimeProblem(claims, now)).toBe(problem);
  });

  it('keeps a jti as long as its assertion could still be accepted', () => {
    const exp = now + 300;
    expect(jtiKeptUntil(exp)).toBe(exp + 60);
    expect(assertionTimeProblem({ exp }, jtiKeptUntil(exp))).toBeNull();
    expect(assertionTimeProblem({ exp }, jtiKeptUntil(exp) + 1)).toBe('expired');
  });
});
