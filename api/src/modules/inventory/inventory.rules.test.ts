import { describe, it, expect } from 'vitest';
import { checkStock, formatDate, insufficientStockMessage, moveDelta, normaliseBatch } from './inventory.rules.js';
import { MESSAGES } from '@vigia/contract/rules/validation';

const ok = { type: 'biologico', serial: 'ABCD1234EFGH5678', expiration_date: '2027-01-31', medical_supply_id: 3, batch: true };

describe('checkStock', () => {
  it.each([
    ['valid', ok, null],
    ['short serial', { ...ok, serial: 'ABC123' }, { field: 'serial', message: MESSAGES.serial }],
    ['serial with a dash', { ...ok, serial: 'ABCD-234EFGH5678' }, { field: 'serial', message: MESSAGES.serial }],
    ['17 characters', { ...ok, serial: 'ABCD1234EFGH56789' }, { field: 'serial', message: MESSAGES.serial }],
    ['expired yesterday', { ...ok, expiration_date: '2026-11-21' }, { field: 'expiration_date', message: MESSAGES.expirationPast }],
    ['expires today', { ...ok, expiration_date: '2026-11-22' }, null],
    ['not a date', { ...ok, expiration_date: '2026-02-30' }, { field: 'expiration_date', message: MESSAGES.date }],
    ['biológico without supply', { ...ok, medical_supply_id: null }, { field: 'medical_supply_id', message: MESSAGES.required }],
    [
      'dispositivo without device',
      { ...ok, type: 'dispositivo', medical_supply_id: null },
      { field: 'medical_supply_id', message: MESSAGES.required },
    ],
    ['insumo without supply', { ...ok, type: 'insumo', medical_supply_id: null }, null],
  ])('%s', (_name, stock, expected) => {
    expect(checkStock(stock, '2026-11-22')).toEqual(expected);
  });

  it('lets an edit keep an expiry that has passed since', () => {
    expect(checkStock({ ...ok, expiration_date: '2026-01-01' }, '2026-11-22', false)).toBeNull();
  });
});

describe('moves', () => {
  it.each([
    ['entrada', 5, 5],
    ['salida', 5, -5],
    ['aplicacion', 1, -1],
  ])('%s of %i changes the batch by %i', (type, amount, delta) => {
    expect(moveDelta(type, amount)).toBe(delta);
  });
  it('says how many units there are', () => {
    expect(insufficientStockMessage('ABCD1234EFGH5678', 2, 5)).toBe(
      'No hay unidades suficientes en el lote ABCD1234EFGH5678: hay 2 disponible(s) y se pidieron 5. El stock no puede quedar en negativo.',
    );
  });
});

describe('helpers', () => {
  it.each([
    ['biologico', false, true],
    ['dispositivo', false, false],
    ['insumo', undefined, true],
  ] as const)('%s with batch %s → %s', (type, batch, expected) => {
    expect(normaliseBatch(type, batch)).toBe(expected);
  });
  it('formats dates as dd/mm/aaaa', () => {
    expect(formatDate('2027-03-09')).toBe('09/03/2027');
  });
});
