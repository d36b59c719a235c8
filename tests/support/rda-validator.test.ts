import { beforeAll, describe, expect, it } from 'vitest';
import { guideDisplay, RDA, rdaErrors, rdaProfile, undiscriminatedSlices, validateRda, type Json } from './rda-validator';

/**
 * The harness proves itself: a valid PatientRDA gives no error, and each mutation gives the issue
 * it must (one per kind of rule medplum misses: plan §4.3 V1, V4, V5, V7, V8, and plain
 * cardinality/fixed values). The whole-document cases are in api/src/modules/fhir/rda.rules.test.ts.
 */

const cs = (name: string) => `${RDA}CodeSystem/${name}`;

function validPatient(): Json {
  return {
    resourceType: 'Patient',
    id: 'p1',
    meta: { profile: [rdaProfile('PatientRDA')] },
    identifier: [
      {
        id: 'NationalPersonIdentifier-0',
        use: 'official',
        type: {
          coding: [
            { system: 'http://terminology.hl7.org/CodeSystem/v2-0203', code: 'PN', display: 'Person number' },
            {
              system: cs('ColombianPersonIdentifier'),
              code: 'CC',
              display: guideDisplay('CodeSystem-ColombianPersonIdentifier.json', 'CC'),
            },
          ],
        },
        system: `${RDA}NamingSystem/RNEC`,
        value: '52123456',
      },
    ],
    active: true,
    name: [{ use: 'official', family: 'Rodríguez', given: ['Ana', 'María'] }],
    gender: 'female',
    _gender: {
      extension: [
        {
          url: rdaProfile('ExtensionBiologicalGender'),
          valueCoding: {
            system: cs('ColombianGenderGroup'),
            code: '02',
            display: guideDisplay('CodeSystem-ColombianGenderGroup.json', '02'),
          },
        },
      ],
    },
    birthDate: '1950-03-14',
    address: [
      {
        id: 'HomeAddress-0',
        extension: [
          {
            url: rdaProfile('ExtensionResidenceZone'),
            valueCoding: {
              system: cs('ColombianResidenceZone'),
              code: '01',
              display: guideDisplay('CodeSystem-ColombianResidenceZone.json', '01'),
            },
          },
        ],
        use: 'home',
        type: 'physical',
        city: 'Bogotá, D.C.',
        country: 'Colombia',
        _country: {
          extension: [
            {
              url: rdaProfile('ExtensionCountryCode'),
              valueCoding: { system: cs('ISO31661'), code: '170', display: guideDisplay('CodeSystem-ISO31661.json', '170') },
            },
          ],
        },
      },
    ],
  };
}

const errorsOf = (p: Json) => rdaErrors(validateRda(p, rdaProfile('PatientRDA')));

beforeAll(() => {
  validateRda(validPatient(), rdaProfile('PatientRDA')); // loads the definitions once (~5 s)
}, 60_000);

describe('the walker over the whole guide', () => {
  it('can tell every value/pattern slice of the 60 profiles apart (none would go unchecked)', () => {
    expect(undiscriminatedSlices()).toEqual([]);
  });
});

describe('validateRda (PatientRDA)', () => {
  it('gives no error on a valid patient', () => {
    expect(errorsOf(validPatient())).toEqual([]);
  });

  const cases: { name: string; mutate: (p: Json) => void; path: string; message: RegExp }[] = [
    {
      name: 'a missing required element (birthDate 1..1)',
      mutate: (p) => delete p.birthDate,
      path: 'Patient.birthDate',
      message: /^Falta Patient.birthDate/,
    },
    {
      name: 'a forbidden element (telecom 0..0)',
      mutate: (p) => (p.telecom = [{ system: 'phone', value: '3001234567' }]),
      path: 'Patient.telecom',
      message: /no se admite/,
    },
    {
      name: 'a wrong fixed value (address.use home)',
      mutate: (p) => (p.address[0].use = 'work'),
      path: 'Patient.address[0].use',
      message: /debe ser "home"/,
    },
    {
      name: 'a wrong pattern in a slice (identifier system RNEC)',
      mutate: (p) => (p.identifier[0].system = 'urn:x'),
      path: 'Patient.identifier[0].system',
      message: /debe ser/,
    },
    {
      name: 'a code outside a guide required binding (document type ZZ)',
      mutate: (p) => (p.identifier[0].type.coding[1].code = 'ZZ'),
      path: 'Patient.identifier[0].type.coding[1]',
      message: /ColombianPersonIdentifierCodes \(required\)/,
    },
    {
      name: 'a code outside a base required binding (gender xx, V7)',
      mutate: (p) => (p.gender = 'xx'),
      path: 'Patient.gender',
      message: /administrative-gender \(required\)/,
    },
    {
      name: 'a missing required extension slice (residence zone, V4)',
      mutate: (p) => delete p.address[0].extension,
      path: 'Patient.address[0].extension',
      message: /slice 'ExtensionResidenceZone'/,
    },
    {
      name: 'a missing required extension on a primitive (biological sex, V5)',
      mutate: (p) => delete p._gender,
      path: 'Patient.gender.extension',
      message: /slice 'ExtensionBiologicalGender'/,
    },
    {
      name: 'a missing required nested slice (ColombianCode, V4)',
      mutate: (p) => p.identifier[0].type.coding.pop(),
      path: 'Patient.identifier[0].type.coding',
      message: /slice 'ColombianCode'/,
    },
    {
      name: 'a slice without its required content (given 1..2 in OfficialPatientName, V8)',
      mutate: (p) => delete p.name[0].given,
      path: 'Patient.name[0].given',
      message: /^Falta/,
    },
    {
      name: 'an extension value outside its binding (zone 99)',
      mutate: (p) => (p.address[0].extension[0].valueCoding.code = '99'),
      path: 'Patient.address[0].extension[0].value',
      message: /ColombianResidenceZoneCodes/,
    },
    {
      name: 'a second profile in meta.profile (V1, item by item)',
      mutate: (p) => p.meta.profile.push(rdaProfile('PractitionerRDA')),
      path: 'Patient.meta.profile[1]',
      message: /debe ser/,
    },
    { name: 'a malformed date (medplum)', mutate: (p) => (p.birthDate = '14/03/1950'), path: 'Patient.birthDate', message: /./ },
  ];

  it.each(cases)('reports $name', ({ mutate, path, message }) => {
    const p = validPatient();
    mutate(p);
    const errors = errorsOf(p);
    expect(
      errors.filter((e) => e.path === path && message.test(e.message)),
      JSON.stringify(errors, null, 1),
    ).not.toEqual([]);
  });
});
