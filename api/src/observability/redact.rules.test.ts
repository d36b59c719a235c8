import { describe, expect, it } from 'vitest';
import { isPersonalKey, redactError, redactLogValue, REDACTED, scrubText } from './redact.rules.js';

describe('isPersonalKey', () => {
  it.each([
    ['first_name', true],
    ['lastName', true],
    ['email', true],
    ['patient_email', true],
    ['cellphone', true],
    ['nid', true],
    ['password', true],
    ['token', true],
    ['x-api-key', true],
    ['authorization', true],
    ['code', true],
    ['text', true],
    ['parameters', true],
    ['clientId', false],
    ['userId', false],
    ['patientId', false],
    ['route', false],
    ['status', false],
    ['ms', false],
    ['kind', false],
    ['reqId', false],
  ])('%s → %s', (key, personal) => {
    expect(isPersonalKey(key)).toBe(personal);
  });
});

describe('scrubText', () => {
  it.each([
    ['correo ana.perez@clinica.test rechazado', 'correo [correo] rechazado'],
    ['SMS a +57 300 123 4567 fallido', 'SMS a [número] fallido'],
    ['documento 1012345678 duplicado', 'documento [número] duplicado'],
    ['Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc_DEF-123', 'Bearer [token]'],
    ['token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig', 'token [token]'],
    ['secreto 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08', 'secreto [token]'],
    // What a line may keep: ids, short counts, dates and times, a route template.
    ['tarea webhook.delivery #1234: onFailed falló', 'tarea webhook.delivery #1234: onFailed falló'],
    ['2026-11-28T17:48:18.000Z', '2026-11-28T17:48:18.000Z'],
    ['copia (20480 bytes)', 'copia (20480 bytes)'],
    ['/api/v1/patients/{id}', '/api/v1/patients/{id}'],
  ])('%s', (input, output) => {
    expect(scrubText(input)).toBe(output);
  });
});

describe('redactLogValue', () => {
  it('drops personal keys at any depth and keeps ids, counts and flags', () => {
    const row = {
      id: 7,
      client_id: 3,
      first_name: 'MARÍA',
      contact: { email: 'maria@correo.test', cellphone: '3001234567', city_id: 11001 },
      list: [{ nid: '52123456', active: true }],
      note: 'llamar al 3001234567',
    };
    expect(redactLogValue(row)).toEqual({
      id: 7,
      client_id: 3,
      first_name: REDACTED,
      contact: { email: REDACTED, cellphone: REDACTED, city_id: 11001 },
      list: [{ nid: REDACTED, active: true }],
      note: 'llamar al [número]',
    });
  });

  it('keeps the request id and route it was given as they are', () => {
    const line = { reqId: '6f1c2a4e-1b3d-4d5e-9f00-123456789abc', route: '/api/v1/patients/{id}', status: 200 };
    expect(redactLogValue(line)).toEqual(line);
  });

  it("keeps the backup job's archive name as it wrote it: a time and a database, not a document number", () => {
    const line = { backup_file: 'vigia-20261128T080000Z-sqlite.tar.gz.age', bytes: 12_345_678 };
    expect(redactLogValue(line)).toEqual(line);
  });

  it('bounds depth so a deep object cannot stall the logger', () => {
    let deep: Record<string, unknown> = { v: 1 };
    for (let i = 0; i < 20; i++) deep = { child: deep };
    expect(JSON.stringify(redactLogValue(deep))).toContain('[…]');
  });
});

describe('redactError', () => {
  it('keeps class and code, scrubs the message and never copies SQL values', () => {
    const err = Object.assign(new Error('Validation error: email ana@x.test ya existe'), {
      name: 'SequelizeUniqueConstraintError',
      code: 'SQLITE_CONSTRAINT',
      parameters: ['ana@x.test', 'Ana'],
      sql: 'INSERT INTO users …',
    });
    const out = redactError(err);
    expect(out).toMatchObject({
      type: 'SequelizeUniqueConstraintError',
      code: 'SQLITE_CONSTRAINT',
      message: 'Validation error: email [correo] ya existe',
    });
    expect(JSON.stringify(out)).not.toContain('ana@x.test');
    expect(JSON.stringify(out)).not.toContain('Ana');
  });
});
