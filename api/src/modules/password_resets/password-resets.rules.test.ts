import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  changedEmail,
  checkNewPassword,
  hashResetToken,
  newResetToken,
  resetEmail,
  resetLink,
  resetState,
  ssoEmail,
} from './password-resets.rules';

const NOW = new Date('2026-04-06T14:00:00Z');
const minutes = (m: number) => new Date(NOW.getTime() + m * 60_000);

describe('reset tokens', () => {
  it('are 43 base64url characters (256 bits), different each time, stored as their SHA-256', () => {
    const a = newResetToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newResetToken()).not.toBe(a);
    expect(hashResetToken(a)).toBe(crypto.createHash('sha256').update(a).digest('hex'));
    expect(hashResetToken(a)).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('resetState', () => {
  const row = { used_at: null, voided_at: null, expires_at: minutes(30), user_active: true };
  it.each([
    ['a fresh link', row, 'valid'],
    ['no such link', undefined, 'unknown'],
    ['a disabled user', { ...row, user_active: false }, 'unknown'],
    ['a used link', { ...row, used_at: minutes(-1) }, 'used'],
    ['a voided link', { ...row, voided_at: minutes(-1) }, 'voided'],
    ['used, then voided: used', { ...row, used_at: minutes(-2), voided_at: minutes(-1) }, 'used'],
    ['at its 30th minute', { ...row, expires_at: NOW }, 'expired'],
    ['a second before', { ...row, expires_at: new Date(NOW.getTime() + 1000) }, 'valid'],
  ])('%s → %s', (_what, r, state) => {
    expect(resetState(r, NOW)).toBe(state);
  });
});

describe('checkNewPassword (03 §5 rule)', () => {
  it.each([
    ['Nueva@Clave2026', 'Nueva@Clave2026', null],
    ['Ab@1', 'Ab@1', 'password'],
    ['sinmayusculas1@', 'sinmayusculas1@', 'password'],
    ['SINMINUSCULAS1@', 'SINMINUSCULAS1@', 'password'],
    ['SinDigitos@@', 'SinDigitos@@', 'password'],
    ['SinEspecial12', 'SinEspecial12', 'password'],
    ['Con#Otro1234', 'Con#Otro1234', 'password'],
    ['Nueva@Clave2026', '', 'password_confirmation'],
    ['Nueva@Clave2026', 'Nueva@Clave2027', 'password_confirmation'],
  ])('%s / %s → %s', (password, confirmation, field) => {
    expect(checkNewPassword(password, confirmation)?.field ?? null).toBe(field);
  });
});

describe('the e-mails', () => {
  it('links to the staff app with the token after #, under PUBLIC_URL or as a path', () => {
    expect(resetLink('https://vigia.example.co/', 'abc')).toBe('https://vigia.example.co/password_resets#abc');
    expect(resetLink(null, 'abc')).toBe('/password_resets#abc');
  });
  it('a reset e-mail names the link, its 30 minutes and that sessions end', () => {
    const m = resetEmail({ firstName: 'Lucía', email: 'lucia@x.co', link: 'https://v/password_resets#t' });
    expect(m.subject).toBe('Vigía: restablezca su contraseña');
    expect(m.text).toContain('https://v/password_resets#t');
    expect(m.text).toContain('30 minutos');
    expect(m.text).toContain('se cerrarán todas sus sesiones');
  });
  it('a single sign-on user is sent to the provider, with no link', () => {
    const m = ssoEmail({ firstName: 'Lucía', email: 'lucia@x.co', loginUrl: 'https://v/login' });
    expect(m.text).toContain('https://v/login');
    expect(m.text).not.toContain('password_resets');
  });
});

describe('the notice after a reset', () => {
  it('tells the owner, with no link, what to do if it was not them', () => {
    const m = changedEmail({ firstName: 'Lucía', email: 'lucia@x.co' });
    expect(m.subject).toBe('Vigía: su contraseña fue cambiada');
    expect(m.text).toContain('lucia@x.co');
    expect(m.text).toContain('comuníquese de inmediato con el administrador');
    expect(m.text).not.toContain('http');
  });
});
