import { describe, it, expect } from 'vitest';
import { checkPassword, ownCityChanged } from './users.rules.js';
import { MESSAGES } from '@vigia/contract/rules/validation';

describe('checkPassword', () => {
  it.each([
    ['Segura@2026', 'Segura@2026', true, null],
    [undefined, undefined, false, null],
    [undefined, undefined, true, { field: 'password', message: MESSAGES.required }],
    ['Ab@1', 'Ab@1', true, { field: 'password', message: MESSAGES.passwordMin }],
    ['segura@2026', 'segura@2026', true, { field: 'password', message: MESSAGES.password }],
    ['Segura2026', 'Segura2026', true, { field: 'password', message: MESSAGES.password }],
    ['Segura@2026#', 'Segura@2026#', true, { field: 'password', message: MESSAGES.password }],
    ['Segura@2026', 'Segura@2027', true, { field: 'password_confirmation', message: 'las contraseñas no coinciden' }],
    ['Segura@2026', undefined, false, { field: 'password_confirmation', message: MESSAGES.required }],
    [undefined, 'Segura@2026', false, { field: 'password', message: MESSAGES.required }],
  ] as const)('%s / %s (required %s)', (p, c, req, expected) => {
    expect(checkPassword(p, c, req)).toEqual(expected);
  });
});

describe('ownCityChanged', () => {
  it.each([
    [1, 1, 2611001, 2605001, true],
    [1, 1, 2611001, 2611001, false],
    [1, 1, 2611001, undefined, false],
    [1, 1, null, 2611001, true],
    [1, 2, 2611001, 2605001, false],
  ] as const)('actor %s target %s %s→%s', (a, t, b, n, expected) => {
    expect(ownCityChanged(a, t, b, n)).toBe(expected);
  });
});
