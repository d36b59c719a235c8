import { describe, expect, it } from 'vitest';
import { validateCode, validateDocument } from './login.data';

describe('patient login rules', () => {
  it.each([
    ['', '¡El campo es requerido!'],
    ['   ', '¡El campo es requerido!'],
    ['1020304050', null],
    ['10.203.040', null],
    ['AB123456', null],
    ['1020$', '¡El valor ingresado no es válido o está incompleto!'],
    ['123456789012345678901', '¡El valor ingresado no es válido o está incompleto!'],
  ])('document %j → %s', (value, expected) => {
    expect(validateDocument(value)).toBe(expected);
  });

  it.each([
    ['', 4, 'Código requerido'],
    ['123', 4, 'El código debe tener 4 caracteres'],
    ['1234', 4, null],
    ['1234', 6, 'El código debe tener 6 caracteres'],
    ['123456', 6, null],
    ['12a4', 4, 'El código debe tener 4 caracteres'],
  ])('code %j of length %i → %s', (value, length, expected) => {
    expect(validateCode(value, length)).toBe(expected);
  });
});
