import { describe, expect, it } from 'vitest';
import {
  RECOVERY_ALPHABET,
  checkTotp,
  factorChangedEmail,
  generateRecoveryCodes,
  mayRemoveFactor,
  methodsOf,
  normaliseRecoveryCode,
  proofOf,
  signInStepOf,
  stepAt,
} from './factors.rules.js';

// A code per step that is easy to read: step 1000 → '001000'.
const codeAt = (step: number) => String(step % 1_000_000).padStart(6, '0');
// 15 s into step 1000 (RFC 6238: T = floor(t / 30)).
const NOW = 1000 * 30_000 + 15_000;

describe('checkTotp (RFC 6238, issue 38: one step of drift either way, no replay in a step)', () => {
  it.each([
    ['the current step', '001000', null, { ok: true, step: 1000 }],
    ['one step behind', '000999', null, { ok: true, step: 999 }],
    ['one step ahead', '001001', null, { ok: true, step: 1001 }],
    ['two steps behind', '000998', null, { ok: false, reason: 'wrong' }],
    ['two steps ahead', '001002', null, { ok: false, reason: 'wrong' }],
    ['a code already used in its step', '001000', 1000, { ok: false, reason: 'replay' }],
    ['an older step after a newer one was used', '000999', 1000, { ok: false, reason: 'replay' }],
    ['a newer step after an older one', '001001', 1000, { ok: true, step: 1001 }],
    ['five digits', '01000', null, { ok: false, reason: 'format' }],
    ['seven digits', '0001000', null, { ok: false, reason: 'format' }],
    ['letters', '00a000', null, { ok: false, reason: 'format' }],
    ['spaces', ' 01000', null, { ok: false, reason: 'format' }],
  ] as const)('%s', (_name, code, lastStep, expected) => {
    expect(checkTotp({ code, nowMs: NOW, lastStep, codeAt })).toEqual(expected);
  });

  it('puts the step boundaries at multiples of 30 s', () => {
    expect(stepAt(29_999)).toBe(0);
    expect(stepAt(30_000)).toBe(1);
  });
});

describe('recovery codes', () => {
  it('makes ten distinct xxxxx-xxxxx codes from the alphabet without look-alikes', () => {
    let i = 0;
    const codes = generateRecoveryCodes((n) => i++ % n);
    expect(codes).toHaveLength(10);
    for (const c of codes) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect(RECOVERY_ALPHABET).not.toMatch(/[ilo01]/);
  });

  it.each([
    ['abcde-fghjk', 'abcdefghjk'],
    ['ABCDE-FGHJK', 'abcdefghjk'],
    ['abcdefghjk', 'abcdefghjk'],
    [' abcde fghjk ', 'abcdefghjk'],
    ['abcde-fghj', null],
    ['abcde-fghjkm', null],
    ['abcde-fghj1', null],
    ['abcde-fghjo', null],
  ])('reads %j as %j', (typed, stored) => {
    expect(normaliseRecoveryCode(typed)).toBe(stored);
  });
});

describe('sign-in steps under the policy', () => {
  const none = { totp: false, passkeys: 0, recoveryCodesLeft: 0 };
  const app = { totp: true, passkeys: 0, recoveryCodesLeft: 10 };
  it.each([
    ['no factor, role not required', none, 'medico', [], 'none'],
    ['no factor, role required', none, 'admin', ['admin'], 'enrolment'],
    ['a factor, role not required', app, 'medico', [], 'second_factor'],
    ['a factor, role required', app, 'admin', ['admin'], 'second_factor'],
  ] as const)('%s', (_n, f, role, roles, step) => {
    expect(signInStepOf(f, role, roles)).toBe(step);
  });

  it('offers recovery codes only beside a factor, and passkeys when there are some', () => {
    expect(methodsOf(app)).toEqual(['totp', 'recovery_code']);
    expect(methodsOf({ totp: false, passkeys: 2, recoveryCodesLeft: 0 })).toEqual(['passkey']);
    expect(methodsOf({ totp: false, passkeys: 0, recoveryCodesLeft: 5 })).toEqual([]);
  });

  it('refuses to remove the last factor only when the policy requires one', () => {
    expect(mayRemoveFactor(none, true)).toBe(false);
    expect(mayRemoveFactor(none, false)).toBe(true);
    expect(mayRemoveFactor({ ...none, passkeys: 1 }, true)).toBe(true);
  });

  it('takes exactly one proof', () => {
    expect(proofOf({ code: '123456' })).toEqual({ kind: 'code', code: '123456' });
    expect(proofOf({ recovery_code: 'abcde-fghjk' })).toEqual({ kind: 'recovery', code: 'abcde-fghjk' });
    expect(proofOf({})).toBeNull();
    expect(proofOf({ code: '123456', recovery_code: 'abcde-fghjk' })).toBeNull();
  });
});

describe('factorChangedEmail (ASVS 5.0 6.3.7: the user hears of every change of factor)', () => {
  const base = { firstName: 'Lucía', email: 'lucia@clinica.test', when: '20/11/2026 07:00' };
  it.each([
    ['totp_added', 'Vigía: se activó una aplicación de autenticación', 'Se inscribió una aplicación de autenticación'],
    ['totp_removed', 'Vigía: se quitó la aplicación de autenticación', 'Se quitó la aplicación de autenticación'],
    ['passkey_added', 'Vigía: se registró una llave de acceso', 'Se registró una llave de acceso'],
    ['passkey_removed', 'Vigía: se eliminó una llave de acceso', 'Se eliminó una llave de acceso'],
    ['recovery_codes_renewed', 'Vigía: se generaron nuevos códigos de recuperación', 'Se generaron nuevos códigos de recuperación'],
    ['reset_by_admin', 'Vigía: un administrador restableció su segundo factor', 'Un administrador de su institución restableció'],
  ] as const)('%s: says what changed, on which account and when, and what to do if it was not them', (change, subject, line) => {
    const mail = factorChangedEmail({ ...base, change });
    expect(mail.subject).toBe(subject);
    expect(mail.text).toContain(`${line}`);
    expect(mail.text).toContain('(lucia@clinica.test) el 20/11/2026 07:00.');
    expect(mail.text).toMatch(/^Hola, Lucía:/);
    expect(mail.text).toContain('Si no fue usted, comuníquese de inmediato con el administrador de su institución');
    expect(mail.text).not.toMatch(/https?:\/\//);
  });
});
