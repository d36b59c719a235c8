/**
 * Builds the committed catalogue files in seeds/catalogues/ from the shared reference data
 * (`npm run seed:catalogues`). Run it again when the reference data changes and commit the diff.
 *
 * Ids are part of the contract (patients, users and integrators store them), so every id is
 * either written in a table below or derived from an official code that is never reused:
 *   - countries: the COUNTRY_IDS map; Colombia is 26 because the product and its callers treat
 *     country 26 as Colombia (insurer fields, default country).
 *   - departments: country id × 100 + the official department/province code (Cundinamarca 2625,
 *     Bogotá D.C. 2611, Madrid province 828).
 *   - cities: country id × 100,000 + the official 5-digit municipality code (DANE DIVIPOLA for
 *     Colombia, INE for Spain): Bogotá 2611001, Medellín 2605001, Cali 2676001, Madrid 828079.
 *   - id types, insurers and the small lists: the tables below; new entries get new ids at the end.
 * Sources: --data DIR, or VIGIA_SHARED_DATA, or ../shared/data beside the repository; the RDA's
 * code lists (seeds/rda-catalogues.ts) from --guide DIR, or VIGIA_RDA_GUIDE, or
 * ../shared/fhir/rda-0.7.1.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type {
  CatalogueName,
  CityItem,
  ClinicalElementItem,
  CountryItem,
  DepartmentItem,
  EapbItem,
  IdTypeItem,
  SimpleItem,
} from '../api/src/modules/catalogues/catalogues.sync.js';
import { toSearchKey } from '@vigia/contract/rules/names';
import { CLINICAL_ELEMENTS } from '@vigia/contract/rules/vitals';
import { buildRdaCatalogues } from './rda-catalogues.js';

const seedsDir = path.dirname(fileURLToPath(import.meta.url));

/** Never renumber. A country added to the source needs an id here (22–25 are free, then 27 on). */
export const COUNTRY_IDS: Record<string, number> = {
  AR: 1,
  BO: 2,
  CL: 3,
  CR: 4,
  CU: 5,
  EC: 6,
  SV: 7,
  ES: 8,
  US: 9,
  GT: 10,
  HN: 11,
  MX: 12,
  NI: 13,
  PA: 14,
  PY: 15,
  PE: 16,
  PT: 17,
  PR: 18,
  DO: 19,
  UY: 20,
  VE: 21,
  CO: 26,
};

/**
 * Id type ids by country and source code, in the order Colombian staff pick them (the list's
 * position follows the id). 1 must stay CC: the product's default id type is 1.
 * The Spanish passport is stored as 'PA' (the RIPS code for a passport) because the source's
 * 'PASAPORTE' does not fit id_types.code (8 characters).
 */
const ID_TYPE_IDS: Array<{ country: string; code: string; id: number; storedCode?: string }> = [
  { country: 'CO', code: 'CC', id: 1 },
  { country: 'CO', code: 'TI', id: 2 },
  { country: 'CO', code: 'RC', id: 3 },
  { country: 'CO', code: 'CE', id: 4 },
  { country: 'CO', code: 'PA', id: 5 },
  { country: 'CO', code: 'PT', id: 6 },
  { country: 'CO', code: 'PE', id: 7 },
  { country: 'CO', code: 'NU', id: 8 },
  { country: 'CO', code: 'SC', id: 9 },
  { country: 'CO', code: 'CD', id: 10 },
  { country: 'CO', code: 'CN', id: 11 },
  { country: 'CO', code: 'DE', id: 12 },
  { country: 'CO', code: 'AS', id: 13 },
  { country: 'CO', code: 'MS', id: 14 },
  { country: 'CO', code: 'SI', id: 15 },
  { country: 'ES', code: 'DNI', id: 16 },
  { country: 'ES', code: 'NIE', id: 17 },
  { country: 'ES', code: 'TIE', id: 18 },
  { country: 'ES', code: 'PASAPORTE', id: 19, storedCode: 'PA' },
];

/** Regime ids by source code; the name drops the source's leading 'Régimen' because the form label says it. */
const REGIMES: Array<{ code: string; id: number; name: string }> = [
  { code: 'contributivo', id: 1, name: 'Contributivo' },
  { code: 'subsidiado', id: 2, name: 'Subsidiado' },
  { code: 'especial_excepcion', id: 3, name: 'Especial o de excepción' },
];

/** Insurer ids by principal code, in source order. */
const EAPB_IDS: Record<string, number> = {
  ESS024: 1,
  EPS037: 2,
  ESS207: 3,
  EPS001: 4,
  EPS002: 5,
  EPS005: 6,
  EPS010: 7,
  EPS017: 8,
  EPS018: 9,
  EPS046: 10,
  EPS012: 11,
  EPS008: 12,
  EAS016: 13,
  EAS027: 14,
  CCF055: 15,
  EPS025: 16,
  CCF102: 17,
  CCF050: 18,
  CCF033: 19,
  ESS062: 20,
  ESS118: 21,
  EPSS34: 22,
  EPSS40: 23,
  EPSI01: 24,
  EPSI03: 25,
  EPSI04: 26,
  EPSI05: 27,
  EPSI06: 28,
  EPS047: 29,
  RES001: 30,
  RES002: 31,
  RES003: 32,
  RES004: 33,
  RES005: 34,
  RES006: 35,
  RES007: 36,
  RES008: 37,
  RES009: 38,
  RES010: 39,
  RES011: 40,
  RES012: 41,
  RES013: 42,
  RES014: 43,
};

const OWN_SOURCE = 'Vigía: lists as used on Colombian clinical intake forms, written in seeds/build-catalogues.ts';

/** The Rh factor is shown beside the ABO group ('O' 'Positivo'), so full words rather than '+' / '-'. */
const BLOOD_TYPES = ['A', 'B', 'AB', 'O'];
const RH_FACTORS = ['Positivo', 'Negativo'];
const SCHOLARSHIPS = ['Ninguna', 'Primaria', 'Secundaria', 'Técnico', 'Tecnológico', 'Universitario', 'Posgrado'];
const CIVIL_STATUSES = ['Soltero(a)', 'Casado(a)', 'Unión libre', 'Separado(a)', 'Divorciado(a)', 'Viudo(a)'];
/** Id order is this list's order; the position sorts them alphabetically with 'Otra' last. */
const OCCUPATIONS = [
  'Hogar',
  'Pensionado(a)',
  'Docente',
  'Agricultor(a)',
  'Comerciante',
  'Empleado(a)',
  'Trabajador(a) independiente',
  'Estudiante',
  'Desempleado(a)',
  'Conductor(a)',
  'Obrero(a) de construcción',
  'Vendedor(a) ambulante',
  'Oficios varios',
  'Empleado(a) doméstico(a)',
  'Enfermero(a)',
  'Médico(a)',
  'Ingeniero(a)',
  'Abogado(a)',
  'Contador(a)',
  'Administrador(a)',
  'Técnico(a)',
  'Mecánico(a)',
  'Cocinero(a)',
  'Vigilante',
  'Estilista',
  'Militar o policía',
  'Otra',
];

/** Short unit labels of DECISIONS D6, keyed by clinical element id (contract/rules/vitals.ts). */
const ELEMENT_UNITS: Record<number, string> = Object.fromEntries(CLINICAL_ELEMENTS.map((e) => [e.id, e.unit]));

interface SourceFile<T> {
  source: string;
  retrieved?: string;
  items: T[];
}

function readSource<T>(dataDir: string, file: string): SourceFile<T> & Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(dataDir, file), 'utf8'));
}

function describeSource(file: string, data: { source: string; retrieved?: string }): string {
  return `${file}: ${data.source}${data.retrieved ? ` (retrieved ${data.retrieved})` : ''}`;
}

function requireId<K>(map: Map<K, number> | Record<string, number>, key: K, what: string): number {
  const id = map instanceof Map ? map.get(key) : (map as Record<string, number>)[key as string];
  if (id === undefined) throw new Error(`No id assigned for ${what} ${String(key)}: add it to seeds/build-catalogues.ts`);
  return id;
}

function assertUniqueIds(name: string, items: Array<{ id: number }>) {
  const seen = new Set<number>();
  for (const { id } of items) {
    if (!Number.isInteger(id) || id <= 0) throw new Error(`${name}: invalid id ${id}`);
    if (seen.has(id)) throw new Error(`${name}: duplicate id ${id}`);
    seen.add(id);
  }
}

function buildSimple(names: string[], positions?: number[]): SimpleItem[] {
  return names.map((name, index) => ({ id: index + 1, name, position: positions?.[index] ?? index + 1 }));
}

interface SourceCountry {
  code: string;
  name: string;
  phone_prefix: string;
  time_zone: string;
}
interface SourceDivipola {
  code: string;
  name: string;
  department_code: string;
}
interface SourceProvince {
  code: string;
  name: string;
  capital: { code: string; name: string };
}
interface SourceIdType {
  code: string;
  name: string;
  country: string;
  regex: string;
  approximate: boolean;
}
interface SourceEapb {
  code: string;
  name: string;
  nit?: string;
  regimes: string[];
  codes: Array<{ code: string; regime: string; role: 'principal' | 'movilidad' }>;
}
interface SourceVital {
  id: number;
  key: string;
  display_es: string;
  loinc: string;
  ucum: string;
  input_min: number;
  input_max: number;
}

export function buildCatalogues(dataDir: string): Record<CatalogueName, { source: string; items: object[] }> {
  const countriesSrc = readSource<SourceCountry>(dataDir, 'countries.json');
  const countries: CountryItem[] = countriesSrc.items
    .map((c) => ({
      id: requireId(COUNTRY_IDS, c.code, 'country'),
      code: c.code,
      name: c.name,
      phone_prefix: c.phone_prefix,
      time_zone: c.time_zone,
    }))
    .sort((a, b) => a.id - b.id);
  const co = requireId(COUNTRY_IDS, 'CO', 'country');
  const es = requireId(COUNTRY_IDS, 'ES', 'country');

  const divipola = readSource<SourceDivipola>(dataDir, 'co-divipola.json');
  const provinces = readSource<SourceProvince>(dataDir, 'es-provinces.json');
  const departments: DepartmentItem[] = [
    ...(divipola.departments as Array<{ code: string; name: string }>).map((d) => ({
      id: co * 100 + Number(d.code),
      country_id: co,
      code: d.code,
      name: d.name,
    })),
    ...provinces.items.map((p) => ({ id: es * 100 + Number(p.code), country_id: es, code: p.code, name: p.name })),
  ];
  const departmentId = new Map(departments.map((d) => [`${d.country_id}:${d.code}`, d.id]));
  const cities: CityItem[] = [
    ...divipola.items.map((m) => ({
      id: co * 100_000 + Number(m.code),
      country_id: co,
      department_id: requireId(departmentId, `${co}:${m.department_code}`, 'department'),
      code: m.code,
      name: m.name,
      search_name: toSearchKey(m.name),
    })),
    ...provinces.items.map((p) => ({
      id: es * 100_000 + Number(p.capital.code),
      country_id: es,
      department_id: requireId(departmentId, `${es}:${p.code}`, 'department'),
      code: p.capital.code,
      name: p.capital.name,
      search_name: toSearchKey(p.capital.name),
    })),
  ];

  const idTypesSrc = readSource<SourceIdType>(dataDir, 'id-types.json');
  const idTypeIds = new Map(ID_TYPE_IDS.map((t) => [`${t.country}:${t.code}`, t]));
  const idTypes: IdTypeItem[] = idTypesSrc.items
    .map((t) => {
      const assigned = idTypeIds.get(`${t.country}:${t.code}`);
      if (!assigned) throw new Error(`No id assigned for id type ${t.country}:${t.code}: add it to ID_TYPE_IDS`);
      return {
        id: assigned.id,
        country_id: requireId(COUNTRY_IDS, t.country, 'country'),
        code: assigned.storedCode ?? t.code,
        name: t.name,
        validation_regex: t.regex,
        approximate: t.approximate,
        position: 0,
      };
    })
    .sort((a, b) => a.id - b.id);
  for (const countryId of new Set(idTypes.map((t) => t.country_id))) {
    idTypes
      .filter((t) => t.country_id === countryId)
      .forEach((t, index) => {
        t.position = index + 1;
      });
  }
  if (idTypes[0]?.id !== 1 || idTypes[0].code !== 'CC' || idTypes[0].country_id !== co) {
    throw new Error('id type 1 must be the Colombian CC (the product default)');
  }

  const eapbSrc = readSource<SourceEapb>(dataDir, 'co-eapb.json');
  const regimeSrc = eapbSrc.regimes as Array<{ code: string }>;
  const regimeIds = new Map(REGIMES.map((r) => [r.code, r.id]));
  for (const r of regimeSrc) requireId(regimeIds, r.code, 'regime');
  const regimes: SimpleItem[] = REGIMES.map((r, index) => ({ id: r.id, name: r.name, position: index + 1 }));
  const eapbs: EapbItem[] = eapbSrc.items
    .map((e) => ({
      id: requireId(EAPB_IDS, e.code, 'insurer'),
      code: e.code,
      name: e.name,
      nit: e.nit ?? null,
      regime_id: e.regimes.length === 1 ? requireId(regimeIds, e.regimes[0], 'regime') : null,
      codes: e.codes.map((c) => ({ code: c.code, regime_id: requireId(regimeIds, c.regime, 'regime'), role: c.role })),
      search_name: toSearchKey(e.name),
    }))
    .sort((a, b) => a.id - b.id);

  const vitals = readSource<SourceVital>(dataDir, 'vitals-loinc.json');
  const panel = vitals.panel as { loinc: string; components: string[] };
  const clinicalElements: ClinicalElementItem[] = vitals.items.map((v) => {
    const unit = ELEMENT_UNITS[v.id];
    if (!unit) throw new Error(`No unit label for clinical element ${v.id}: add it to CLINICAL_ELEMENTS in contract/rules/vitals.ts`);
    return {
      id: v.id,
      key: v.key,
      name: v.display_es,
      unit,
      loinc: v.loinc,
      ucum: v.ucum,
      panel_loinc: panel.components.includes(v.loinc) ? panel.loinc : null,
      input_min: v.input_min,
      input_max: v.input_max,
    };
  });

  const occupationOrder = [...OCCUPATIONS].sort((a, b) => (a === 'Otra' ? 1 : b === 'Otra' ? -1 : a.localeCompare(b, 'es')));
  const result: Record<CatalogueName, { source: string; items: object[] }> = {
    countries: { source: describeSource('countries.json', countriesSrc), items: countries },
    departments: {
      source: `${describeSource('co-divipola.json', divipola)}; ${describeSource('es-provinces.json', provinces)}`,
      items: departments,
    },
    cities: {
      source: `${describeSource('co-divipola.json', divipola)}; Spain: province capitals from ${describeSource('es-provinces.json', provinces)}`,
      items: cities,
    },
    id_types: { source: describeSource('id-types.json', idTypesSrc), items: idTypes },
    blood_types: { source: OWN_SOURCE, items: buildSimple(BLOOD_TYPES) },
    rh_factors: { source: OWN_SOURCE, items: buildSimple(RH_FACTORS) },
    regimes: { source: describeSource('co-eapb.json', eapbSrc), items: regimes },
    occupations: {
      source: OWN_SOURCE,
      items: buildSimple(
        OCCUPATIONS,
        OCCUPATIONS.map((name) => occupationOrder.indexOf(name) + 1),
      ),
    },
    scholarships: { source: OWN_SOURCE, items: buildSimple(SCHOLARSHIPS) },
    civil_statuses: { source: OWN_SOURCE, items: buildSimple(CIVIL_STATUSES) },
    eapbs: { source: describeSource('co-eapb.json', eapbSrc), items: eapbs },
    clinical_elements: { source: describeSource('vitals-loinc.json', vitals), items: clinicalElements },
  };
  for (const [name, file] of Object.entries(result)) assertUniqueIds(name, file.items as Array<{ id: number }>);
  return result;
}

function resolveDataDir(argv: string[]): string {
  const flag = argv.indexOf('--data');
  if (flag >= 0 && argv[flag + 1]) return path.resolve(argv[flag + 1]);
  if (process.env.VIGIA_SHARED_DATA) return path.resolve(process.env.VIGIA_SHARED_DATA);
  return path.resolve(seedsDir, '../../shared/data');
}

/** The RDA guide's folder (its CodeSystems are the source of the RDA code lists). */
export function resolveGuideDir(argv: string[] = []): string {
  const flag = argv.indexOf('--guide');
  if (flag >= 0 && argv[flag + 1]) return path.resolve(argv[flag + 1]);
  if (process.env.VIGIA_RDA_GUIDE) return path.resolve(process.env.VIGIA_RDA_GUIDE);
  return path.resolve(seedsDir, '../../shared/fhir/rda-0.7.1');
}

/** One item per line: a source update then reads as one changed line per changed entry. */
function formatCatalogue(file: { source: string; items: object[] }): string {
  const items = file.items.map((item) => `    ${JSON.stringify(item)}`).join(',\n');
  return `{\n  "source": ${JSON.stringify(file.source)},\n  "items": [\n${items}\n  ]\n}\n`;
}

export function formatCatalogueFile(file: { source: string; items: object[] }): string {
  return formatCatalogue(file);
}

function writeCatalogues(outDir: string, catalogues: Record<string, { source: string; items: object[] }>) {
  mkdirSync(outDir, { recursive: true });
  for (const [name, file] of Object.entries(catalogues)) {
    writeFileSync(path.join(outDir, `${name}.json`), formatCatalogue(file));
    console.log(`${name}.json: ${file.items.length}`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dataDir = resolveDataDir(process.argv.slice(2));
  const argv = process.argv.slice(2);
  writeCatalogues(path.join(seedsDir, 'catalogues'), { ...buildCatalogues(dataDir), ...buildRdaCatalogues(resolveGuideDir(argv)) });
}
