import { describe, it, expect } from 'vitest';
import {
  changedTags,
  ageOn,
  dropReadOnlyFields,
  updateMessage,
  initialStatus,
  isContactComplete,
  nextStatus,
  parsePatientQuery,
  PATIENT_LIVE_FIELDS,
  PATIENT_READ_ONLY_FIELDS,
  searchTerms,
  sendsReadOnlyField,
} from './patients.rules';
import { loadContract } from '../../http/contract';
import { localDate } from '@vigia/contract/rules/dates';

const complete = { address: 'CALLE 1', neighborhood: 'CENTRO', city_id: 1, prefix: '+57', cellphone: '3001234567', email: 'a@b.co' };
const missingEmail = { ...complete, email: null };

describe('patient status (D9)', () => {
  it('is active when created with complete contact data, incomplete otherwise', () => {
    expect(initialStatus(complete)).toBe(1);
    expect(initialStatus(missingEmail)).toBe(2);
    expect(isContactComplete({ ...complete, address: '  ' })).toBe(false);
  });

  it.each([
    [2, undefined, complete, 1],
    [2, undefined, missingEmail, 2],
    [1, undefined, missingEmail, 2],
    [1, 0, complete, 0],
    [0, 1, complete, 1],
    [0, 1, missingEmail, 2],
    [1, 3, complete, 3],
    [0, 3, missingEmail, 3],
  ])('from %i asking %j → %i', (current, requested, contact, expected) => {
    expect(nextStatus(current, requested, contact)).toEqual({ ok: true, status: expected });
  });

  it('refuses any change to a deceased patient', () => {
    expect(nextStatus(3, 1, complete).ok).toBe(false);
    expect(nextStatus(3, undefined, complete).ok).toBe(false);
  });
});

describe('age and local dates', () => {
  it.each([
    ['1950-11-21', '2026-11-21', 76],
    ['1950-11-22', '2026-11-21', 75],
    ['2000-02-29', '2026-02-28', 25],
    ['2000-02-29', '2026-03-01', 26],
  ])('born %s, on %s → %i', (birth, today, age) => {
    expect(ageOn(birth, today)).toBe(age);
  });

  it('computes the date in the patient zone, not UTC', () => {
    const now = new Date('2026-11-22T03:00:00Z');
    expect(localDate(now, 'America/Bogota')).toBe('2026-11-21');
    expect(localDate(now, 'Europe/Madrid')).toBe('2026-11-22');
  });
});

describe('patient search', () => {
  it.each([
    ['maria jose perez gomez', ['maria', 'jose', 'perez', 'gomez']],
    ['ana ana', ['ana']],
    ['', []],
  ])('searchTerms(%j) → %j', (input, expected) => {
    expect(searchTerms(input)).toEqual(expected);
  });

  it.each([
    ['1020', 'x', { kind: 'document', prefix: '1020' }],
    ['AB12345', 'ab12345', { kind: 'document', prefix: 'AB12345' }],
    ['PEREZ', 'perez', { kind: 'name', words: ['perez'] }],
    ['MARIA PEREZ', 'maria perez', { kind: 'name', words: ['maria', 'perez'] }],
    ["O'NEIL", "o'neil", { kind: 'name', words: ['o', 'neil'] }],
    ['%_', '%_', { kind: 'none' }],
    ['A B C D E F', 'a b c d e f', { kind: 'name', words: ['a', 'b', 'c', 'd'] }],
  ] as const)('parsePatientQuery(%j, %j)', (nid, key, expected) => {
    expect(parsePatientQuery(nid, key)).toEqual(expected);
  });
});

describe('update notification (01 §7)', () => {
  it.each([
    [1, 1, 'Paciente actualizado correctamente'],
    [1, 0, 'Paciente inactivado. Sus actividades futuras quedaron suspendidas.'],
    [0, 1, 'Paciente activado correctamente'],
    [2, 1, 'Datos de contacto completos: el paciente quedó activo.'],
    [1, 2, 'Paciente actualizado. Complete los datos de contacto para activarlo.'],
    [1, 3, 'Paciente registrado como fallecido. Sus órdenes y actividades pendientes fueron canceladas.'],
  ])('from %i to %i says %s', (from, to, message) => {
    expect(updateMessage(from, to)).toBe(message);
  });
});

describe('read-only fields of a patient update (01 §7: the whole record comes back)', () => {
  const record = { id: 7, age: 75, status_name: 'Activo', tags: [{ id: 1, name: 'EPOC', color: 'red' }], permissions: { edit: true } };

  it('drops read-only fields equal to the record and live ones whatever they say', () => {
    const sent = {
      id: 7,
      age: 75,
      tags: [{ color: 'red', name: 'EPOC', id: 1 }],
      active_alerts_count: 99,
      measurements_adherence: 12.5,
      status: 3,
      first_name: 'ANA',
    };
    expect(sendsReadOnlyField(sent)).toBe(true);
    expect(dropReadOnlyFields(sent, record)).toEqual({ ok: true, body: { status: 3, first_name: 'ANA' } });
    expect(sendsReadOnlyField({ status: 3, active_alerts_count: 1 })).toBe(false);
  });

  it.each([
    ['id', { id: 8 }],
    ['age', { age: 30 }],
    ['status_name', { status_name: 'Fallecido' }],
    ['tags', { tags: [] }],
    ['permissions', { permissions: { edit: true, set_deceased: true } }],
  ])('refuses a changed %s with 400 on the field', (field, sent) => {
    expect(dropReadOnlyFields({ status: 3, ...sent }, record)).toEqual({
      ok: false,
      field,
      message: `El campo '${field}' es de solo lectura y no coincide con la ficha del paciente.`,
    });
  });

  it('lists exactly what PatientUpdate marks x-read-only, and PatientUpdate takes every field GET answers', () => {
    type Marks = { 'x-read-only'?: unknown; 'x-live'?: unknown };
    const schemas = loadContract().doc.components!.schemas! as Record<string, { properties: Record<string, Marks> }>;
    const update = schemas.PatientUpdate.properties;
    const marked = (mark: keyof Marks) => Object.keys(update).filter((k) => update[k][mark] === true);
    expect(marked('x-read-only').sort()).toEqual([...PATIENT_READ_ONLY_FIELDS].sort());
    expect(marked('x-live').sort()).toEqual([...PATIENT_LIVE_FIELDS].sort());
    expect(Object.keys(schemas.Patient.properties).filter((k) => !(k in update))).toEqual([]);
  });
});

describe('tags whose members change with a patient update (a FHIR Group is its tag, issue 37)', () => {
  it.each([
    [
      [1, 2],
      [2, 3],
      [1, 3],
    ],
    [[], [4, 4], [4]],
    [[5], [], [5]],
    [[1, 2], [2, 1], []],
    [[], [], []],
  ])('before %j, after %j: %j', (before, after, changed) => {
    expect(changedTags(before, after)).toEqual(changed);
  });
});
