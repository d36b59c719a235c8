import { describe, expect, it } from 'vitest';
import {
  compositionFor,
  conditionFor,
  detectedIssueFor,
  deviceFor,
  groupFor,
  medicationRequestFor,
  observationFor,
  patientFor,
  relatedPersonFor,
  serviceRequestFor,
  type FhirOrderRow,
} from './fhir.mappers.js';

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

const order: FhirOrderRow = {
  id: 21,
  patient_id: 7,
  order_type: 1,
  status: 1,
  permanent: false,
  clinical_element: null,
  medicine_id: 40,
  medicine_name: 'Losartán',
  medicine_presentation: 'Tableta 50 mg',
  frecuency: 12,
  time_unit: 0,
  during: 10,
  amount: '1 1/2',
  medication_unit: 3,
  frequency_type: null,
  days: [],
  hours: [],
  start_at: new Date('2026-11-02T13:00:00Z'),
  to_human: 'Tomar 1 1/2 tableta(s) de Losartán cada 12 horas durante 10 días',
  created_at: new Date('2026-11-01T09:00:00Z'),
  updated_at: new Date('2026-11-02T09:00:00Z'),
};

describe('medicationRequestFor', () => {
  it('maps a medication order to a MedicationRequest with its medicine, dose and frequency', () => {
    expect(medicationRequestFor(order)).toEqual({
      resourceType: 'MedicationRequest',
      id: 'x21',
      meta: { lastUpdated: '2026-11-02T09:00:00.000Z' },
      identifier: [{ system: 'urn:vigia:order', value: '21' }],
      status: 'active',
      intent: 'order',
      medicationCodeableConcept: {
        coding: [{ system: 'urn:vigia:medicine', code: '40', display: 'Losartán' }],
        text: 'Losartán Tableta 50 mg',
      },
      subject: { reference: 'Patient/p7' },
      authoredOn: '2026-11-01T09:00:00.000Z',
      dosageInstruction: [
        {
          text: 'Tomar 1 1/2 tableta(s) de Losartán cada 12 horas durante 10 días.',
          timing: {
            repeat: {
              boundsPeriod: { start: '2026-11-02T13:00:00.000Z', end: '2026-11-12T13:00:00.000Z' },
              frequency: 1,
              period: 12,
              periodUnit: 'h',
            },
          },
          doseAndRate: [{ doseQuantity: { value: 1.5, unit: 'tableta(s)' } }],
        },
      ],
    });
  });

  // The order status enumeration of the contract (ORDER_STATUS) → MedicationRequest.status.
  it.each([
    [0, 'draft'],
    [1, 'active'],
    [2, 'active'],
    [3, 'cancelled'],
    [4, 'completed'],
    [9, 'unknown'],
  ])('status %i → %s', (status, want) => expect(medicationRequestFor({ ...order, status }).status).toBe(want));

  it('gives a permanent order an open period, and an unscheduled one its duration', () => {
    const permanent = medicationRequestFor({ ...order, permanent: true, to_human: 'Tomar 1 tableta(s) de X cada 1 días durante 3 días' });
    const [d] = permanent.dosageInstruction as Array<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any -- FHIR JSON read in assertions
    expect(d.timing.repeat.boundsPeriod).toEqual({ start: '2026-11-02T13:00:00.000Z' });
    expect(d.text).toBe('Tomar 1 tableta(s) de X cada 1 días, por tiempo indefinido.');
    const unscheduled = medicationRequestFor({ ...order, start_at: null, time_unit: 1, frecuency: 2 });
    const [u] = unscheduled.dosageInstruction as Array<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any -- FHIR JSON read in assertions
    expect(u.timing.repeat).toEqual({
      boundsDuration: { value: 10, unit: 'd', system: 'http://unitsofmeasure.org', code: 'd' },
      frequency: 1,
      period: 2,
      periodUnit: 'd',
    });
  });
});

describe('serviceRequestFor', () => {
  const measurement: FhirOrderRow = {
    ...order,
    id: 22,
    order_type: 0,
    medicine_id: null,
    medicine_name: null,
    medicine_presentation: null,
    frecuency: null,
    time_unit: null,
    amount: null,
    medication_unit: null,
    clinical_element: 3,
    frequency_type: 1,
    during: 2,
    days: [1, 4],
    hours: ['08:00', '20:00'],
    to_human: 'Medir Presión arterial los días lunes, jueves a las 08:00, 20:00 durante 2 semanas',
  };

  it('maps a blood-pressure order to a ServiceRequest coded with the panel, on its weekdays and hours', () => {
    expect(serviceRequestFor(measurement)).toEqual({
      resourceType: 'ServiceRequest',
      id: 's22',
      meta: { lastUpdated: '2026-11-02T09:00:00.000Z' },
      identifier: [{ system: 'urn:vigia:order', value: '22' }],
      status: 'active',
      intent: 'order',
      code: {
        coding: [{ system: 'http://loinc.org', code: '85354-9', display: 'Blood pressure panel with all children optional' }],
        text: 'Presión arterial',
      },
      subject: { reference: 'Patient/p7' },
      occurrenceTiming: {
        repeat: {
          // Weekly: two weeks are 14 days.
          boundsPeriod: { start: '2026-11-02T13:00:00.000Z', end: '2026-11-16T13:00:00.000Z' },
          dayOfWeek: ['mon', 'thu'],
          timeOfDay: ['08:00:00', '20:00:00'],
        },
      },
      authoredOn: '2026-11-01T09:00:00.000Z',
      patientInstruction: 'Medir Presión arterial los días lunes, jueves a las 08:00, 20:00 durante 2 semanas.',
    });
  });

  it.each([
    [1, ['8867-4']],
    [2, ['59408-5', '2708-6']],
    [6, ['2339-0']],
  ])('codes element %i with its LOINC as observationFor does: %j', (element, codes) => {
    const code = serviceRequestFor({ ...measurement, clinical_element: element, frequency_type: 0 }).code as {
      coding: Array<{ code: string }>;
    };
    expect(code.coding.map((c) => c.code)).toEqual(codes);
  });

  it.each([
    [0, 'draft'],
    [2, 'active'],
    [3, 'revoked'],
    [4, 'completed'],
  ])('status %i → %s', (status, want) => expect(serviceRequestFor({ ...measurement, status }).status).toBe(want));

  it('leaves dayOfWeek out of a daily order', () => {
    const r = serviceRequestFor({ ...measurement, frequency_type: 0, days: [0, 1, 2, 3, 4, 5, 6] });
    expect((r.occurrenceTiming as { repeat: object }).repeat).not.toHaveProperty('dayOfWeek');
  });
});

describe('observationFor and detectedIssueFor (issue 49)', () => {
  const reading = { id: 31, clinical_element: 1, value: 72, when: new Date('2026-11-21T13:00:00Z') };
  const stored = new Date('2026-11-21T13:00:02.345Z');
  const subject = {
    reference: 'Patient/p7',
    identifier: { type: { text: 'Cédula de ciudadanía' }, system: 'urn:vigia:id-type:CO:CC', value: '1020304050' },
    display: 'Ana Pérez',
  };

  it('names the patient by the literal Patient/p<n> reference every type gives, with the document and name', () => {
    const obs = observationFor([reading], row, stored);
    expect(obs.subject).toEqual(subject);
    expect(obs.issued).toBe('2026-11-21T13:00:02.345Z');
    expect(obs).not.toHaveProperty('meta');
    const issue = detectedIssueFor({ id: 5, alert_type: 0, priority: 1, description: null, created_at: stored }, row, obs);
    expect(issue.patient).toEqual(subject);
    expect((issue.contained as Array<{ subject: object }>)[0].subject).toEqual(subject);
  });

  it('a pulled Observation differs from a pushed one only by meta', () => {
    const { meta, ...rest } = observationFor([reading], row, stored, { lastUpdated: stored });
    expect(meta).toEqual({ lastUpdated: '2026-11-21T13:00:02.345Z' });
    expect(rest).toEqual(observationFor([reading], row, stored));
  });
});

describe('compositionFor (issue 51)', () => {
  const composition = {
    resourceType: 'Composition',
    id: '1b4e28ba-2fa1-41d2-883f-0016d3cca427',
    meta: { profile: ['https://fhir.minsalud.gov.co/rda/StructureDefinition/CompositionAmbulatoryRDA'] },
    status: 'final',
    type: { coding: [{ system: 'http://loinc.org', code: '51845-6' }] },
    subject: { reference: 'urn:uuid:5b4e28ba-2fa1-41d2-883f-0016d3cca427' },
    date: '2026-11-10T15:00:00.000Z',
    title: 'RDA',
  };
  const bundle = { resourceType: 'Bundle', type: 'document', entry: [{ fullUrl: `urn:uuid:${composition.id}`, resource: composition }] };

  it('is the document’s first entry, named rda<first version>, with the version’s meta and the literal patient reference', () => {
    const c = compositionFor({ id: 12, patient_id: 7, version: 2, created_at: new Date('2026-11-25T15:00:00Z'), bundle });
    expect(c).toEqual({
      ...composition,
      id: 'rda12',
      meta: { profile: composition.meta.profile, versionId: '2', lastUpdated: '2026-11-25T15:00:00.000Z' },
      subject: { reference: 'Patient/p7' },
    });
    expect(Object.keys(c!)).toEqual(Object.keys(composition));
    expect(bundle.entry[0].resource.id).toBe('1b4e28ba-2fa1-41d2-883f-0016d3cca427');
  });

  it.each([
    ['no entries', { resourceType: 'Bundle', entry: [] }],
    ['no entry list', { resourceType: 'Bundle' }],
    ['another first entry', { resourceType: 'Bundle', entry: [{ resource: { resourceType: 'Patient' } }] }],
  ])('answers null for a kept Bundle with %s', (_name, bundle) => {
    expect(compositionFor({ id: 1, patient_id: 7, version: 1, created_at: new Date(), bundle })).toBeNull();
  });
});
