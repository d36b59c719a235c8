/**
 * The RDA's code lists (Resolución 1888 de 2025): copies of the Ministry's implementation guide
 * `minsalud.fhir.co.rda` 0.7.1 (../shared/fhir/rda-0.7.1), one catalogue file per list the product
 * stores a code of. Codes are the guide's own (never renumbered: the RDA sends them as they are),
 * names its Spanish display. Built by `npm run seed:catalogues` with the other catalogues.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { CodeItem, CodeListName } from '../api/src/modules/catalogues/catalogues.sync.js';

interface GuideConcept {
  code: string;
  display: string;
  concept?: GuideConcept[];
}

/**
 * Which guide file each list copies. `part` picks one branch of a hierarchical CodeSystem (ISO
 * 3166-1 holds alpha-2, alpha-3 and numeric codes as three branches); a `ValueSet-` file is read
 * from its `compose` (the CUPS CodeSystem the guide ships is a fragment; the ValueSet the profile
 * binds is the list); a `.csv` file is `code,display` (ICD-10 CO: its JSON is a 395-code
 * fragment); a hierarchical CodeSystem without `part` is flattened, parents first (CIUO-88 A.C.:
 * the profile accepts a code of any level).
 */
export const RDA_LISTS: Record<CodeListName, { file: string; part?: string; what: string }> = {
  biological_sexes: { file: 'CodeSystem-ColombianGenderGroup.json', what: 'sexo biológico (ExtensionBiologicalGender)' },
  gender_identities: { file: 'CodeSystem-ColombianGenderIdentity.json', what: 'identidad de género (ExtensionPatientGenderIdentity)' },
  ethnicities: { file: 'CodeSystem-ColombianEthnicGroup.json', what: 'pertenencia étnica (ExtensionPatientEthnicity)' },
  disabilities: { file: 'CodeSystem-ColombianDisabilityClassification.json', what: 'discapacidad (ExtensionPatientDisability)' },
  residence_zones: { file: 'CodeSystem-ColombianResidenceZone.json', what: 'zona de residencia (ExtensionResidenceZone)' },
  nationalities: {
    file: 'CodeSystem-ISO31661.json',
    part: 'ISO31661N',
    what: 'países por código numérico ISO 3166-1 (ExtensionPatientNationality, ExtensionCountryCode; ValueSet ISO31661N)',
  },
  professions: { file: 'CodeSystem-RETHUSqualification.json', what: 'profesión u ocupación RETHUS (Practitioner.qualification)' },
  provider_classes: { file: 'CodeSystem-ColombianProviderClass.json', what: 'clase de prestador (CareDeliveryOrganizationRDA)' },
  legal_natures: { file: 'CodeSystem-ColombianLegalNatureType.json', what: 'naturaleza jurídica (CareDeliveryOrganizationRDA)' },
  care_levels: { file: 'CodeSystem-ColombianHealthcareLevel.json', what: 'nivel de atención (CareDeliveryOrganizationRDA)' },
  tech_modalities: { file: 'CodeSystem-ColombianTechModality.json', what: 'modalidad de atención (Encounter.type:encounterModality)' },
  allergy_types: { file: 'CodeSystem-TipoAlergia.json', what: 'tipo de alergia (AllergyIntoleranceStatementRDA.code)' },
  family_relationships: {
    file: 'CodeSystem-ParentescoAntecedente.json',
    what: 'parentesco del antecedente familiar (FamilyMemberHistoryRDA.relationship)',
  },
  cups_consultations: { file: 'ValueSet-CUPSConsultationCodes.json', what: 'CUPS de consulta (EncounterAmbulatoryRDA.serviceType)' },
  reps_services: { file: 'CodeSystem-REPShealthcareServices.json', what: 'servicio habilitado REPS (Encounter.type:encounterService)' },
  care_environments: { file: 'CodeSystem-EntornoAtencion.json', what: 'entorno de atención (Encounter.type:encounterEnvironment)' },
  service_groups: { file: 'CodeSystem-GrupoServicios.json', what: 'grupo de servicios (Encounter.type:encounterServiceGroup)' },
  external_causes: { file: 'CodeSystem-RIPSCausaExternaVersion2.json', what: 'causa externa RIPS (Encounter.reasonCode)' },
  diagnosis_types: {
    file: 'CodeSystem-RIPSTipoDiagnosticoPrincipalVersion2.json',
    what: 'tipo de diagnóstico principal RIPS (Encounter.diagnosis ExtensionDiagnosisType)',
  },
  license_scopes: {
    file: 'CodeSystem-ColombianLicenseScope.json',
    what: 'alcance de la incapacidad (AttendanceAllowanceRDA LicenseScope)',
  },
  risk_factors: { file: 'CodeSystem-FactorRiesgo.json', what: 'factor de riesgo (RiskFactorRDA.code)' },
  ciuo_occupations: { file: 'CodeSystem-CIUO88AC.json', what: 'ocupación CIUO-88 A.C. (PatientOccupationAtEncounterRDA.value)' },
  icd10co: { file: 'CodeSystem-ICD10CO.csv', what: 'CIE-10 Colombia, 4 caracteres sin punto (ConditionRDA.code ICD10)' },
};

interface GuideFile {
  url: string;
  version: string;
  concept: GuideConcept[];
}

/** A guide CodeSystem or ValueSet (its `compose` concepts as `concept`), or the ICD-10 CO CSV. */
export function readGuideCodeSystem(guideDir: string, file: string): GuideFile {
  const text = readFileSync(path.join(guideDir, file), 'utf8');
  if (file.endsWith('.csv')) return { url: `${RDA_CANONICAL}CodeSystem/ICD10CO`, version: '0.7.1', concept: parseCodeCsv(text) };
  const json = JSON.parse(text) as GuideFile & { compose?: { include: Array<{ concept?: GuideConcept[] }> } };
  if (json.compose) return { ...json, concept: json.compose.include.flatMap((i) => i.concept ?? []) };
  return json;
}

const RDA_CANONICAL = 'https://fhir.minsalud.gov.co/rda/';

/** `code,display` lines; a display with a comma comes quoted ("COLERA, NO ESPECIFICADO"), a quote doubled. */
export function parseCodeCsv(text: string): GuideConcept[] {
  return text
    .split(/\r?\n/)
    .filter((l) => l.trim())
    .map((line) => {
      const comma = line.indexOf(',');
      const raw = line.slice(comma + 1);
      const display = raw.startsWith('"') ? raw.slice(1, -1).replaceAll('""', '"') : raw;
      return { code: line.slice(0, comma), display };
    });
}

const flatten = (concepts: GuideConcept[]): GuideConcept[] => concepts.flatMap((c) => [c, ...flatten(c.concept ?? [])]);

/** The concepts of a list as the guide has them, in the guide's order. */
export function guideConcepts(guideDir: string, name: CodeListName): GuideConcept[] {
  const spec = RDA_LISTS[name];
  const cs = readGuideCodeSystem(guideDir, spec.file);
  if (!spec.part) return flatten(cs.concept);
  const branch = cs.concept.find((c) => c.code === spec.part);
  if (!branch?.concept) throw new Error(`${spec.file}: no branch ${spec.part}`);
  return branch.concept;
}

/**
 * Numeric country codes carry the alpha-2 code of the same country (matched by the guide's own
 * display, which the two branches share), so a Vigía country ('CO') finds its RDA code ('170').
 */
function alpha2ByName(guideDir: string): Map<string, string> {
  const cs = readGuideCodeSystem(guideDir, RDA_LISTS.nationalities.file);
  const alpha2 = cs.concept.find((c) => c.code === 'ISO316612')?.concept ?? [];
  // The alpha-2 branch writes "Côte d''Ivoire" (an SQL-escaped quote); the numeric one "Côte d'Ivoire".
  return new Map(alpha2.map((c) => [c.display.replaceAll("''", "'"), c.code]));
}

/** The two countries whose display differs between the branches, matched by hand. */
const ALPHA2_BY_HAND: Record<string, string> = { '826': 'GB', '850': 'VI' };

export function buildRdaCatalogues(guideDir: string): Record<CodeListName, { source: string; items: CodeItem[] }> {
  const alpha2 = alpha2ByName(guideDir);
  const out = {} as Record<CodeListName, { source: string; items: CodeItem[] }>;
  for (const name of Object.keys(RDA_LISTS) as CodeListName[]) {
    const spec = RDA_LISTS[name];
    const cs = readGuideCodeSystem(guideDir, spec.file);
    const concepts = guideConcepts(guideDir, name);
    const items: CodeItem[] = concepts.map((c) => {
      const item: CodeItem = { code: c.code, name: c.display.trim() };
      if (name === 'nationalities') {
        const a2 = ALPHA2_BY_HAND[c.code] ?? alpha2.get(c.display);
        if (!a2) throw new Error(`No alpha-2 code for ${c.code} ${c.display}`);
        item.alpha2 = a2;
      }
      return item;
    });
    if (new Set(items.map((i) => i.code)).size !== items.length) throw new Error(`${name}: duplicate code`);
    out[name] = {
      source:
        `RDA implementation guide minsalud.fhir.co.rda ${cs.version} (../shared/fhir/rda-0.7.1/${spec.file}` +
        `${spec.part ? `, branch ${spec.part}` : ''}; ${cs.url}; ${items.length} concepts): ${spec.what}`,
      items,
    };
  }
  return out;
}
