import { describe, expect, it } from 'vitest';
import {
  BASIC_FIELDS,
  CONTACT_FIELDS,
  exclusiveDisabilities,
  NEW_PATIENT_FIELDS,
  NO_DISABILITY,
  RDA_FIELDS,
  patientFormErrors,
  toPatientBody,
  yesterday,
  type PatientFormValues,
} from './patient-form';
import { missingBadges } from './patient-status';

const valid: PatientFormValues = {
  country_id: 26,
  id_type: 1,
  nid: '52123456',
  first_name: 'María',
  last_name: 'Pérez',
  city_id: 2611001,
  birth_date: '1950-03-04',
  gender: 0,
  address: 'Calle 45 # 12-30',
  neighborhood: 'Teusaquillo',
  prefix: '+57',
  cellphone: '3001234567',
  email: 'maria@example.co',
};
const ctx = { today: '2026-11-21' };

describe('patient form rules (01 §5, 03 §5)', () => {
  it('accepts a complete patient', () => {
    expect(patientFormErrors(valid, NEW_PATIENT_FIELDS, ctx)).toEqual({});
  });

  it.each([
    ['nid', '012', '¡El valor ingresado no es válido o está incompleto!'],
    ['nid', '', '¡El campo es requerido!'],
    ['first_name', 'Ana3', 'Solo letras y espacios, entre 3 y 50 caracteres'],
    ['cellphone', '300-12', '¡Ingrese solo números y un máximo de 11 caracteres!'],
    ['email', 'sin-arroba', '¡El formato de correo no es válido!'],
    ['birth_date', '2026-11-22', 'La fecha de nacimiento no puede ser futura'],
    ['birth_date', '1889-12-31', 'La fecha no es válida'],
    ['city_id', null, '¡El campo es requerido!'],
    ['address', 'ab', 'Debe tener mínimo 3 caracteres'],
    ['gender', undefined, '¡El campo es requerido!'],
  ] as const)('%s = %j → %s', (field, value, message) => {
    expect(patientFormErrors({ ...valid, [field]: value }, NEW_PATIENT_FIELDS, ctx)[field]).toBe(message);
  });

  it("uses the id type's own regex once one is chosen", () => {
    const spain = { ...valid, country_id: 8, id_type: 16, nid: '12345678Z' };
    const regex = '^[0-9]{8}[A-Z]$';
    expect(patientFormErrors(spain, ['nid'], { ...ctx, nidRegex: regex })).toEqual({});
    expect(patientFormErrors(spain, ['nid'], ctx).nid).toBe('¡El valor ingresado no es válido o está incompleto!');
  });

  it('checks only the fields of the dialog', () => {
    expect(patientFormErrors({ ...valid, email: 'x' }, BASIC_FIELDS, ctx)).toEqual({});
    expect(Object.keys(patientFormErrors({}, CONTACT_FIELDS, ctx)).sort()).toEqual([...CONTACT_FIELDS].sort());
  });
});

describe('patient body', () => {
  it('upper-cases text, strips the id, keeps the e-mail and sends only the listed fields', () => {
    const body = toPatientBody({ ...valid, nid: '52.123.456', first_name: ' maría  josé ', email: 'Maria@Example.co' }, [
      'nid',
      'first_name',
      'email',
    ]);
    expect(body).toEqual({ nid: '52123456', first_name: 'MARÍA JOSÉ', email: 'Maria@Example.co' });
  });

  it('sends exactly the contact fields of 01 §7', () => {
    expect(Object.keys(toPatientBody(valid, CONTACT_FIELDS)).sort()).toEqual([
      'address',
      'cellphone',
      'city_id',
      'email',
      'neighborhood',
      'prefix',
    ]);
  });

  it('clears insurer and regime outside Colombia', () => {
    expect(toPatientBody({ ...valid, country_id: 8, eapb_id: 3, regime: 1 }, BASIC_FIELDS)).toMatchObject({ eapb_id: null, regime: null });
    expect(toPatientBody({ ...valid, eapb_id: 3, regime: 1 }, BASIC_FIELDS)).toMatchObject({ eapb_id: 3, regime: 1 });
  });

  it('sends the RDA data with the basic data: codes as chosen, no disability as an empty list (issue 51)', () => {
    const body = toPatientBody(
      { ...valid, biological_sex: '02', nationality: '170', ethnicity: '1', ethnic_community: ' wayuu ' },
      RDA_FIELDS,
    );
    expect(body).toEqual({
      biological_sex: '02',
      gender_identity: null,
      residence_zone: null,
      nationality: '170',
      ethnicity: '1',
      ethnic_community: 'WAYUU',
      disabilities: [],
    });
    expect(Object.keys(toPatientBody(valid, BASIC_FIELDS))).toEqual(expect.arrayContaining(RDA_FIELDS));
  });

  it('drops the ethnic community without an ethnic group', () => {
    expect(toPatientBody({ ...valid, ethnicity: null, ethnic_community: 'WAYUU' }, RDA_FIELDS).ethnic_community).toBeNull();
  });

  it('defaults the birth date to yesterday', () => {
    expect(yesterday(new Date(2026, 0, 1, 10))).toBe('2025-12-31');
  });
});

describe("'Sin discapacidad' stands alone (issue 51)", () => {
  it.each([
    [[], ['01'], ['01']],
    [['01'], ['01', '03'], ['01', '03']],
    [['01', '03'], ['01', '03', NO_DISABILITY], [NO_DISABILITY]],
    [[NO_DISABILITY], [NO_DISABILITY, '02'], ['02']],
    [[], [NO_DISABILITY], [NO_DISABILITY]],
    [['02', '05'], ['05'], ['05']],
  ])('%j then %j → %j', (previous, next, kept) => {
    expect(exclusiveDisabilities(previous, next)).toEqual(kept);
  });
});

describe('missing-data badges (01 §2)', () => {
  it.each([
    [{ cellphone: null, email: null, address: null }, ['Teléfono Incompleto', 'Email Incompleto', 'Dirección incompleta']],
    [{ cellphone: '3001234567', email: 'a@b.co', address: 'CALLE 1' }, []],
    [{ cellphone: '3001234567', email: null, address: 'CALLE 1' }, ['Email Incompleto']],
  ])('%j → %j', (p, badges) => {
    expect(missingBadges(p)).toEqual(badges);
  });
});
