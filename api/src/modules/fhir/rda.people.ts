import { patientFor } from './fhir.mappers';
import {
  coding,
  extension,
  meta,
  rdaNaming,
  rdaSystem,
  V2_0203,
  type Json,
  type RdaCoded,
  type RdaPatient,
  type RdaPractitioner,
} from './rda.profiles';

/**
 * PatientRDA and PractitionerRDA. The patient is the base mapping (patientFor, the FHIR API's
 * Patient) with the national profile's elements on top; the base's own identifier (a Vigía URN)
 * gives way to the national document, and what PatientRDA forbids (telecom, contact, address
 * lines) the base never sends. Vigía has no Practitioner in its FHIR API: built here whole.
 */

/** Our Gender (0 Femenino, 1 Masculino, 2 Otro), as patientFor reads it. */
const ADMINISTRATIVE_GENDER: Record<number, string> = { 0: 'female', 1: 'male', 2: 'other' };

/** The document as both profiles slice it: id NationalPersonIdentifier-0, PN + the Colombian type, RNEC. */
function nationalIdentifier(type: RdaCoded, value: string): Json {
  return {
    id: 'NationalPersonIdentifier-0',
    use: 'official',
    type: { coding: [{ system: V2_0203, code: 'PN', display: 'Person number' }, coding(rdaSystem('ColombianPersonIdentifier'), type)] },
    system: rdaNaming('RNEC'),
    value,
  };
}

/** Given names as the profile takes them: 'Ana María Luisa' → ['Ana', 'María Luisa'] (PatientRDA allows at most 2). */
export function splitGiven(names: string): string[] {
  const parts = names.trim().split(/\s+/).filter(Boolean);
  return parts.length <= 2 ? parts : [parts[0], parts.slice(1).join(' ')];
}

/** family and its _family extensions: the surnames when they are known apart. */
function familyOf(family: string, first?: string, second?: string): Json {
  const ext = [
    ...(first ? [extension('ExtensionFathersFamilyName', { valueString: first })] : []),
    ...(second ? [extension('ExtensionMothersFamilyName', { valueString: second })] : []),
  ];
  return { family, ...(ext.length ? { _family: { extension: ext } } : {}) };
}

const divipola = (name: string, c?: RdaCoded): Json =>
  c ? { extension: [extension(name, { valueCoding: coding(rdaSystem('DIVIPOLA'), c) })] } : {};

export function rdaPatient(p: RdaPatient, id: string): Json {
  const base = patientFor(p.row);
  const ext: Json[] = [
    ...(p.nationalities ?? []).map((n) => extension('ExtensionPatientNationality', { valueCoding: coding(rdaSystem('ISO31661'), n) })),
    ...(p.ethnicity
      ? [extension('ExtensionPatientEthnicity', { valueCoding: coding(rdaSystem('ColombianEthnicGroup'), p.ethnicity) })]
      : []),
    ...(p.ethnicCommunity ? [extension('ExtensionPatientEthnicCommunity', { valueString: p.ethnicCommunity })] : []),
    ...(p.disabilities ?? []).map((d) =>
      extension('ExtensionPatientDisability', { valueCoding: coding(rdaSystem('ColombianDisabilityClassification'), d) }),
    ),
    ...(p.genderIdentity
      ? [extension('ExtensionPatientGenderIdentity', { valueCoding: coding(rdaSystem('ColombianGenderIdentity'), p.genderIdentity) })]
      : []),
  ];
  const city = divipola('ExtensionDivipolaMunicipality', p.city.divipola);
  const gender = ADMINISTRATIVE_GENDER[p.row.gender];
  return {
    ...base,
    id,
    meta: { ...(base.meta as Json), ...meta('PatientRDA') },
    ...(ext.length ? { extension: ext } : {}),
    identifier: [nationalIdentifier(p.documentType, p.row.nid)],
    name: [
      {
        use: 'official',
        ...familyOf(p.row.last_name, p.firstSurname, p.secondSurname),
        given: splitGiven(p.row.first_name),
        text: p.row.display,
      },
    ],
    ...(gender && p.sex
      ? {
          _gender: {
            extension: [extension('ExtensionBiologicalGender', { valueCoding: coding(rdaSystem('ColombianGenderGroup'), p.sex) })],
          },
        }
      : {}),
    address: [
      {
        id: 'HomeAddress-0',
        extension: [extension('ExtensionResidenceZone', { valueCoding: coding(rdaSystem('ColombianResidenceZone'), p.residenceZone) })],
        use: 'home',
        type: 'physical',
        city: p.city.name,
        ...(Object.keys(city).length ? { _city: city } : {}),
        country: p.country.name,
        _country: { extension: [extension('ExtensionCountryCode', { valueCoding: coding(rdaSystem('ISO31661'), p.country.isoNumeric) })] },
      },
    ],
  };
}

export function rdaPractitioner(u: RdaPractitioner, id: string): Json {
  const family = [u.firstSurname, u.secondSurname].filter(Boolean).join(' ');
  return {
    resourceType: 'Practitioner',
    id,
    meta: meta('PractitionerRDA'),
    identifier: [nationalIdentifier(u.documentType, u.nid)],
    active: u.active,
    name: [{ use: 'official', ...familyOf(family, u.firstSurname, u.secondSurname), given: u.givenNames.trim().split(/\s+/) }],
    qualification: [
      {
        identifier: [
          {
            use: 'official',
            type: { coding: [{ system: V2_0203, code: 'LN', display: 'License number' }] },
            system: rdaNaming('RETHUS'),
            value: u.rethusNumber,
          },
        ],
        code: { coding: [coding(rdaSystem('RETHUSqualification'), u.profession)] },
      },
    ],
  };
}
