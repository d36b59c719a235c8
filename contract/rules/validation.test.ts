import { describe, it, expect } from 'vitest';
import * as v from './validation';

describe('shared validation catalogue (03 §5)', () => {
  it.each([
    ['Abcdef1@', null],
    ['abcdef1@', v.MESSAGES.password],
    ['ABCDEF1@', v.MESSAGES.password],
    ['Abcdefg@', v.MESSAGES.password],
    ['Abcdefg1', v.MESSAGES.password],
    ['Abcde1@', 'Debe tener mínimo 8 caracteres'],
    ['Abcdef1#', v.MESSAGES.password],
    ['', '¡El campo es requerido!'],
  ])('password %j → %j', (input, expected) => {
    expect(v.validatePassword(input)).toBe(expected);
  });

  it('password message is the specification text', () => {
    expect(v.MESSAGES.password).toBe(
      'La contraseña debe contener al menos una letra mayúscula, una letra minúscula, un dígito, un carácter especial (@$!%*?&) y tener una longitud mínima de 8 caracteres.',
    );
  });

  it.each([
    ['a', 'a', null],
    ['a', 'b', 'las contraseñas no coinciden'],
  ])('confirmation %j/%j → %j', (p, c, expected) => {
    expect(v.validatePasswordConfirmation(p, c)).toBe(expected);
  });

  it.each([
    ['1234', undefined, null],
    ['12345678', undefined, null],
    ['123456789', undefined, '¡El valor ingresado no es válido o está incompleto!'],
    ['1234567890', undefined, null],
    ['123', undefined, '¡El valor ingresado no es válido o está incompleto!'],
    ['1.020.304', undefined, null],
    ['12345678Z', '^[0-9]{8}[A-Z]$', null],
    ['12345678z', '^[0-9]{8}[A-Z]$', null],
    ['1234567Z', '^[0-9]{8}[A-Z]$', '¡El valor ingresado no es válido o está incompleto!'],
    ['', undefined, '¡El campo es requerido!'],
  ])('national id %j with regex %j → %j', (input, regex, expected) => {
    expect(v.validateNid(input, regex)).toBe(expected);
  });

  it.each([
    ['ana@clinica.co', true, null],
    ['ana@clinica', true, '¡El formato de correo no es válido!'],
    ['', false, null],
    ['', true, '¡El campo es requerido!'],
  ])('email %j (required %j) → %j', (input, req, expected) => {
    expect(v.validateEmail(input, req)).toBe(expected);
  });

  it.each([
    ['3001234567', true, null],
    ['1234567', true, null],
    ['12345678901', true, null],
    ['123456', true, '¡Ingrese solo números y un máximo de 11 caracteres!'],
    ['300-123', false, '¡Ingrese solo números, entre 7 y 10 caracteres!'],
    ['', false, null],
  ])('phone %j (required %j) → %j', (input, req, expected) => {
    expect(v.validatePhone(input, req)).toBe(expected);
  });

  it.each([
    ['12345678', false, null],
    ['123456789', false, '¡Ingrese solo números'],
    ['1234567890', true, null],
    ['12a', true, '¡Ingrese solo números'],
  ])('quantity %j (required %j) → %j', (input, req, expected) => {
    expect(v.validateQuantity(input, req)).toBe(expected);
  });

  it.each([
    ['abc', 200, null],
    ['ab', 200, 'Debe tener mínimo 3 caracteres'],
    ['x'.repeat(201), 200, 'Debe tener máximo de 200 caracteres'],
    ['x'.repeat(400), 400, null],
    ['x'.repeat(601), 600, 'Debe tener máximo de 600 caracteres'],
  ] as const)('text of length %#', (input, max, expected) => {
    expect(v.validateText(input, max)).toBe(expected);
  });

  it.each([
    ['5.5', null],
    ['120', null],
    ['0', null],
    ['5.55', '¡Ingrese solo números enteros o con un decimal (ej: 5.5)'],
    ['-1', '¡Ingrese solo números enteros o con un decimal (ej: 5.5)'],
    ['123456', '¡Ingrese solo números enteros o con un decimal (ej: 5.5)'],
    ['abc', '¡Ingrese solo números enteros o con un decimal (ej: 5.5)'],
  ])('vital %j → %j', (input, expected) => {
    expect(v.validateVital(input)).toBe(expected);
  });

  it.each([
    ['ABCDEF1234567890', null],
    ['ABCDEF123456789', 'El valor ingresado no es válido o está incompleto; debe contener 16 caracteres'],
    ['ABCDEF12345678-0', 'El valor ingresado no es válido o está incompleto; debe contener 16 caracteres'],
  ])('serial %j → %j', (input, expected) => {
    expect(v.validateSerial(input)).toBe(expected);
  });

  it.each([
    ['https://hooks.example.org/vigia', null],
    ['http://hooks.example.org', '¡El formato de la URL no es válido!'],
    ['https://', '¡El formato de la URL no es válido!'],
  ])('url %j → %j', (input, expected) => {
    expect(v.validateUrl(input)).toBe(expected);
  });

  it.each([
    ['ana maría', null],
    ['ÑOÑO', null],
    ['al', v.MESSAGES.name],
    ['ana3', v.MESSAGES.name],
    ['x'.repeat(51), v.MESSAGES.name],
  ])('name %j → %j', (input, expected) => {
    expect(v.validateName(input)).toBe(expected);
  });

  it('upper-cases and trims names', () => {
    expect(v.normaliseName('  maría   josé ')).toBe('MARÍA JOSÉ');
  });

  const today = '2026-11-21';
  it.each([
    ['1889-12-31', 'any', v.MESSAGES.date],
    ['1890-01-01', 'any', null],
    ['2300-01-02', 'any', v.MESSAGES.date],
    ['2026-11-22', 'birth', v.MESSAGES.birthDateFuture],
    ['2026-11-21', 'birth', null],
    ['2026-11-20', 'expiration', v.MESSAGES.expirationPast],
    ['2026-11-21', 'expiration', null],
    ['2008-11-21', 'menor', null],
    ['2008-11-22', 'menor', v.MESSAGES.minorTooOld],
    ['2026-02-30', 'any', v.MESSAGES.date],
  ] as const)('date %j as %j → %j', (input, kind, expected) => {
    expect(v.validateDate(input, kind, today)).toBe(expected);
  });

  it.each([
    ['', 'Contraseña requerida'],
    ['1234567', 'Mínimo 8 caracteres'],
    ['12345678', null],
  ])('staff login password %j → %j', (input, expected) => {
    expect(v.validateLoginPassword(input)).toBe(expected);
  });

  it.each([
    ['', 4, 'Código requerido'],
    ['123', 4, 'El código debe tener 4 caracteres'],
    ['1234', 4, null],
    ['123456', 6, null],
    ['12a4', 4, 'El código debe tener 4 caracteres'],
  ])('patient code %j (length %j) → %j', (input, len, expected) => {
    expect(v.validateOtpCode(input, len)).toBe(expected);
  });
});

describe('control characters in text (issue 18)', () => {
  it.each([
    ['plain', 'Hola, ¿qué tal?', null],
    ['tab, newline and carriage return are text', { notes: 'a\tb\r\nc' }, null],
    ['NUL in a string', 'a\u0000b', 'body'],
    ['NUL in a field', { text: 'a\u0000' }, 'text'],
    ['SOH in a nested field', { orders: [{ notes: 'x\u0001' }] }, 'orders.0.notes'],
    ['ESC', { q: '\u001b[2J' }, 'q'],
    ['DEL', { name: 'z\u007f' }, 'name'],
    ['in a key', { ['a\u0000b']: 1 }, 'a?b'],
    ['numbers and nulls are not text', { a: 1, b: null, c: true }, null],
    ['emoji and accents', { t: '💉 ñandú' }, null],
  ])('%s', (_name, value, expected) => {
    expect(v.controlCharacterPath(value)).toBe(expected);
  });
});

describe('non-finite numbers (issue 18)', () => {
  it.each([
    ['finite', { a: 1, b: -2.5, c: [0] }, null],
    ['Infinity in a field', { _start: Infinity }, '_start'],
    ['-Infinity nested', { orders: [{ hours: [1, -Infinity] }] }, 'orders.0.hours.1'],
    ['NaN', { value: NaN }, 'value'],
    ['the body itself', Infinity, 'body'],
    ['strings are not numbers', { a: 'Infinity' }, null],
  ])('%s', (_name, value, expected) => {
    expect(v.nonFinitePath(value)).toBe(expected);
  });
});

describe('withoutControlCharacters (issue 18)', () => {
  it.each([
    ['plain text stays', 'Hola\tqué\ntal', 'Hola\tqué\ntal'],
    ['NUL and ESC go', 'a\u0000b\u001b', 'ab'],
    ['nested strings and keys', { m: [{ ['t\u0001']: 'x\u007fy' }], n: 1 }, { m: [{ t: 'xy' }], n: 1 }],
    ['numbers and null stay', [1, null, true], [1, null, true]],
  ])('%s', (_n, value, expected) => {
    expect(v.withoutControlCharacters(value)).toEqual(expected);
  });
});
