/**
 * Pure builders of demo and benchmark data: Colombian patients and their vital-sign series.
 * No database and no clock: the random generator, `now` and the catalogue references come in,
 * so a seed always yields the same rows (seeds/demo.rules.test.ts holds them to that).
 */
import type { Catalogues } from '../api/src/modules/catalogues/catalogues.sync.js';
import type { Rng } from './random.js';
import { toSearchKey } from '@vigia/contract/rules/names';
import { CLINICAL_ELEMENTS } from '@vigia/contract/rules/vitals';
import type { CONTACT_FIELDS } from '../api/src/modules/patients/patients.rules.js';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const QUARTER_HOUR_MS = 15 * MINUTE_MS;

/** Clinical element codes of DECISIONS D6. */
const ELEMENT = {
  heartRate: 1,
  oxygenSaturation: 2,
  systolic: 3,
  diastolic: 4,
  weight: 5,
  glucose: 6,
  temperature: 7,
} as const;

/** Patient status of DECISIONS D9. */
export const PATIENT_STATUS = { inactive: 0, active: 1, incomplete: 2, deceased: 3 } as const;

/** Gender codes of the reference enumerations: Masculino=1, Femenino=0. */
const GENDER = { female: 0, male: 1 } as const;

export interface DemoTag {
  name: string;
  color: string;
  elements: number[];
  history: string | null;
}

/**
 * Tags of a chronic-care programme; each brings the vital signs such a patient measures at
 * home. Colours are the ten the tag dialog offers, one each.
 */
export const DEMO_TAGS: readonly DemoTag[] = [
  { name: 'HIPERTENSIÓN', color: 'red', elements: [1, 3, 4], history: 'HIPERTENSIÓN ARTERIAL' },
  { name: 'DIABETES', color: 'blue', elements: [6, 5], history: 'DIABETES MELLITUS TIPO 2' },
  { name: 'EPOC', color: 'blue-grey', elements: [2, 1], history: 'ENFERMEDAD PULMONAR OBSTRUCTIVA CRÓNICA' },
  { name: 'INSUFICIENCIA CARDÍACA', color: 'purple', elements: [5, 3, 4, 1, 2], history: 'INSUFICIENCIA CARDÍACA CRÓNICA' },
  { name: 'ENFERMEDAD RENAL CRÓNICA', color: 'amber', elements: [3, 4, 5], history: 'ENFERMEDAD RENAL CRÓNICA ESTADIO 3' },
  { name: 'OBESIDAD', color: 'orange', elements: [5], history: 'OBESIDAD GRADO I' },
  { name: 'ASMA', color: 'light-green', elements: [2, 1], history: 'ASMA BRONQUIAL' },
  { name: 'POSTOPERATORIO', color: 'pink', elements: [7, 1, 2], history: 'POSTOPERATORIO RECIENTE' },
  { name: 'ADULTO MAYOR', color: 'indigo', elements: [3, 4, 1], history: null },
  { name: 'ALTO RIESGO', color: 'black', elements: [], history: null },
];

const TAG_BY_NAME = new Map(DEMO_TAGS.map((tag) => [tag.name, tag]));

// ---------------------------------------------------------------------------------------------
// Passwords of a demo made in production

const PASSWORD_CLASSES = ['abcdefghijkmnopqrstuvwxyz', 'ABCDEFGHJKLMNPQRSTUVWXYZ', '23456789', '@$!%*?&'] as const;

/**
 * A password for a demo user of a production start (SEED_DEMO=1), which must not be README's:
 * `length` characters of the specification's password alphabet (contract PASSWORD_REGEX), one of
 * each class it requires, the rest from all of them, shuffled. `randomInt(n)` answers an integer in
 * [0, n): crypto.randomInt at run time (never the seeded Rng, whose stream anyone can replay).
 * Letters and digits easy to misread (l, O, 0, 1) are left out: the operator copies it from a terminal.
 */
export function buildDemoPassword(randomInt: (n: number) => number, length = 16): string {
  const all = PASSWORD_CLASSES.join('');
  const chars = PASSWORD_CLASSES.map((cls) => cls[randomInt(cls.length)]);
  while (chars.length < length) chars.push(all[randomInt(all.length)]);
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j], chars[i]];
  }
  return chars.join('');
}

// ---------------------------------------------------------------------------------------------
// Catalogue references

interface CityData {
  weight: number;
  neighborhoods: string[];
  /** First digits of cédulas issued there: 10-digit (since 2003) and older 8-digit by gender. */
  nid10: string[];
  nid8Male: string[];
  nid8Female: string[];
  /** Insurer codes and their relative weight among the city's residents. */
  eapbs: Array<[string, number]>;
}

/** The three cities the demo draws from, by DANE DIVIPOLA code. */
const CITY_DATA: Record<string, CityData> = {
  '11001': {
    weight: 5,
    neighborhoods: [
      'CHAPINERO',
      'USAQUÉN',
      'CEDRITOS',
      'SUBA',
      'KENNEDY',
      'TEUSAQUILLO',
      'FONTIBÓN',
      'ENGATIVÁ',
      'BOSA',
      'LA CANDELARIA',
      'MODELIA',
      'CIUDAD SALITRE',
      'RESTREPO',
      'SANTA BÁRBARA',
      'NIZA',
      'GALERÍAS',
      'PALERMO',
      'LAS FERIAS',
      'TIMIZA',
      'EL TINTAL',
    ],
    nid10: [
      '1010',
      '1012',
      '1013',
      '1014',
      '1015',
      '1016',
      '1018',
      '1019',
      '1020',
      '1022',
      '1023',
      '1024',
      '1026',
      '1030',
      '1031',
      '1032',
      '1033',
    ],
    nid8Male: ['79', '80', '19', '17'],
    nid8Female: ['51', '52', '41', '39', '20'],
    eapbs: [
      ['EPS037', 18],
      ['EPS008', 16],
      ['EPS005', 14],
      ['EPS017', 10],
      ['EPS002', 8],
      ['EPS010', 7],
      ['EPSS34', 10],
      ['EPS001', 3],
      ['ESS024', 3],
      ['RES004', 4],
      ['RES001', 2],
      ['RES003', 2],
    ],
  },
  '05001': {
    weight: 3,
    neighborhoods: [
      'EL POBLADO',
      'LAURELES',
      'BELÉN',
      'ROBLEDO',
      'MANRIQUE',
      'BUENOS AIRES',
      'LA AMÉRICA',
      'CASTILLA',
      'ARANJUEZ',
      'ESTADIO',
      'SAN JAVIER',
      'LOS COLORES',
      'BOSTON',
      'PRADO',
      'FLORIDA NUEVA',
      'CALASANZ',
    ],
    nid10: ['1017', '1020', '1035', '1036', '1037', '1039', '1040', '1128', '1152'],
    nid8Male: ['70', '71', '98', '15'],
    nid8Female: ['42', '43', '32', '21'],
    eapbs: [
      ['EPS010', 30],
      ['EPSS40', 14],
      ['EPS037', 14],
      ['EPS005', 8],
      ['EPS002', 6],
      ['EAS016', 4],
      ['ESS024', 3],
      ['RES011', 2],
      ['RES004', 4],
      ['RES001', 2],
    ],
  },
  '76001': {
    weight: 2,
    neighborhoods: [
      'SAN FERNANDO',
      'GRANADA',
      'CIUDAD JARDÍN',
      'EL INGENIO',
      'SANTA MÓNICA',
      'ALAMEDA',
      'SAN ANTONIO',
      'EL PEÑÓN',
      'LOS CÁMBULOS',
      'PANCE',
      'VERSALLES',
      'SILOÉ',
      'CHIMINANGOS',
      'LA FLORA',
      'EL LIDO',
      'CAPRI',
    ],
    nid10: ['1107', '1111', '1112', '1113', '1114', '1130', '1143', '1144', '1151'],
    nid8Male: ['16', '94', '14', '66'],
    nid8Female: ['31', '66', '29', '38'],
    eapbs: [
      ['EPS018', 18],
      ['EPS037', 16],
      ['EPS005', 10],
      ['ESS118', 10],
      ['EPS002', 8],
      ['EPS010', 8],
      ['EPS012', 6],
      ['ESS062', 4],
      ['RES007', 2],
      ['RES004', 4],
      ['RES003', 2],
    ],
  },
};

interface DemoCity {
  id: number;
  code: string;
  name: string;
  data: CityData;
}
interface DemoEapb {
  id: number;
  code: string;
  regimeIds: number[];
}

export interface DemoReferences {
  countryId: number;
  prefix: string;
  timeZone: string;
  idType: { id: number; validationRegex: string };
  cities: DemoCity[];
  eapbs: Map<string, DemoEapb>;
  regimes: { contributivo: number; subsidiado: number };
  bloodTypes: Record<'A' | 'B' | 'AB' | 'O', number>;
  rhFactors: { positive: number; negative: number };
  occupations: Map<string, number>;
  scholarships: Map<string, number>;
  civilStatuses: Map<string, number>;
  bounds: Map<number, { min: number; max: number }>;
}

function findOrThrow<T>(items: readonly T[], test: (item: T) => boolean, what: string): T {
  const found = items.find(test);
  if (!found) throw new Error(`Catálogo incompleto: falta ${what}`);
  return found;
}

function indexByName(items: ReadonlyArray<{ id: number; name: string }>): Map<string, number> {
  return new Map(items.map((item) => [item.name, item.id]));
}

export type DemoCatalogues = Pick<
  Catalogues,
  | 'countries'
  | 'cities'
  | 'id_types'
  | 'eapbs'
  | 'regimes'
  | 'blood_types'
  | 'rh_factors'
  | 'occupations'
  | 'scholarships'
  | 'civil_statuses'
  | 'clinical_elements'
>;

/** Picks out of the catalogues what the demo needs, by code, so it never hard-codes an id. */
export function buildDemoReferences(catalogues: DemoCatalogues): DemoReferences {
  const colombia = findOrThrow(catalogues.countries, (c) => c.code === 'CO', 'el país CO');
  const cc = findOrThrow(catalogues.id_types, (t) => t.country_id === colombia.id && t.code === 'CC', 'el tipo CC');
  const cities = Object.entries(CITY_DATA).map(([code, data]) => {
    const city = findOrThrow(catalogues.cities, (c) => c.country_id === colombia.id && c.code === code, `la ciudad ${code}`);
    return { id: city.id, code, name: city.name, data };
  });
  const eapbs = new Map(
    catalogues.eapbs.map((e) => [
      e.code,
      {
        id: e.id,
        code: e.code,
        regimeIds: e.regime_id !== null ? [e.regime_id] : [...new Set(e.codes.map((c) => c.regime_id))],
      },
    ]),
  );
  for (const city of cities) {
    for (const [code] of city.data.eapbs) if (!eapbs.has(code)) throw new Error(`Catálogo incompleto: falta la EAPB ${code}`);
  }
  const regimes = indexByName(catalogues.regimes);
  const blood = indexByName(catalogues.blood_types);
  const rh = indexByName(catalogues.rh_factors);
  const need = (map: Map<string, number>, name: string) => {
    const id = map.get(name);
    if (id === undefined) throw new Error(`Catálogo incompleto: falta ${name}`);
    return id;
  };
  return {
    countryId: colombia.id,
    prefix: colombia.phone_prefix,
    timeZone: colombia.time_zone,
    idType: { id: cc.id, validationRegex: cc.validation_regex },
    cities,
    eapbs,
    regimes: { contributivo: need(regimes, 'Contributivo'), subsidiado: need(regimes, 'Subsidiado') },
    bloodTypes: { A: need(blood, 'A'), B: need(blood, 'B'), AB: need(blood, 'AB'), O: need(blood, 'O') },
    rhFactors: { positive: need(rh, 'Positivo'), negative: need(rh, 'Negativo') },
    occupations: indexByName(catalogues.occupations),
    scholarships: indexByName(catalogues.scholarships),
    civilStatuses: indexByName(catalogues.civil_statuses),
    bounds: new Map(catalogues.clinical_elements.map((e) => [e.id, { min: e.input_min, max: e.input_max }])),
  };
}

// ---------------------------------------------------------------------------------------------
// Names and text

const FEMALE_NAMES = [
  'MARÍA',
  'ANA',
  'LUZ',
  'ROSA',
  'CARMEN',
  'GLORIA',
  'MARTHA',
  'BLANCA',
  'CLAUDIA',
  'SANDRA',
  'DIANA',
  'PAOLA',
  'ÁNGELA',
  'LILIANA',
  'YOLANDA',
  'NUBIA',
  'ESPERANZA',
  'MÓNICA',
  'LAURA',
  'CAROLINA',
  'ADRIANA',
  'PATRICIA',
  'CECILIA',
  'AMPARO',
  'MARLENY',
  'STELLA',
  'ALEJANDRA',
  'CATALINA',
  'NATALIA',
  'JULIANA',
  'BEATRIZ',
  'OFELIA',
  'LEONOR',
  'ESTHER',
  'GRACIELA',
  'FABIOLA',
  'EDILMA',
  'DORA',
  'OLGA',
  'TERESA',
];
const FEMALE_SECOND = [
  'ISABEL',
  'LUCÍA',
  'ELENA',
  'INÉS',
  'TERESA',
  'CECILIA',
  'PATRICIA',
  'FERNANDA',
  'ALEJANDRA',
  'MARINA',
  'STELLA',
  'AMPARO',
  'DEL CARMEN',
  'MILENA',
  'ESPERANZA',
  'JOSEFA',
  'EUGENIA',
  'ROCÍO',
];
const MALE_NAMES = [
  'JOSÉ',
  'LUIS',
  'CARLOS',
  'JORGE',
  'JUAN',
  'HERNÁN',
  'GUSTAVO',
  'ÁLVARO',
  'JAIME',
  'RAFAEL',
  'GERMÁN',
  'FABIO',
  'ORLANDO',
  'HÉCTOR',
  'ANTONIO',
  'JAVIER',
  'RICARDO',
  'CÉSAR',
  'ÓSCAR',
  'EDGAR',
  'ANDRÉS',
  'DIEGO',
  'JULIÁN',
  'MAURICIO',
  'ALBERTO',
  'EDUARDO',
  'FERNANDO',
  'GILBERTO',
  'HUMBERTO',
  'RODRIGO',
  'SERGIO',
  'ALEJANDRO',
  'DANIEL',
  'SANTIAGO',
  'MIGUEL',
  'FRANCISCO',
  'PEDRO',
  'MANUEL',
  'ARTURO',
  'ALIRIO',
];
const MALE_SECOND = [
  'ALBERTO',
  'ANTONIO',
  'EDUARDO',
  'ENRIQUE',
  'FERNANDO',
  'FELIPE',
  'ANDRÉS',
  'ALFONSO',
  'AUGUSTO',
  'ELIÉCER',
  'DAVID',
  'ALEJANDRO',
  'CAMILO',
  'ARTURO',
  'HERNANDO',
  'IGNACIO',
  'MANUEL',
  'DE JESÚS',
];
const SURNAMES = [
  'RODRÍGUEZ',
  'GÓMEZ',
  'GONZÁLEZ',
  'MARTÍNEZ',
  'GARCÍA',
  'LÓPEZ',
  'HERNÁNDEZ',
  'SÁNCHEZ',
  'RAMÍREZ',
  'PÉREZ',
  'DÍAZ',
  'MUÑOZ',
  'ROJAS',
  'MORENO',
  'JIMÉNEZ',
  'VARGAS',
  'CASTRO',
  'GUTIÉRREZ',
  'ORTIZ',
  'RESTREPO',
  'OSORIO',
  'CASTAÑO',
  'OSPINA',
  'GIRALDO',
  'CARDONA',
  'AGUDELO',
  'MEJÍA',
  'QUINTERO',
  'ARIAS',
  'SALAZAR',
  'TORRES',
  'VALENCIA',
  'RÍOS',
  'PATIÑO',
  'BOTERO',
  'HENAO',
  'ZAPATA',
  'BETANCUR',
  'MONTOYA',
  'CORTÉS',
  'SUÁREZ',
  'CÁRDENAS',
  'ACOSTA',
  'PARRA',
  'BEDOYA',
  'ÁLVAREZ',
  'ROMERO',
  'HERRERA',
  'MEDINA',
  'MORALES',
  'CAICEDO',
  'MOSQUERA',
  'VALDERRAMA',
  'PINEDA',
  'LONDOÑO',
  'SERNA',
  'GAVIRIA',
  'NIÑO',
  'BARRERA',
  'CUERVO',
];
const EMAIL_DOMAINS: Array<[string, number]> = [
  ['example.com', 6],
  ['example.net', 3],
  ['example.org', 1],
];
const MOBILE_PREFIXES = [
  '300',
  '301',
  '302',
  '304',
  '305',
  '310',
  '311',
  '312',
  '313',
  '314',
  '315',
  '316',
  '317',
  '318',
  '319',
  '320',
  '321',
  '322',
  '323',
  '350',
  '351',
];
const SURGERIES = ['COLECISTECTOMÍA', 'REEMPLAZO DE CADERA', 'HERNIORRAFIA INGUINAL', 'REVASCULARIZACIÓN MIOCÁRDICA'];
const MONTHS = [
  'ENERO',
  'FEBRERO',
  'MARZO',
  'ABRIL',
  'MAYO',
  'JUNIO',
  'JULIO',
  'AGOSTO',
  'SEPTIEMBRE',
  'OCTUBRE',
  'NOVIEMBRE',
  'DICIEMBRE',
];

/** Lower case without accents: the form the product searches names with. */

function buildDigits(rng: Rng, count: number): string {
  let digits = '';
  for (let i = 0; i < count; i++) digits += String(rng.int(0, 9));
  return digits;
}

/**
 * A cédula shaped like a real one for the holder's age and city: 10 digits (NUIP) for people
 * who turned 18 after 2003, 8 digits (7 for some of the oldest) before, with the leading digits
 * the registry used in that city for that gender.
 */
export function buildCedula(rng: Rng, birthYear: number, gender: number, city: CityData): string {
  if (birthYear >= 1985) {
    const prefix = rng.pick(city.nid10);
    return prefix + buildDigits(rng, 10 - prefix.length);
  }
  if (birthYear < 1950 && rng.chance(0.3)) return String(rng.int(2, 9)) + buildDigits(rng, 6);
  const prefix = rng.pick(gender === GENDER.male ? city.nid8Male : city.nid8Female);
  return prefix + buildDigits(rng, 8 - prefix.length);
}

function buildAddress(rng: Rng, bogota: boolean): string {
  const way = rng.weighted<string>([
    ['CALLE', 40],
    ['CARRERA', 35],
    ['AVENIDA CALLE', 5],
    ['DIAGONAL', 8],
    ['TRANSVERSAL', 7],
    ['AVENIDA CARRERA', 5],
  ]);
  const suffix = rng.chance(0.2) ? ` ${rng.pick(['A', 'B', 'C', 'BIS', 'A BIS'])}` : '';
  const south = bogota && way.endsWith('CALLE') && rng.chance(0.2) ? ' SUR' : '';
  const cross = `${rng.int(1, 150)}${rng.chance(0.1) ? rng.pick(['A', 'B']) : ''}`;
  const unit = rng.weighted<string>([
    ['', 5],
    [` APTO ${rng.int(1, 22)}0${rng.int(1, 8)}`, 3],
    [` CASA ${rng.int(1, 60)}`, 1],
    [` TORRE ${rng.int(1, 8)} APTO ${rng.int(1, 18)}0${rng.int(1, 6)}`, 1],
  ]);
  return `${way} ${rng.int(1, 180)}${suffix}${south} # ${cross}-${rng.int(2, 99)}${unit}`;
}

function buildEmail(rng: Rng, firstName: string, lastName: string): string {
  const given = toSearchKey(firstName).split(' ')[0];
  const surname = toSearchKey(lastName).split(' ')[0];
  const joiner = rng.pick(['.', '_', '']);
  const digits = rng.chance(0.5) ? String(rng.int(1, 99)) : '';
  return `${given}${joiner}${surname}${digits}@${rng.weighted(EMAIL_DOMAINS)}`.replace(/[^a-z0-9._@-]/g, '');
}

function buildMobile(rng: Rng): string {
  return rng.pick(MOBILE_PREFIXES) + buildDigits(rng, 7);
}

function buildName(rng: Rng, gender: number): { firstName: string; lastName: string } {
  const female = gender === GENDER.female;
  const first = rng.pick(female ? FEMALE_NAMES : MALE_NAMES);
  let second = rng.chance(0.6) ? rng.pick(female ? FEMALE_SECOND : MALE_SECOND) : '';
  if (second === first) second = '';
  const surname1 = rng.pick(SURNAMES);
  let surname2 = rng.pick(SURNAMES);
  if (surname2 === surname1) surname2 = rng.pick(SURNAMES);
  return { firstName: second ? `${first} ${second}` : first, lastName: `${surname1} ${surname2}` };
}

// ---------------------------------------------------------------------------------------------
// Patients

interface DemoPatientRow {
  id_type: number;
  nid: string;
  first_name: string;
  last_name: string;
  search_name: string;
  country_id: number;
  city_id: number | null;
  birth_date: string;
  gender: number;
  blood_type: number;
  rh_factor: number;
  eapb_id: number;
  regime: number;
  status: number;
  time_zone: string;
  clinic_history: string | null;
  address: string | null;
  neighborhood: string | null;
  prefix: string | null;
  cellphone: string | null;
  email: string | null;
  occupation: number | null;
  scholarship: number | null;
  civil_status: number | null;
  deceased_at: Date | null;
  created_at: Date;
  updated_at: Date;
  biological_sex: string | null;
  residence_zone: string | null;
  nationality: string | null;
  ethnicity: string | null;
  /** A JSON list of the guide's disability codes ('["08"]': sin discapacidad). */
  disabilities: string | null;
}

/** The RDA's national data of a demo patient (migration 0035), in the guide's codes. */
export interface DemoRdaDemographics {
  biological_sex: string | null;
  residence_zone: string | null;
  nationality: string | null;
  ethnicity: string | null;
  disabilities: string | null;
}

/**
 * A demo patient's RDA data (PatientRDA: biological sex and residence zone required; nationality,
 * ethnicity and disability recorded): read from the document number's last digits rather than
 * drawn, so adding it left every other demo value as it was. About one in five rural, one in ten
 * Afro-Colombian and one in twenty Indigenous (DANE's 2018 census puts them at 24 %, 9 % and 4 %); a
 * physical disability for some patients of 80 or more. A patient whose demographics are unknown
 * (an incomplete record) has none of it: the RDA's gaps list it, and no RDA is written for them.
 */
export function buildRdaDemographics(p: { nid: string; gender: number; age: number; known: boolean }): DemoRdaDemographics {
  if (!p.known) return { biological_sex: null, residence_zone: null, nationality: null, ethnicity: null, disabilities: null };
  const digit = (fromEnd: number) => Number(p.nid[p.nid.length - fromEnd] ?? 0);
  const ethnicity = digit(2) === 0 ? '5' : digit(2) === 1 && digit(3) % 2 === 0 ? '1' : '6';
  return {
    biological_sex: p.gender === GENDER.female ? '02' : '01',
    residence_zone: digit(1) <= 1 ? '02' : '01',
    nationality: '170',
    ethnicity,
    disabilities: JSON.stringify([p.age >= 80 && digit(3) <= 3 ? '01' : '08']),
  };
}

interface VitalProfile {
  /** Clinical elements this patient measures at home, ascending. */
  elements: number[];
  sessionsPerDay: number;
  /** Share of days with at least one reading. */
  adherence: number;
  /** Share of readings that fall outside the usual alarm ranges. */
  excursionRate: number;
  /** The patient's usual value for each element. */
  baselines: Record<number, number>;
}

export interface DemoPatient {
  row: DemoPatientRow;
  tags: string[];
  profile: VitalProfile;
  /** Readings exist only inside [measuredFrom, measuredUntil]: enrolment to now, inactivation or death. */
  measuredFrom: Date;
  measuredUntil: Date;
}

export interface DemoPatientOptions {
  refs: DemoReferences;
  now: Date;
  /** Document numbers already taken; new ones are added, so successive calls stay unique. */
  usedNids?: Set<string>;
  /** DANE codes of the cities to draw from (default: all demo cities). */
  cityCodes?: string[];
  /** Inclusive range of birth years (default 1930–2005). */
  birthYears?: [number, number];
  /** Shares of the batch, rounded to whole patients (defaults 0.15, 0.05, 0.02). */
  incompleteRate?: number;
  inactiveRate?: number;
  deceasedRate?: number;
  /** Makes the first patient a complete, active patient with this document and mobile. */
  portalPatient?: { nid: string; cellphone: string };
}

/** The fields whose absence makes a patient 'incomplete' (DECISIONS D9). */

function formatDateOnly(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function computeAge(birth: Date, now: Date): number {
  let age = now.getUTCFullYear() - birth.getUTCFullYear();
  const beforeBirthday =
    now.getUTCMonth() < birth.getUTCMonth() || (now.getUTCMonth() === birth.getUTCMonth() && now.getUTCDate() < birth.getUTCDate());
  if (beforeBirthday) age -= 1;
  return age;
}

function pickBirthDate(rng: Rng, [from, to]: [number, number]): Date {
  // Remote monitoring is mostly for older adults: centre the years on the mid-1950s.
  let year = Math.round(rng.normal(1956, 14));
  if (year < from || year > to) year = rng.int(from, to);
  const month = rng.int(0, 11);
  const day = rng.int(1, new Date(Date.UTC(year, month + 1, 0)).getUTCDate());
  return new Date(Date.UTC(year, month, day));
}

function pickTags(rng: Rng, age: number): string[] {
  const tags: string[] = [];
  const has = (name: string) => tags.includes(name);
  if (rng.chance(age >= 60 ? 0.65 : age >= 40 ? 0.4 : 0.12)) tags.push('HIPERTENSIÓN');
  if (rng.chance(age >= 50 ? 0.32 : 0.12)) tags.push('DIABETES');
  if (rng.chance(age >= 60 ? 0.15 : 0.03)) tags.push('EPOC');
  if (rng.chance(age >= 65 ? 0.12 : 0.03)) tags.push('INSUFICIENCIA CARDÍACA');
  if (rng.chance(has('HIPERTENSIÓN') || has('DIABETES') ? 0.12 : 0.02)) tags.push('ENFERMEDAD RENAL CRÓNICA');
  if (rng.chance(0.18)) tags.push('OBESIDAD');
  if (rng.chance(age < 50 ? 0.12 : 0.04)) tags.push('ASMA');
  if (rng.chance(0.06)) tags.push('POSTOPERATORIO');
  // Everyone in the programme is followed for something.
  if (tags.length === 0)
    tags.push(
      rng.weighted<string>([
        ['HIPERTENSIÓN', 5],
        ['DIABETES', 3],
        ['OBESIDAD', 1],
        ['ASMA', 1],
      ]),
    );
  if (age >= 65 && rng.chance(0.8)) tags.push('ADULTO MAYOR');
  if (tags.length >= 4 || has('INSUFICIENCIA CARDÍACA') || rng.chance(0.05)) tags.push('ALTO RIESGO');
  return tags;
}

function buildProfile(rng: Rng, tags: string[], gender: number, allElements: boolean): VitalProfile {
  const elements = new Set<number>(allElements ? [1, 2, 3, 4, 5, 6, 7] : []);
  for (const name of tags) for (const element of TAG_BY_NAME.get(name)?.elements ?? []) elements.add(element);
  if (elements.size === 0) [1, 3, 4].forEach((element) => elements.add(element));
  const has = (name: string) => tags.includes(name);
  const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));
  const baselines: Record<number, number> = {
    1: clamp(rng.normal(74, 7) + (has('INSUFICIENCIA CARDÍACA') ? 6 : 0) + (has('EPOC') ? 8 : 0), 56, 98),
    2: has('EPOC')
      ? clamp(rng.normal(92, 1.5), 89, 95)
      : has('INSUFICIENCIA CARDÍACA')
        ? clamp(rng.normal(94.5, 1), 92, 97)
        : clamp(rng.normal(97, 1), 95, 99),
    3: has('HIPERTENSIÓN') ? clamp(rng.normal(140, 10), 120, 165) : clamp(rng.normal(118, 8), 100, 135),
    4: has('HIPERTENSIÓN') ? clamp(rng.normal(87, 6), 75, 100) : clamp(rng.normal(76, 5), 62, 85),
    5: clamp(rng.normal(gender === GENDER.female ? 66 : 76, 11) + (has('OBESIDAD') ? 25 : 0), 42, 150),
    6: has('DIABETES') ? clamp(rng.normal(138, 20), 100, 190) : clamp(rng.normal(94, 7), 78, 110),
    7: clamp(rng.normal(36.5, 0.15), 36.1, 36.9),
  };
  return {
    elements: [...elements].sort((a, b) => a - b),
    sessionsPerDay: rng.weighted([
      [1, 35],
      [2, 45],
      [3, 20],
    ]),
    adherence: rng.float(0.6, 0.98),
    excursionRate: rng.chance(0.15) ? rng.float(0.08, 0.14) : rng.float(0.01, 0.05),
    baselines,
  };
}

function pickOccupation(rng: Rng, age: number, gender: number): string {
  const female = gender === GENDER.female;
  if (age >= 62) {
    return rng.weighted<string>([
      ['Pensionado(a)', 45],
      ['Hogar', female ? 35 : 4],
      ['Comerciante', 6],
      ['Agricultor(a)', 5],
      ['Trabajador(a) independiente', 5],
      ['Oficios varios', 4],
      ['Docente', 2],
    ]);
  }
  if (age < 25 && rng.chance(0.5)) return 'Estudiante';
  return rng.weighted<string>([
    ['Empleado(a)', 20],
    ['Trabajador(a) independiente', 12],
    ['Comerciante', 10],
    ['Hogar', female ? 15 : 1],
    ['Docente', 6],
    ['Conductor(a)', female ? 1 : 6],
    ['Enfermero(a)', female ? 4 : 1],
    ['Técnico(a)', 5],
    ['Ingeniero(a)', 3],
    ['Contador(a)', 2],
    ['Administrador(a)', 3],
    ['Abogado(a)', 2],
    ['Médico(a)', 1],
    ['Vendedor(a) ambulante', 3],
    ['Oficios varios', 4],
    ['Obrero(a) de construcción', female ? 0 : 4],
    ['Empleado(a) doméstico(a)', female ? 4 : 0],
    ['Desempleado(a)', 4],
    ['Vigilante', female ? 1 : 4],
    ['Mecánico(a)', female ? 0 : 2],
    ['Cocinero(a)', 2],
    ['Estilista', female ? 3 : 1],
    ['Militar o policía', 1],
    ['Agricultor(a)', 2],
  ]);
}

function pickScholarship(rng: Rng, birthYear: number): string {
  if (birthYear < 1950) {
    return rng.weighted<string>([
      ['Ninguna', 15],
      ['Primaria', 50],
      ['Secundaria', 20],
      ['Técnico', 5],
      ['Universitario', 8],
      ['Posgrado', 2],
    ]);
  }
  if (birthYear < 1976) {
    return rng.weighted<string>([
      ['Ninguna', 4],
      ['Primaria', 25],
      ['Secundaria', 35],
      ['Técnico', 12],
      ['Tecnológico', 6],
      ['Universitario', 15],
      ['Posgrado', 3],
    ]);
  }
  return rng.weighted<string>([
    ['Primaria', 8],
    ['Secundaria', 35],
    ['Técnico', 18],
    ['Tecnológico', 12],
    ['Universitario', 22],
    ['Posgrado', 5],
  ]);
}

function pickCivilStatus(rng: Rng, age: number): string {
  if (age >= 70)
    return rng.weighted<string>([
      ['Casado(a)', 40],
      ['Viudo(a)', 35],
      ['Soltero(a)', 8],
      ['Separado(a)', 8],
      ['Unión libre', 6],
      ['Divorciado(a)', 3],
    ]);
  if (age >= 40)
    return rng.weighted<string>([
      ['Casado(a)', 40],
      ['Unión libre', 22],
      ['Soltero(a)', 12],
      ['Separado(a)', 12],
      ['Divorciado(a)', 8],
      ['Viudo(a)', 6],
    ]);
  return rng.weighted<string>([
    ['Soltero(a)', 45],
    ['Unión libre', 28],
    ['Casado(a)', 20],
    ['Separado(a)', 5],
    ['Divorciado(a)', 2],
  ]);
}

function pickEapb(rng: Rng, refs: DemoReferences, city: DemoCity, occupation: string): { eapbId: number; regime: number } {
  let code: string;
  if (occupation === 'Docente' && rng.chance(0.7)) code = 'RES004';
  else if (occupation === 'Militar o policía') code = rng.pick(['RES001', 'RES003']);
  else code = rng.weighted(city.data.eapbs.filter(([candidate]) => !candidate.startsWith('RES')));
  const eapb = refs.eapbs.get(code)!;
  const regime = eapb.regimeIds.length === 1 ? eapb.regimeIds[0] : rng.chance(0.6) ? refs.regimes.contributivo : refs.regimes.subsidiado;
  return { eapbId: eapb.id, regime };
}

function buildClinicHistory(rng: Rng, tags: string[], enrolledAt: Date): string {
  const conditions = tags
    .map((name) => {
      const history = TAG_BY_NAME.get(name)?.history;
      return name === 'POSTOPERATORIO' ? `POSTOPERATORIO DE ${rng.pick(SURGERIES)}` : history;
    })
    .filter(Boolean);
  const since = `${MONTHS[enrolledAt.getUTCMonth()]} DE ${enrolledAt.getUTCFullYear()}`;
  return `ANTECEDENTES: ${conditions.join(', ')}. EN PROGRAMA DE MONITOREO REMOTO DESDE ${since}.`;
}

/** Picks exact numbers of patients for each status so small batches still show every case. */
function assignStatuses(rng: Rng, count: number, opts: DemoPatientOptions): number[] {
  const statuses = new Array<number>(count).fill(PATIENT_STATUS.active);
  const eligible = [...Array(count).keys()].filter((index) => !(opts.portalPatient && index === 0));
  const order = rng.sample(eligible, eligible.length);
  const take = (rate: number) => order.splice(0, Math.min(order.length, Math.round(count * rate)));
  for (const index of take(opts.incompleteRate ?? 0.15)) statuses[index] = PATIENT_STATUS.incomplete;
  for (const index of take(opts.inactiveRate ?? 0.05)) statuses[index] = PATIENT_STATUS.inactive;
  for (const index of take(opts.deceasedRate ?? 0.02)) statuses[index] = PATIENT_STATUS.deceased;
  return statuses;
}

function buildPatient(rng: Rng, status: number, opts: DemoPatientOptions, portal: boolean): DemoPatient {
  const { refs, now } = opts;
  const usedNids = opts.usedNids!;
  const cities = opts.cityCodes ? refs.cities.filter((c) => opts.cityCodes!.includes(c.code)) : refs.cities;
  if (cities.length === 0) throw new Error('cityCodes does not match any demo city');
  const city = portal ? cities[0] : rng.weighted(cities.map((c) => [c, c.data.weight] as const));
  const gender = portal
    ? GENDER.female
    : rng.weighted([
        [GENDER.female, 55],
        [GENDER.male, 45],
      ]);
  const birth = portal ? new Date(Date.UTC(1964, 2, 14)) : pickBirthDate(rng, opts.birthYears ?? [1930, 2005]);
  const age = computeAge(birth, now);
  const name = portal ? { firstName: 'MARÍA FERNANDA', lastName: 'GÓMEZ RESTREPO' } : buildName(rng, gender);

  if (portal && usedNids.has(opts.portalPatient!.nid)) throw new Error(`El documento ${opts.portalPatient!.nid} ya está en uso`);
  let nid = portal ? opts.portalPatient!.nid : buildCedula(rng, birth.getUTCFullYear(), gender, city.data);
  while (usedNids.has(nid)) nid = buildCedula(rng, birth.getUTCFullYear(), gender, city.data);
  usedNids.add(nid);

  const tags = portal ? ['HIPERTENSIÓN', 'DIABETES', 'ALTO RIESGO'] : pickTags(rng, age);
  const profile = buildProfile(rng, tags, gender, portal);
  if (portal) Object.assign(profile, { sessionsPerDay: 2, adherence: 0.92, excursionRate: 0.05 });

  // Most patients joined before the 90-day window; some joined inside it and have less history.
  const enrolledDaysAgo = portal ? 200 : rng.chance(0.85) ? rng.int(95, 700) : rng.int(5, 85);
  const createdAt = new Date(now.getTime() - enrolledDaysAgo * DAY_MS - rng.int(0, 600) * MINUTE_MS);
  let measuredUntil = now;
  let deceasedAt: Date | null = null;
  if (status === PATIENT_STATUS.inactive || status === PATIENT_STATUS.deceased) {
    const daysAgo = Math.min(rng.int(5, 50), Math.floor(enrolledDaysAgo / 2));
    measuredUntil = new Date(now.getTime() - daysAgo * DAY_MS - rng.int(0, 600) * MINUTE_MS);
    if (status === PATIENT_STATUS.deceased) deceasedAt = measuredUntil;
  }

  const occupation = pickOccupation(rng, age, gender);
  const { eapbId, regime } = pickEapb(rng, refs, city, occupation);
  const contact: Pick<DemoPatientRow, (typeof CONTACT_FIELDS)[number]> = {
    address: buildAddress(rng, city.code === '11001'),
    neighborhood: rng.pick(city.data.neighborhoods),
    city_id: city.id,
    prefix: refs.prefix,
    cellphone: portal ? opts.portalPatient!.cellphone : buildMobile(rng),
    email: buildEmail(rng, name.firstName, name.lastName),
  };
  if (status === PATIENT_STATUS.incomplete) {
    // E-mail is what patients most often lack; a missing address takes the neighbourhood with it.
    const missing = rng.weighted<string>([
      ['email', 50],
      ['address', 25],
      ['cellphone', 15],
      ['city_id', 10],
    ]);
    if (missing === 'address') {
      contact.address = null;
      contact.neighborhood = null;
    } else if (missing === 'cellphone') {
      contact.cellphone = null;
      contact.prefix = null;
    } else contact[missing as 'email' | 'city_id'] = null;
    if (rng.chance(0.3)) contact.email = null;
  }
  const demographicsKnown = status !== PATIENT_STATUS.incomplete || rng.chance(0.5);

  const row: DemoPatientRow = {
    id_type: refs.idType.id,
    nid,
    first_name: name.firstName,
    last_name: name.lastName,
    search_name: toSearchKey(`${name.firstName} ${name.lastName}`),
    country_id: refs.countryId,
    city_id: contact.city_id,
    birth_date: formatDateOnly(birth),
    gender,
    blood_type: rng.weighted([
      [refs.bloodTypes.O, 61],
      [refs.bloodTypes.A, 26],
      [refs.bloodTypes.B, 9],
      [refs.bloodTypes.AB, 4],
    ]),
    rh_factor: rng.chance(0.91) ? refs.rhFactors.positive : refs.rhFactors.negative,
    eapb_id: eapbId,
    regime,
    status,
    time_zone: refs.timeZone,
    clinic_history: portal || rng.chance(0.85) ? buildClinicHistory(rng, tags, createdAt) : null,
    address: contact.address,
    neighborhood: contact.neighborhood,
    prefix: contact.prefix,
    cellphone: contact.cellphone,
    email: contact.email,
    occupation: demographicsKnown ? (refs.occupations.get(occupation) ?? null) : null,
    scholarship: demographicsKnown ? (refs.scholarships.get(pickScholarship(rng, birth.getUTCFullYear())) ?? null) : null,
    civil_status: demographicsKnown ? (refs.civilStatuses.get(pickCivilStatus(rng, age)) ?? null) : null,
    deceased_at: deceasedAt,
    created_at: createdAt,
    updated_at: measuredUntil < now ? measuredUntil : createdAt,
    ...buildRdaDemographics({ nid, gender, age, known: demographicsKnown }),
  };
  return { row, tags, profile, measuredFrom: createdAt, measuredUntil };
}

/** `count` patients of one client; statuses follow D9 (incomplete contact data is status 2). */
export function buildDemoPatients(rng: Rng, count: number, opts: DemoPatientOptions): DemoPatient[] {
  const statuses = assignStatuses(rng, count, opts);
  const withNids = { ...opts, usedNids: opts.usedNids ?? new Set<string>() };
  return statuses.map((status, index) => buildPatient(rng, status, withNids, Boolean(opts.portalPatient) && index === 0));
}

// ---------------------------------------------------------------------------------------------
// Vital signs

export interface DemoMeasurement {
  clinical_element: number;
  value: number;
  when: Date;
}

const zones = new Map<string, { formatter: Intl.DateTimeFormat; offsets: Map<number, number> }>();

/**
 * Offset of the zone from UTC at an instant, in ms, cached per zone and quarter hour of UTC
 * (offsets change on a quarter hour at most). The same fact as contract/rules/dates.ts
 * zoneOffsetMs, kept here because the large seed asks millions of times: 1.8 µs a call against
 * 12.6 µs for zoneOffsetMs, which formats every call; `seed:large --patients 2000` took 6.8 and
 * 5.9 s with this cache, 6.9 and 7.0 s with zoneOffsetMs (same 672,474 rows), minutes more at the
 * benchmark's 100,000. Generated rows only: the API reads zones through dates.ts.
 */
function getZoneOffsetMs(timeZone: string, utcMs: number): number {
  let zone = zones.get(timeZone);
  if (!zone) {
    zone = {
      formatter: new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
      }),
      offsets: new Map(),
    };
    zones.set(timeZone, zone);
  }
  const slot = Math.floor(utcMs / QUARTER_HOUR_MS);
  const cached = zone.offsets.get(slot);
  if (cached !== undefined) return cached;
  const at = slot * QUARTER_HOUR_MS;
  const parts = Object.fromEntries(zone.formatter.formatToParts(new Date(at)).map((p) => [p.type, Number(p.value)]));
  const offset = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute) - at;
  zone.offsets.set(slot, offset);
  return offset;
}

/** Wall-clock time in the zone, as ms since the epoch read as if it were UTC. */
function toWallClock(timeZone: string, utcMs: number): number {
  return utcMs + getZoneOffsetMs(timeZone, utcMs);
}

/** The UTC instant at which the zone's clocks show `wallMs`, so 07:00 stays 07:00 across DST. */
function toUtcInstant(timeZone: string, wallMs: number): number {
  const guess = wallMs - getZoneOffsetMs(timeZone, wallMs);
  return wallMs - getZoneOffsetMs(timeZone, guess);
}

/** Local start windows, in minutes after midnight, of the morning, midday and evening readings. */
const SESSION_WINDOWS: Array<[number, number]> = [
  [6 * 60, 150],
  [12 * 60, 120],
  [18 * 60 + 30, 150],
];

function roundOne(value: number): number {
  return Math.round(value * 10) / 10;
}

interface DayContext {
  rng: Rng;
  timeZone: string;
  profile: VitalProfile;
  bounds: DemoReferences['bounds'];
  postoperative: boolean;
  /** Slow weight change carried from day to day. */
  weightDrift: number;
}

function clampToBounds(ctx: DayContext, element: number, value: number): number {
  const bound = ctx.bounds.get(element);
  const clamped = bound ? Math.min(bound.max, Math.max(bound.min, value)) : value;
  return roundOne(clamped);
}

/** Appends the readings of one local day (its wall-clock midnight), keeping those inside [fromMs, untilMs]. */
function appendDayReadings(ctx: DayContext, dayWallMs: number, fromMs: number, untilMs: number, out: DemoMeasurement[]) {
  const { rng, profile } = ctx;
  ctx.weightDrift = Math.max(-3, Math.min(3, ctx.weightDrift + rng.normal(0, 0.12)));
  if (!rng.chance(profile.adherence)) return;
  const sessions = Math.max(1, profile.sessionsPerDay - (rng.chance(0.1) ? 1 : 0));
  const dayEffect = rng.normal(0, 1);
  const push = (element: number, value: number, when: number) => {
    if (when < fromMs || when > untilMs) return;
    out.push({ clinical_element: element, value: clampToBounds(ctx, element, value), when: new Date(when) });
  };
  for (let session = 0; session < sessions; session++) {
    const [start, span] = SESSION_WINDOWS[session];
    const at = toUtcInstant(ctx.timeZone, dayWallMs + (start + rng.int(0, span)) * MINUTE_MS + rng.int(0, 59) * 1000);
    for (const element of profile.elements) {
      const base = profile.baselines[element];
      const excursion = rng.chance(profile.excursionRate);
      switch (element) {
        case ELEMENT.heartRate:
          // Taken by the blood-pressure cuff when there is one, so it shares the reading's time.
          push(
            element,
            excursion ? (rng.chance(0.7) ? rng.int(112, 138) : rng.int(40, 48)) : Math.round(rng.normal(base + dayEffect * 3, 5)),
            at,
          );
          break;
        case ELEMENT.oxygenSaturation:
          push(element, excursion ? rng.int(84, 89) : Math.min(100, Math.round(rng.normal(base, 1))), at + rng.int(60, 180) * 1000);
          break;
        case ELEMENT.systolic: {
          let systolic: number;
          let diastolic: number;
          if (excursion && rng.chance(0.8)) {
            systolic = rng.int(162, 192);
            diastolic = rng.int(96, 114);
          } else if (excursion) {
            systolic = rng.int(84, 92);
            diastolic = rng.int(48, 56);
          } else {
            systolic = Math.round(rng.normal(base + dayEffect * 5, 7));
            diastolic = Math.round(rng.normal(profile.baselines[ELEMENT.diastolic] + dayEffect * 3, 5));
          }
          diastolic = Math.min(diastolic, systolic - 20);
          // One cuff reading: both values carry the same instant so charts can pair them.
          push(ELEMENT.systolic, systolic, at);
          push(ELEMENT.diastolic, diastolic, at);
          break;
        }
        case ELEMENT.diastolic:
          break;
        case ELEMENT.weight:
          if (session === 0)
            push(
              element,
              excursion ? base + ctx.weightDrift + rng.float(2, 3.5) : base + ctx.weightDrift + rng.normal(0, 0.25),
              at - rng.int(5, 15) * MINUTE_MS,
            );
          break;
        case ELEMENT.glucose:
          // Fasting in the morning, after dinner in the evening.
          if (session !== 1) {
            const value = excursion
              ? rng.chance(0.75)
                ? rng.int(260, 360)
                : rng.int(48, 62)
              : Math.round(rng.normal(base + (session === 2 ? 35 : 0), session === 2 ? 18 : 12));
            push(element, value, at + rng.int(3, 10) * MINUTE_MS);
          }
          break;
        case ELEMENT.temperature:
          if (session === 0 || ctx.postoperative)
            push(element, excursion ? rng.float(38.1, 39.4) : rng.normal(base, 0.2), at + rng.int(4, 8) * MINUTE_MS);
          break;
        default:
          break;
      }
    }
  }
}

function sortReadings(readings: DemoMeasurement[]): DemoMeasurement[] {
  return readings.sort((a, b) => a.when.getTime() - b.when.getTime() || a.clinical_element - b.clinical_element);
}

function createDayContext(rng: Rng, patient: DemoPatient, refs: Pick<DemoReferences, 'bounds'>): DayContext {
  return {
    rng,
    timeZone: patient.row.time_zone,
    profile: patient.profile,
    bounds: refs.bounds,
    postoperative: patient.tags.includes('POSTOPERATORIO'),
    weightDrift: 0,
  };
}

/**
 * The patient's readings over the `days` before `now` (1 to 3 sessions a day, some days missed),
 * ascending by time. Systolic and diastolic always come in pairs with the same `when`.
 * Day boundaries follow the patient's time zone; readings never precede enrolment nor follow
 * inactivation or death.
 */
export function buildVitalSeries(
  rng: Rng,
  patient: DemoPatient,
  days: number,
  now: Date,
  refs: Pick<DemoReferences, 'bounds'>,
): DemoMeasurement[] {
  const zone = patient.row.time_zone;
  const fromMs = Math.max(now.getTime() - days * DAY_MS, patient.measuredFrom.getTime());
  const untilMs = Math.min(now.getTime(), patient.measuredUntil.getTime());
  const out: DemoMeasurement[] = [];
  if (fromMs > untilMs) return out;
  const ctx = createDayContext(rng, patient, refs);
  const lastDay = Math.floor(toWallClock(zone, untilMs) / DAY_MS) * DAY_MS;
  for (let day = Math.floor(toWallClock(zone, fromMs) / DAY_MS) * DAY_MS; day <= lastDay; day += DAY_MS) {
    appendDayReadings(ctx, day, fromMs, untilMs, out);
  }
  return sortReadings(out);
}

/**
 * The patient's latest readings, at most `count` of them, walking back day by day from the end
 * of the measured period (for benchmarks that ask for a number of measurements per patient).
 * Trimming never splits a blood-pressure pair, so the result may hold one reading fewer.
 */
export function buildRecentReadings(
  rng: Rng,
  patient: DemoPatient,
  count: number,
  now: Date,
  refs: Pick<DemoReferences, 'bounds'>,
): DemoMeasurement[] {
  const zone = patient.row.time_zone;
  const fromMs = patient.measuredFrom.getTime();
  const untilMs = Math.min(now.getTime(), patient.measuredUntil.getTime());
  const out: DemoMeasurement[] = [];
  if (count <= 0 || fromMs > untilMs) return out;
  const ctx = createDayContext(rng, patient, refs);
  const firstDay = Math.floor(toWallClock(zone, fromMs) / DAY_MS) * DAY_MS;
  for (let day = Math.floor(toWallClock(zone, untilMs) / DAY_MS) * DAY_MS; day >= firstDay && out.length < count; day -= DAY_MS) {
    appendDayReadings(ctx, day, fromMs, untilMs, out);
  }
  const sorted = sortReadings(out);
  let kept = sorted.slice(Math.max(0, sorted.length - count));
  if (kept[0]?.clinical_element === ELEMENT.diastolic) kept = kept.slice(1);
  return kept;
}

/** An allergy as the demo patient states it: a TipoAlergia code (seeds/catalogues/allergy_types.json). */
export interface DemoAllergy {
  allergy_type: string;
  description: string;
  active: boolean;
}
/** A family-history entry: a ParentescoAntecedente code, the condition and its ICD-10 CO code when known. */
export interface DemoFamilyEntry {
  relationship: string;
  description: string;
  icd10: string | null;
}

const DEMO_ALLERGIES: readonly Omit<DemoAllergy, 'active'>[] = [
  { allergy_type: '01', description: 'Penicilina: urticaria generalizada' },
  { allergy_type: '01', description: 'Ácido acetilsalicílico: broncoespasmo' },
  { allergy_type: '01', description: 'Sulfas: erupción en la piel' },
  { allergy_type: '02', description: 'Mariscos: hinchazón de labios' },
  { allergy_type: '02', description: 'Maní' },
  { allergy_type: '03', description: 'Polen y ácaros del polvo: rinitis' },
  { allergy_type: '04', description: 'Látex: dermatitis de contacto' },
  { allergy_type: '05', description: 'Picadura de abeja: reacción local extensa' },
];
const DEMO_FAMILY_HISTORY: readonly DemoFamilyEntry[] = [
  { relationship: '01', description: 'Hipertensión arterial (madre)', icd10: 'I10X' },
  { relationship: '01', description: 'Diabetes mellitus tipo 2 (padre)', icd10: 'E119' },
  { relationship: '01', description: 'Infarto agudo de miocardio (padre)', icd10: 'I219' },
  { relationship: '02', description: 'Asma (hermana)', icd10: 'J459' },
  { relationship: '02', description: 'Diabetes mellitus tipo 2 (hermano)', icd10: null },
  { relationship: '03', description: 'Cáncer de estómago (tío)', icd10: 'C169' },
  { relationship: '04', description: 'Enfermedad de Alzheimer (abuela)', icd10: 'G309' },
  { relationship: '04', description: 'Accidente cerebrovascular (abuelo)', icd10: null },
];

/**
 * The history a demo patient states for the 'RDA de paciente' (issue 51): some have none, most one
 * or two allergies (now and then one they no longer have) and up to three family-history entries.
 */
export function buildDemoHistory(rng: Rng): { allergies: DemoAllergy[]; familyHistory: DemoFamilyEntry[] } {
  const allergies = rng.chance(0.25) ? [] : rng.sample(DEMO_ALLERGIES, rng.int(1, 2)).map((a) => ({ ...a, active: !rng.chance(0.15) }));
  const familyHistory = rng.chance(0.2) ? [] : rng.sample(DEMO_FAMILY_HISTORY, rng.int(1, 3));
  return { allergies, familyHistory };
}

// ---------------------------------------------------------------------------------------------
// Teleconsultations (issue 51: their RDA)

/** A reading a demo teleconsultation reviews. */
export interface DemoReading {
  id: number;
  clinical_element: number;
  value: number;
}

/** A closed demo teleconsultation of Clínica Demo: its clinical text and which of the patient's readings it reviews. */
export interface DemoTeleconsultationPlan {
  key: string;
  /** Opened this many days before the demo's now; closed `minutes` later. */
  daysAgo: number;
  minutes: number;
  /** The readings reviewed: taken together (systolic with its diastolic), the first element chooses the patient. */
  elements: readonly number[];
  /** How many of the latest sets are reviewed. */
  readings: number;
  cups_code: string;
  reps_service: string;
  reason: string;
  /** What the findings say of the readings, before their values. */
  readingsLead: string;
  /** The rest of the findings. */
  examination: string;
  plan: string;
  diagnoses: Array<{ code: string; diagnosis_type?: string }>;
  risk: { code: string; text: string };
  /** What the patient takes, when Vigía holds no medication order of theirs. */
  medication: string;
}

export const DEMO_TELECONSULTATIONS: readonly DemoTeleconsultationPlan[] = [
  {
    key: 'hipertension',
    daysAgo: 2,
    minutes: 25,
    elements: [3, 4],
    readings: 3,
    cups_code: '890301',
    reps_service: '328',
    reason: 'Alerta de presión arterial elevada en el telemonitoreo',
    readingsLead: 'Presión arterial en las últimas lecturas del tensiómetro',
    examination: 'Refiere adherencia al tratamiento; sin cefalea, dolor torácico ni déficit neurológico.',
    plan: 'Continuar antihipertensivo y restringir la sal; medir la presión dos veces al día; nueva teleconsulta en 7 días o antes si hay síntomas.',
    diagnoses: [{ code: 'I10X', diagnosis_type: '03' }],
    risk: { code: '06', text: 'Consumo alto de sodio y poca actividad física' },
    medication: 'Losartán 50 mg tableta, 1 cada 12 horas',
  },
  {
    key: 'diabetes',
    daysAgo: 5,
    minutes: 20,
    elements: [6],
    readings: 3,
    cups_code: '890301',
    reps_service: '328',
    reason: 'Control de diabetes por telemonitoreo de glucometrías',
    readingsLead: 'Glucometrías revisadas',
    examination: 'Sin polidipsia, poliuria ni síntomas de hipoglucemia; dieta irregular los fines de semana.',
    plan: 'Reforzar el plan de alimentación; glucometría en ayunas diaria; control con hemoglobina glicosilada en 3 meses.',
    diagnoses: [{ code: 'E119', diagnosis_type: '03' }],
    risk: { code: '06', text: 'Sobrepeso y dieta alta en carbohidratos' },
    medication: 'Metformina 850 mg tableta, 1 con el almuerzo',
  },
  {
    key: 'saturacion',
    daysAgo: 9,
    minutes: 30,
    elements: [2],
    readings: 3,
    cups_code: '890301',
    reps_service: '328',
    reason: 'Seguimiento de la saturación de oxígeno en el telemonitoreo',
    readingsLead: 'Saturación de oxígeno en reposo',
    examination: 'Disnea de grandes esfuerzos sin cambios; sin fiebre ni aumento de la expectoración.',
    plan: 'Continuar inhaladores; pulsioximetría dos veces al día; consultar por urgencias si la saturación baja de 88 %.',
    diagnoses: [{ code: 'J449', diagnosis_type: '03' }],
    risk: { code: '06', text: 'Exposición previa al humo de leña' },
    medication: 'Salbutamol inhalador 100 mcg, 2 inhalaciones cada 6 horas si hay disnea',
  },
];

/** A set of readings as the findings quote it: '152/96 mmHg', '118 mg/dL'. */
export function describeDemoReadings(set: DemoReading[]): string {
  const unit = CLINICAL_ELEMENTS.find((e) => e.id === set[0]?.clinical_element)?.unit ?? '';
  return `${set.map((r) => r.value).join('/')} ${unit}`.trim();
}

/**
 * The draft a demo teleconsultation is saved with before it is closed (TeleconsultationUpdate):
 * the plan's text, and the reviewed readings (newest first) both linked and quoted in the findings.
 */
export function buildDemoTeleconsultation(plan: DemoTeleconsultationPlan, sets: DemoReading[][]) {
  return {
    cups_code: plan.cups_code,
    reps_service: plan.reps_service,
    reason: plan.reason,
    findings: `${plan.readingsLead}: ${sets.map(describeDemoReadings).join('; ')}. ${plan.examination}`,
    plan: plan.plan,
    medication_note: plan.medication,
    diagnoses: plan.diagnoses.map((d) => ({ code: d.code, diagnosis_type: d.diagnosis_type ?? null })),
    reading_ids: sets.flat().map((r) => r.id),
    risk_factors: [plan.risk],
  };
}
