import { describe, expect, it } from 'vitest';
import { conditionFor, deviceFor, groupFor, patientFor, relatedPersonFor } from './fhir.mappers.js';

const row = {
  id: 7,
  nid: '1020304050',
  id_type_code: 'CC',
  id_type_name: 'Cédula de ciudadanía',
  country_code: 'CO',
  display: 'Ana Pérez',
  first_name: 'Ana',
  last_name: 'Pérez',
  birth_date: '1950-03-02',
  gender: 0,
  status: 1,
  updated_at: new Date('2026-11-28T10:00:00Z'),
};

describe('patientFor', () => {
  it('maps a patient row to a FHIR Patient identified by its document', () => {
    expect(patientFor(row)).toEqual({
      resourceType: 'Patient',
      id: 'p7',
      meta: { lastUpdated: '2026-11-28T10:00:00.000Z' },
      identifier: [{ type: { text: 'Cédula de ciudadanía' }, system: 'urn:vigia:id-type:CO:CC', value: '1020304050' }],
      active: true,
      name: [{ family: 'Pérez', given: ['Ana'], text: 'Ana Pérez' }],
      gender: 'female',
      birthDate: '1950-03-02',
    });
  });

  it.each([
    [0, 1, false, 'male', undefined],
    [3, 2, true, 'other', true],
  ])('status %i gender %i → active %s, gender %s, deceased %s', (status, gender, active, fhirGender, deceased) => {
    const p = patientFor({ ...row, status, gender });
    expect(p.active).toBe(active);
    expect(p.gender).toBe(fhirGender);
    expect(p.deceasedBoolean).toBe(deceased);
  });
});

describe('groupFor', () => {
  const tag = { id: 3, name: 'Hipertensos', updated_at: new Date('2026-11-01T00:00:00Z') };

  it('maps a tag and its patients to an actual Group of persons referencing each Patient', () => {
    expect(groupFor(tag, [7, 9])).toEqual({
      resourceType: 'Group',
      id: 'g3',
      meta: { lastUpdated: '2026-11-01T00:00:00.000Z' },
      type: 'person',
      actual: true,
      name: 'Hipertensos',
      quantity: 2,
      member: [{ entity: { reference: 'Patient/p7' } }, { entity: { reference: 'Patient/p9' } }],
    });
  });

  it('leaves member out of a tag nobody carries (FHIR forbids empty arrays)', () => {
    const g = groupFor(tag, []);
    expect(g.quantity).toBe(0);
    expect(g).not.toHaveProperty('member');
  });
});

describe('conditionFor', () => {
  const row = {
    id: 5,
    patient_id: 7,
    name: 'Hipertensión esencial',
    icd10: 'I10',
    notes: null,
    active: 1,
    start_date: new Date('2020-01-01T00:00:00Z'),
    end_date: new Date('2025-01-01T00:00:00Z'),
    updated_at: new Date('2026-11-01T00:00:00Z'),
  };

  it('maps an active condition to an ICD-10 coded problem-list Condition of its Patient, without abatement', () => {
    expect(conditionFor(row)).toEqual({
      resourceType: 'Condition',
      id: 'c5',
      meta: { lastUpdated: '2026-11-01T00:00:00.000Z' },
      clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' }] },
      category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-category', code: 'problem-list-item' }] }],
      code: { coding: [{ system: 'http://hl7.org/fhir/sid/icd-10', code: 'I10' }], text: 'Hipertensión esencial' },
      subject: { reference: 'Patient/p7' },
      onsetDateTime: '2020-01-01T00:00:00.000Z',
    });
  });

  it('marks an inactive condition resolved with its end as abatement, and keeps an uncoded type as text', () => {
    const c = conditionFor({ ...row, active: false, icd10: null, notes: 'Controlada' });
    expect(c.clinicalStatus).toEqual({
      coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'resolved' }],
    });
    expect(c.abatementDateTime).toBe('2025-01-01T00:00:00.000Z');
    expect(c.code).toEqual({ text: 'Hipertensión esencial' });
    expect(c.note).toEqual([{ text: 'Controlada' }]);
  });
});

describe('relatedPersonFor', () => {
  const caregiver = {
    patient_id: 7,
    caregiver_id: 2,
    nid: '555',
    id_type_code: 'CC',
    id_type_name: 'Cédula de ciudadanía',
    country_code: 'CO',
    display: 'Luis Pérez',
    first_name: 'Luis',
    last_name: 'Pérez',
    relationship: 'Hijo',
    email: 'luis@example.com',
    prefix: '57',
    cellphone: '3001234567',
    updated_at: new Date('2026-11-01T00:00:00Z'),
  };

  it("maps a caregiver link to a RelatedPerson of that patient, with the caregiver's document, phone and e-mail", () => {
    expect(relatedPersonFor(caregiver)).toEqual({
      resourceType: 'RelatedPerson',
      id: 'r7-2',
      meta: { lastUpdated: '2026-11-01T00:00:00.000Z' },
      identifier: [{ type: { text: 'Cédula de ciudadanía' }, system: 'urn:vigia:id-type:CO:CC', value: '555' }],
      active: true,
      patient: { reference: 'Patient/p7' },
      relationship: [{ text: 'Hijo' }],
      name: [{ family: 'Pérez', given: ['Luis'], text: 'Luis Pérez' }],
      telecom: [
        { system: 'phone', value: '+57 3001234567', use: 'mobile' },
        { system: 'email', value: 'luis@example.com' },
      ],
    });
  });

  it('leaves out relationship and telecom when there are none', () => {
    const r = relatedPersonFor({ ...caregiver, relationship: null, email: null, cellphone: null });
    expect(r).not.toHaveProperty('relationship');
    expect(r).not.toHaveProperty('telecom');
  });
});

describe('deviceFor', () => {
  const device = { id: 4, card_id: 'CARD-1', name: 'Casa', multipatient: 0, patient_id: 7, updated_at: new Date('2026-11-01T00:00:00Z') };

  it('maps a single-patient gateway to a Device identified by its card, with its patient', () => {
    expect(deviceFor(device)).toEqual({
      resourceType: 'Device',
      id: 'd4',
      meta: { lastUpdated: '2026-11-01T00:00:00.000Z' },
      identifier: [{ system: 'urn:vigia:card', value: 'CARD-1' }],
      status: 'active',
      deviceName: [{ name: 'Casa', type: 'user-friendly-name' }],
      type: { text: 'Pasarela' },
      patient: { reference: 'Patient/p7' },
    });
  });

  it('gives a multi-patient gateway no patient and an unnamed one no deviceName', () => {
    const d = deviceFor({ ...device, multipatient: true, name: null });
    expect(d).not.toHaveProperty('patient');
    expect(d).not.toHaveProperty('deviceName');
    expect(d.type).toEqual({ text: 'Pasarela multipaciente' });
  });
});
