import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  RDA_PERSON_ID_TYPES,
  canResendRda,
  rdaWaitsForEarlier,
  organizationGaps,
  patientGaps,
  practitionerGaps,
  rdaComplete,
  rdaGaps,
  siteGaps,
  splitSurnames,
  type RdaOrganization,
  type RdaPatient,
  type RdaPractitioner,
} from './rda';

const organization: RdaOrganization = {
  id: 7,
  country_id: 26,
  nit: '900123456',
  reps_code: '1100100001',
  provider_class: 'IPS',
  address: 'CARRERA 7 # 32-16',
  city_id: 2611001,
};
const practitioner: RdaPractitioner = { id: 3, id_type: 1, nid: '52123456', profession: '003', rethus_number: 'RM-12345' };
const patient: RdaPatient = {
  id: 11,
  country_id: 26,
  city_id: 2611001,
  biological_sex: '02',
  residence_zone: '01',
  nationality: '170',
  ethnicity: '6',
  disabilities: ['08'],
  eapb_id: 2,
};
const fields = (gaps: Array<{ field: string; message: string; required: boolean }>) => gaps.map((g) => [g.field, g.message, g.required]);

describe('organizationGaps (CareDeliveryOrganizationRDA: identifier 2..2, ProviderClass 1..1, work address 1..1)', () => {
  it('finds nothing missing in a complete provider', () => expect(organizationGaps(organization)).toEqual([]));

  it.each([
    [{ nit: null }, 'nit', 'Falta el NIT del prestador'],
    [{ nit: '  ' }, 'nit', 'Falta el NIT del prestador'],
    [{ reps_code: null }, 'reps_code', 'Falta el código REPS del prestador'],
    [{ provider_class: null }, 'provider_class', 'Falta la clase de prestador'],
    [{ address: null }, 'address', 'Falta la dirección del prestador'],
    [{ city_id: null }, 'city_id', 'Falta el municipio del prestador'],
    [{ country_id: 8 }, 'country_id', 'El RDA aplica solo a prestadores de Colombia'],
  ])('%j → %s: %s (required)', (change, field, message) => {
    expect(fields(organizationGaps({ ...organization, ...change }))).toEqual([[field, message, true]]);
  });

  it('lists every gap of an empty provider, with its id for the link', () => {
    const gaps = organizationGaps({
      id: 7,
      country_id: 26,
      nit: null,
      reps_code: null,
      provider_class: null,
      address: null,
      city_id: null,
    });
    expect(gaps.map((g) => g.field)).toEqual(['nit', 'reps_code', 'provider_class', 'address', 'city_id']);
    expect(gaps.every((g) => g.record === 'organization' && g.id === 7 && g.required)).toBe(true);
  });
});

describe('siteGaps (CareDeliveryLocationRDA: identifier REPS 1..1)', () => {
  it.each([
    [{ id: 1, name: 'SEDE NORTE', reps_site_code: '110010000101' }, []],
    [{ id: 1, name: 'SEDE NORTE', reps_site_code: null }, [['reps_site_code', 'Falta el código REPS de la sede SEDE NORTE', true]]],
  ])('%j → %j', (site, expected) => expect(fields(siteGaps(site))).toEqual(expected));
});

describe('practitionerGaps (PractitionerRDA: NationalPersonIdentifier 1..1, qualification 1..* with RETHUS code and number)', () => {
  it('finds nothing missing in a complete practitioner', () => expect(practitionerGaps(practitioner, 'CC')).toEqual([]));

  it.each([
    [{ id_type: null, nid: null }, null, 'nid', 'Falta el documento de identidad del profesional'],
    [{ nid: null }, 'CC', 'nid', 'Falta el documento de identidad del profesional'],
    [{ id_type: 12 }, 'DE', 'id_type', 'El RDA no admite el tipo de documento DE del profesional'],
    [{ id_type: 8 }, 'NU', 'id_type', 'El RDA no admite el tipo de documento NU del profesional'],
    [{ profession: null }, 'CC', 'profession', 'Falta la profesión (RETHUS) del profesional'],
    [{ rethus_number: null }, 'CC', 'rethus_number', 'Falta el número de registro RETHUS del profesional'],
  ] as const)('%j (type %s) → %s: %s', (change, code, field, message) => {
    expect(fields(practitionerGaps({ ...practitioner, ...change }, code))).toEqual([[field, message, true]]);
  });
});

describe('patientGaps (PatientRDA)', () => {
  it('finds nothing missing in a complete patient', () => expect(patientGaps(patient, 'CC')).toEqual([]));

  it.each([
    // required by the profile: block the RDA
    [{}, 'DE', 'id_type', 'El RDA no admite el tipo de documento DE del paciente', true],
    [{}, 'DNI', 'id_type', 'El RDA no admite el tipo de documento DNI del paciente', true],
    [{}, null, 'id_type', 'El RDA no admite el tipo de documento del paciente', true],
    [{ city_id: null }, 'CC', 'city_id', 'Falta el municipio de residencia del paciente', true],
    [{ residence_zone: null }, 'CC', 'residence_zone', 'Falta la zona de residencia del paciente', true],
    [{ biological_sex: null }, 'CC', 'biological_sex', 'Falta el sexo biológico del paciente', true],
    // optional in the profile, asked for by the issue: listed, not blocking
    [{ nationality: null }, 'CC', 'nationality', 'Falta la nacionalidad del paciente', false],
    [{ ethnicity: null }, 'CC', 'ethnicity', 'Falta la etnia del paciente', false],
    [{ disabilities: [] }, 'CC', 'disabilities', 'Falta indicar si el paciente tiene una discapacidad (o «Sin discapacidad»)', false],
    [{ eapb_id: null }, 'CC', 'eapb_id', 'Falta la aseguradora (EAPB) del paciente', false],
  ] as const)('%j (type %s) → %s: %s', (change, code, field, message, required) => {
    expect(fields(patientGaps({ ...patient, ...change } as RdaPatient, code))).toEqual([[field, message, required]]);
  });

  it('asks no insurer of a patient outside Colombia', () => {
    expect(patientGaps({ ...patient, country_id: 8, eapb_id: null }, 'PA')).toEqual([]);
  });
});

describe('rdaGaps / rdaComplete', () => {
  const parties = { organization, practitioner, practitionerIdTypeCode: 'CC', patient, patientIdTypeCode: 'CC' };

  it('is complete with nothing missing, and with only optional data missing', () => {
    expect(rdaGaps(parties)).toEqual([]);
    const optional = rdaGaps({ ...parties, patient: { ...patient, ethnicity: null, nationality: null } });
    expect(optional).toHaveLength(2);
    expect(rdaComplete(optional)).toBe(true);
  });

  it('lists provider, sede, practitioner then patient, and is incomplete while one is required', () => {
    const gaps = rdaGaps({
      ...parties,
      organization: { ...organization, reps_code: null },
      site: { id: 4, name: 'SEDE SUR', reps_site_code: null },
      practitioner: { ...practitioner, profession: null },
      patient: { ...patient, residence_zone: null, ethnicity: null },
    });
    expect(gaps.map((g) => [g.record, g.message])).toEqual([
      ['organization', 'Falta el código REPS del prestador'],
      ['site', 'Falta el código REPS de la sede SEDE SUR'],
      ['practitioner', 'Falta la profesión (RETHUS) del profesional'],
      ['patient', 'Falta la zona de residencia del paciente'],
      ['patient', 'Falta la etnia del paciente'],
    ]);
    expect(rdaComplete(gaps)).toBe(false);
  });
});

describe('RDA_PERSON_ID_TYPES', () => {
  it('is the guide ValueSet ColombianPersonIdentifierCodes (15 codes)', () => {
    const guide = process.env.VIGIA_RDA_GUIDE ?? path.resolve(import.meta.dirname, '../../../shared/fhir/rda-0.7.1');
    const vs = JSON.parse(readFileSync(path.join(guide, 'ValueSet-ColombianPersonIdentifierCodes.json'), 'utf8')) as {
      compose: { include: Array<{ concept: Array<{ code: string }> }> };
    };
    expect([...RDA_PERSON_ID_TYPES].sort()).toEqual(vs.compose.include.flatMap((i) => i.concept.map((c) => c.code)).sort());
  });
});

describe('splitSurnames (FathersFamilyName 1..1, MothersFamilyName 0..1 from last_name)', () => {
  it.each([
    ['GÓMEZ RUIZ', 'GÓMEZ', 'RUIZ'],
    ['PÉREZ', 'PÉREZ', null],
    ['DE LA HOZ PÉREZ', 'DE LA HOZ', 'PÉREZ'],
    ['GARCÍA DE LA CRUZ', 'GARCÍA', 'DE LA CRUZ'],
    ['DEL CASTILLO', 'DEL CASTILLO', null],
    ['  RÍOS   PEÑA ', 'RÍOS', 'PEÑA'],
    ['PÉREZ GÓMEZ RUIZ', 'PÉREZ', 'GÓMEZ RUIZ'],
  ])('%j → %s + %s', (lastName, father, mother) => expect(splitSurnames(lastName)).toEqual({ father, mother }));
});

describe('canResendRda', () => {
  it.each([
    ['sin_enviar', true],
    ['pendiente', true],
    ['rechazado', true],
    ['enviado', false],
    ['corregido', false],
  ])("'Reenviar' from %s: %s", (status, allowed) => {
    expect(canResendRda(status)).toBe(allowed);
  });
});

describe('rdaWaitsForEarlier', () => {
  // Each row: a document's status, whether it corrects another, its next try → waiting for the earlier version.
  it.each<[string, number | null, string | null, boolean]>([
    ['pendiente', 7, null, true],
    ['pendiente', 7, '2026-12-05T15:00:00.000Z', false],
    ['pendiente', null, null, false],
    ['rechazado', 7, null, false],
    ['sin_enviar', 7, null, false],
  ])('%s, replaces %s, next try %s: %s', (status, replaces_id, next_attempt_at, waits) => {
    expect(rdaWaitsForEarlier({ status, replaces_id, next_attempt_at })).toBe(waits);
  });
});
