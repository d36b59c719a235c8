import { beforeAll, describe, expect, it } from 'vitest';
import { patientFor } from './fhir.mappers';
import { ambulatoryDocument, AMBULATORY_SECTIONS, describeReading } from './rda.document';
import { DIAGNOSIS_ROLES } from './rda.encounter';
import { rdaOrganization, rdaPayer } from './rda.organization';
import { rdaPatient, rdaPractitioner, splitGiven } from './rda.people';
import { rdaProfile } from './rda.profiles';
import { patientDocument, STATEMENT_SECTIONS, STATEMENT_TITLE } from './rda.statement';
import { fixtureConsultation, fixtureOptions, fixturePatientStatement } from '../../../../tests/support/rda-fixture';
import { guideDisplay, loadRdaDefinitions, rdaErrors, validateRda, type Json } from '../../../../tests/support/rda-validator';

/**
 * The RDA builder (issue 51, plan §5 step 4) against the guide's profiles: each builder function
 * alone, then a whole teleconsultation validated with the harness (tests/support/rda-validator.ts)
 * → 0 errors, and one mutation per kind of rule showing that the same test fails when a required
 * element is dropped.
 */

const doc = (): Json => ambulatoryDocument(fixtureConsultation(), fixtureOptions());
const BUNDLE = rdaProfile('BundleAmbulatoryRDA');
const entryOf = (bundle: Json, type: string, profile?: string): Json =>
  (bundle.entry as Json[]).find(
    (e) => e.resource.resourceType === type && (!profile || (e.resource.meta?.profile ?? []).includes(rdaProfile(profile))),
  )!.resource;

beforeAll(() => void loadRdaDefinitions(), 60_000);

describe('splitGiven', () => {
  it.each([
    ['Ana', ['Ana']],
    ['Ana María', ['Ana', 'María']],
    ['  Ana   María  ', ['Ana', 'María']],
    ['Ana María Luisa', ['Ana', 'María Luisa']],
  ])('%j → %j (PatientRDA: given 1..2)', (input, out) => {
    expect(splitGiven(input)).toEqual(out);
  });
});

describe('RDA resources alone against their profiles', () => {
  const c = fixtureConsultation();
  it.each([
    ['PatientRDA', () => rdaPatient(c.patient, 'p')],
    ['PractitionerRDA', () => rdaPractitioner(c.practitioner, 'u')],
    ['CareDeliveryOrganizationRDA', () => rdaOrganization(c.organisation, 'o')],
    ['HealthBenefitPlanAdminOrganizationRDA', () => rdaPayer(c.payer!, 'e')],
  ])('%s: 0 errors', (profile, build) => {
    expect(rdaErrors(validateRda(build(), rdaProfile(profile)))).toEqual([]);
  });

  it('PatientRDA adds to patientFor without changing it: the base mapping is what the FHIR API serves', () => {
    const before = JSON.stringify(patientFor(c.patient.row));
    const p = rdaPatient(c.patient, 'p');
    expect(JSON.stringify(patientFor(c.patient.row))).toBe(before);
    const base = patientFor(c.patient.row) as Json;
    expect(p).toMatchObject({ birthDate: base.birthDate, gender: base.gender, active: base.active });
    expect(p.name).toEqual([expect.objectContaining({ use: 'official', family: 'Rodríguez Gómez', given: ['Ana', 'María'] })]);
    expect(p.telecom).toBeUndefined();
  });

  it('a patient with gender but no biological sex is refused: the profile wants the sex whenever gender is sent', () => {
    const p = rdaPatient({ ...c.patient, sex: undefined }, 'p');
    expect(p._gender).toBeUndefined();
    expect(rdaErrors(validateRda(p, rdaProfile('PatientRDA'))).map((e) => e.message)).toContain(
      "Falta Patient.gender.extension (slice 'ExtensionBiologicalGender'): mínimo 1",
    );
  });

  it('describes a blood-pressure panel and a single reading for the problems narrative', () => {
    const d = doc();
    const readings = (d.entry as Json[])
      .filter((e) => e.resource.resourceType === 'Observation' && !e.resource.meta)
      .map((e) => e.resource);
    expect(readings.map(describeReading)).toEqual([
      'Presión arterial: 158/96 mmHg (2026-12-04T11:02:00.000Z)',
      'Frecuencia cardiaca: 88 lpm (2026-12-04T11:02:00.000Z)',
      'Glucosa: 182 mg/dL (2026-12-04T07:30:00.000Z)',
    ]);
  });
});

describe('ambulatoryDocument', () => {
  it('builds a BundleAmbulatoryRDA with 0 errors against it and its entries’ profiles', () => {
    const issues = validateRda(doc(), BUNDLE);
    expect(rdaErrors(issues), JSON.stringify(rdaErrors(issues), null, 1)).toEqual([]);
  });

  it('writes a nota aclaratoria as an amended Composition that replaces the previous identifier, with 0 errors', () => {
    const previous = '0b5f0d4e-8f7a-4c1e-9a57-3f0c2b1d9e11';
    const c = { ...fixtureConsultation(), correction: { replaces: previous, version: 2, reason: 'La dosis <del plan> estaba mal' } };
    const d: Json = ambulatoryDocument(c, fixtureOptions());
    const comp = (d.entry as Json[])[0].resource;
    expect(comp.status).toBe('amended');
    expect(comp.relatesTo).toEqual([
      { code: 'replaces', targetIdentifier: { system: 'https://fhir.minsalud.gov.co/rda/NamingSystem/identifier-RDA', value: previous } },
    ]);
    const addendum = (comp.section as Json[]).find((s) => s.code.coding[0].code === '55107-7')!;
    expect(addendum.text.div).toContain(`Nota aclaratoria (versión 2, reemplaza el RDA ${previous}): La dosis &lt;del plan&gt; estaba mal`);
    expect(rdaErrors(validateRda(d, BUNDLE))).toEqual([]);
    // The original says neither.
    expect((doc().entry as Json[])[0].resource).toMatchObject({ status: 'final' });
    expect((doc().entry as Json[])[0].resource.relatesTo).toBeUndefined();
  });

  it('is deterministic: the same input and options give the same document', () => {
    expect(JSON.stringify(doc())).toBe(JSON.stringify(doc()));
  });

  it('puts the Composition first, with the 9 sections in the guide’s order, and language es-CO', () => {
    const d = doc();
    expect(d).toMatchObject({ type: 'document', language: 'es-CO', timestamp: '2026-12-04T14:26:00.000Z' });
    const comp = (d.entry as Json[])[0].resource;
    expect(comp.resourceType).toBe('Composition');
    expect((comp.section as Json[]).map((s) => s.title)).toEqual(Object.values(AMBULATORY_SECTIONS).map((s) => s.title));
  });

  it('gives the encounter the telemedicine modality, the main diagnosis and its comorbidity by rank', () => {
    const enc = entryOf(doc(), 'Encounter');
    expect((enc.type as Json[])[0].coding[0]).toMatchObject({ code: '09', display: 'Telemedicina - Telemonitoreo' });
    expect((enc.diagnosis as Json[]).map((x) => [x.id, x.rank])).toEqual([
      [DIAGNOSIS_ROLES[0].id, 1],
      [DIAGNOSIS_ROLES[1].id, 2],
    ]);
  });

  it('references the readings from the main diagnosis’ evidence and lists them in the problems section', () => {
    const d = doc();
    const readingUrls = (d.entry as Json[])
      .filter((e) => e.resource.resourceType === 'Observation' && !e.resource.meta)
      .map((e) => e.fullUrl);
    expect(readingUrls).toHaveLength(3);
    const main = entryOf(d, 'Condition');
    expect(main.evidence[0].detail.map((x: Json) => x.reference)).toEqual(readingUrls);
    const problems = ((d.entry as Json[])[0].resource.section as Json[]).find((s) => s.code.coding[0].code === '11450-4')!;
    expect(problems.text.div).toContain('Lectura revisada: Presión arterial: 158/96 mmHg');
  });

  const icd10 = (code: string) => ({ icd10: { code, display: guideDisplay('CodeSystem-ICD10CO.csv', code) } });
  const withDiagnoses = ['I10X', 'E119', 'E785', 'N189'];

  it.each([1, 2, 3, 4])('gives %i diagnoses their Encounter slices by rank, valid (Encounter.diagnosis 1..4)', (n) => {
    const c = fixtureConsultation();
    c.diagnoses = withDiagnoses.slice(0, n).map(icd10);
    const d: Json = ambulatoryDocument(c, fixtureOptions());
    expect((entryOf(d, 'Encounter').diagnosis as Json[]).map((x) => [x.id, x.rank, x.use.coding[0].code])).toEqual(
      DIAGNOSIS_ROLES.slice(0, n).map((r, i) => [r.id, i + 1, r.code]),
    );
    expect(rdaErrors(validateRda(d, BUNDLE))).toEqual([]);
  });

  it.each([
    ['no incapacidad: Nueva, 0 días', '01', 0, 'Sin incapacidad'],
    ['a 5-day extension', '02', 5, 'Prórroga: 5 días'],
  ])('states the sick leave: %s', (_name, scope, days, text) => {
    const c = fixtureConsultation();
    c.sickLeave = { scope: { code: scope, display: guideDisplay('CodeSystem-ColombianLicenseScope.json', scope) }, days };
    const d: Json = ambulatoryDocument(c, fixtureOptions());
    const o = entryOf(d, 'Observation', 'AttendanceAllowanceRDA');
    expect(o.component.map((x: Json) => x.valueCodeableConcept?.coding[0].code ?? x.valueQuantity.value)).toEqual([scope, days]);
    expect(d.entry[0].resource.section[2].text.div).toContain(text);
    expect(rdaErrors(validateRda(d, BUNDLE))).toEqual([]);
  });

  it('without readings: no evidence on the diagnosis, still valid', () => {
    const c = fixtureConsultation();
    c.readings = [];
    const d: Json = ambulatoryDocument(c, fixtureOptions());
    expect(entryOf(d, 'Condition').evidence).toBeUndefined();
    expect(rdaErrors(validateRda(d, BUNDLE))).toEqual([]);
  });

  it('without a payer or a site: sectionPayers says so with emptyReason, no Location, still valid', () => {
    const c = fixtureConsultation();
    delete c.payer;
    delete c.site;
    const d: Json = ambulatoryDocument(c, fixtureOptions());
    expect(d.entry[0].resource.section[0]).toMatchObject({ emptyReason: { coding: [{ code: 'nilknown' }] } });
    expect((d.entry as Json[]).some((e) => e.resource.resourceType === 'Location')).toBe(false);
    expect(rdaErrors(validateRda(d, BUNDLE))).toEqual([]);
  });

  it('fails with no diagnosis at all (MainDiagnosis 1..1)', () => {
    const c = fixtureConsultation();
    c.diagnoses = [];
    const errors = rdaErrors(validateRda(ambulatoryDocument(c, fixtureOptions()), BUNDLE));
    expect(errors.map((e) => e.message)).toContainEqual(expect.stringMatching(/slice 'MainDiagnosis'/));
  });

  it('fails with no risk factor or no medication (sectionRiskFactors / sectionMedications entry 1..*)', () => {
    const c = fixtureConsultation();
    c.riskFactors = [];
    c.medications = [];
    const errors = rdaErrors(validateRda(ambulatoryDocument(c, fixtureOptions()), BUNDLE));
    expect(errors.map((e) => e.path)).toEqual(
      expect.arrayContaining(['Bundle.entry[0].resource.section[3].entry', 'Bundle.entry[0].resource.section[6].entry']),
    );
  });

  const mutations: { name: string; mutate: (d: Json) => void; path: RegExp; message: RegExp }[] = [
    {
      name: 'the patient’s birth date (PatientRDA birthDate 1..1)',
      mutate: (d) => delete entryOf(d, 'Patient').birthDate,
      path: /^Bundle\.entry\[1\]\.resource\.birthDate$/,
      message: /^Falta/,
    },
    {
      name: 'the Epicrisis entry (BundleAmbulatoryRDA DocumentReferenceResources 1..1)',
      mutate: (d) => (d.entry = (d.entry as Json[]).filter((e) => e.resource.resourceType !== 'DocumentReference')),
      path: /^Bundle\.entry$/,
      message: /slice 'DocumentReferenceResources'/,
    },
    {
      name: 'the patient’s profile claim (Bundle slice by profile)',
      mutate: (d) => delete entryOf(d, 'Patient').meta.profile,
      path: /^Bundle\.entry$/,
      message: /slice 'PatientResource'/,
    },
    {
      name: 'a section (CompositionAmbulatoryRDA section 9..9)',
      mutate: (d) => (d.entry[0].resource.section as Json[]).splice(4, 1),
      path: /^Bundle\.entry\[0\]\.resource\.section$/,
      message: /slice 'sectionAllergies'/,
    },
    {
      name: 'the encounter’s modality (encounterModality 1..1)',
      mutate: (d) => (entryOf(d, 'Encounter').type as Json[]).shift(),
      path: /\.type$/,
      message: /slice 'encounterModality'/,
    },
    {
      name: 'the main diagnosis (MainDiagnosis by rank 1)',
      mutate: (d) => (entryOf(d, 'Encounter').diagnosis[0].rank = 3),
      path: /\.diagnosis$/,
      message: /slice 'MainDiagnosis'/,
    },
    {
      name: 'the sick-leave component pair (component 2..2)',
      mutate: (d) => entryOf(d, 'Observation', 'AttendanceAllowanceRDA').component.pop(),
      path: /\.component$/,
      message: /mínimo 2/,
    },
    {
      name: 'a fixed section title',
      mutate: (d) => (d.entry[0].resource.section[2].title = 'Incapacidad'),
      path: /section\[2\]\.title$/,
      message: /debe ser/,
    },
    {
      name: 'a fixed value (Encounter.status finished)',
      mutate: (d) => (entryOf(d, 'Encounter').status = 'in-progress'),
      path: /\.status$/,
      message: /debe ser "finished"/,
    },
    {
      name: 'an ICD-10 code outside CIE-10 CO (3 characters)',
      mutate: (d) => (entryOf(d, 'Condition').code.coding[0].code = 'I10'),
      path: /\.code\.coding\[0\]$/,
      message: /ICD10Codes \(required\)/,
    },
    {
      name: 'a modality outside ColombianTechModality',
      mutate: (d) => (entryOf(d, 'Encounter').type[0].coding[0].code = '99'),
      path: /\.type\[0\]/,
      message: /ColombianTechModalityCodes \(required\)/,
    },
    {
      name: 'a blank medication text (ms-rda-0, checked by hand)',
      mutate: (d) => (entryOf(d, 'MedicationStatement').medicationCodeableConcept.text = '  '),
      path: /^Bundle\.entry\[\d+\]\.resource$/,
      message: /ms-rda-0/,
    },
    {
      name: 'the document type (Bundle.type fixed document)',
      mutate: (d) => (d.type = 'collection'),
      path: /^Bundle\.type$/,
      message: /debe ser "document"/,
    },
    {
      name: 'a reference to a resource not in the Bundle',
      mutate: (d) => (entryOf(d, 'Encounter').subject.reference = 'urn:uuid:00000000-0000-4000-8000-0000000000ff'),
      path: /\.subject$/,
      message: /no está en el Bundle/,
    },
  ];

  it.each(mutations)('fails without $name', ({ mutate, path, message }) => {
    const d = doc();
    mutate(d);
    const errors = rdaErrors(validateRda(d, BUNDLE));
    expect(
      errors.filter((e) => path.test(e.path) && message.test(e.message)),
      JSON.stringify(errors, null, 1),
    ).not.toEqual([]);
  });
});

describe('patientDocument', () => {
  const statement = (): Json => patientDocument(fixturePatientStatement(), fixtureOptions());
  const STATEMENT = rdaProfile('BundlePatientStatementRDA');

  it('builds a BundlePatientStatementRDA with 0 errors against it and its entries’ profiles', () => {
    const issues = validateRda(statement(), STATEMENT);
    expect(rdaErrors(issues), JSON.stringify(rdaErrors(issues), null, 1)).toEqual([]);
  });

  it('states the active conditions only, coded when the type has a CIE-10 CO code, with the 4 sections in order', () => {
    const d = statement();
    const conditions = (d.entry as Json[]).filter((e) => e.resource.resourceType === 'Condition').map((e) => e.resource);
    expect(conditions.map((c) => [c.code.coding?.[0].code ?? null, c.code.text])).toEqual([
      ['I10X', 'Hipertensión arterial'],
      ['E119', 'Diabetes mellitus tipo 2'],
      [null, 'Insomnio referido'],
    ]);
    expect(conditions.every((c) => c.onsetDateTime === undefined)).toBe(true);
    const comp = (d.entry as Json[])[0].resource;
    expect(comp.title).toBe(STATEMENT_TITLE);
    expect((comp.section as Json[]).map((s) => s.title)).toEqual(Object.values(STATEMENT_SECTIONS).map((s) => s.title));
  });

  it('fills an empty section with its narrative and emptyReason nilknown', () => {
    const s = fixturePatientStatement();
    s.allergies = [];
    const d = patientDocument(s, fixtureOptions()) as Json;
    const allergies = (d.entry[0].resource.section as Json[])[1];
    expect(allergies).toMatchObject({ emptyReason: { coding: [{ code: 'nilknown' }] } });
    expect(allergies.entry).toBeUndefined();
    expect(rdaErrors(validateRda(d, STATEMENT))).toEqual([]);
  });

  it.each([
    ['the title pat-rda-0 requires', (d: Json) => (d.entry[0].resource.title = 'RDA de paciente'), /pat-rda-0/],
    ['the practitioner entry (PractitionerResource 1..1)', (d: Json) => (d.entry as Json[]).splice(2, 1), /slice 'PractitionerResource'/],
    ['the event’s service group (event.code 2..2)', (d: Json) => d.entry[0].resource.event[0].code.pop(), /eventCodeServiceGroup/],
    [
      'an allergy type outside TipoAlergia',
      (d: Json) => ((d.entry as Json[]).find((e) => e.resource.resourceType === 'AllergyIntolerance')!.resource.code.coding[0].code = '09'),
      /TipoAlergiaCodigos/,
    ],
  ])('fails without %s', (_name, mutate, message) => {
    const d = statement();
    mutate(d);
    const errors = rdaErrors(validateRda(d, STATEMENT));
    expect(
      errors.filter((e) => message.test(e.message)),
      JSON.stringify(errors, null, 1),
    ).not.toEqual([]);
  });
});
