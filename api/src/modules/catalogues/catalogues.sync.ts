import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rootPath } from '../../paths.js';
import type { QueryInterface, Transaction } from 'sequelize';

/**
 * Reference catalogues shipped with the product. The JSON files in seeds/catalogues/ are
 * written by seeds/build-catalogues.ts and committed, so a deployment never reads the shared
 * research folder; this module loads them and upserts them into the catalogue tables.
 */

export interface CountryItem {
  id: number;
  code: string;
  name: string;
  phone_prefix: string;
  time_zone: string;
}
export interface DepartmentItem {
  id: number;
  country_id: number;
  code: string;
  name: string;
}
export interface CityItem {
  id: number;
  country_id: number;
  department_id: number | null;
  code: string;
  name: string;
  search_name: string;
}
export interface IdTypeItem {
  id: number;
  country_id: number;
  code: string;
  name: string;
  validation_regex: string;
  approximate: boolean;
  position: number;
}
/** blood_types, rh_factors, regimes, occupations, scholarships, civil_statuses share this shape. */
export interface SimpleItem {
  id: number;
  name: string;
  position: number;
}
interface EapbCode {
  code: string;
  regime_id: number;
  role: 'principal' | 'movilidad';
}
export interface EapbItem {
  id: number;
  code: string;
  name: string;
  nit: string | null;
  /** Null when the entity serves more than one regime: `codes` then tells which code is for which. */
  regime_id: number | null;
  codes: EapbCode[];
  search_name: string;
}
/** Not a table: the seven clinical elements of DECISIONS D6 with their entry bounds. */
export interface ClinicalElementItem {
  id: number;
  key: string;
  name: string;
  unit: string;
  loinc: string;
  ucum: string;
  panel_loinc: string | null;
  input_min: number;
  input_max: number;
}

/**
 * Not tables: the RDA's code lists (seeds/rda-catalogues.ts), copied from the Ministry's guide.
 * Rows store the code itself ('01' Urbana), the code the RDA sends.
 */
export interface CodeItem {
  code: string;
  name: string;
  /** nationalities only: the ISO 3166-1 alpha-2 code of the same country ('CO' for '170'). */
  alpha2?: string;
}
export const CODE_LISTS = [
  'biological_sexes',
  'gender_identities',
  'ethnicities',
  'disabilities',
  'residence_zones',
  'nationalities',
  'professions',
  'provider_classes',
  'legal_natures',
  'care_levels',
  'tech_modalities',
  'allergy_types',
  'family_relationships',
  'cups_consultations',
  'reps_services',
  'care_environments',
  'service_groups',
  'external_causes',
  'diagnosis_types',
  'license_scopes',
  'risk_factors',
  'ciuo_occupations',
  'icd10co',
] as const;
export type CodeListName = (typeof CODE_LISTS)[number];

export interface CatalogueItems {
  countries: CountryItem;
  departments: DepartmentItem;
  cities: CityItem;
  id_types: IdTypeItem;
  blood_types: SimpleItem;
  rh_factors: SimpleItem;
  regimes: SimpleItem;
  occupations: SimpleItem;
  scholarships: SimpleItem;
  civil_statuses: SimpleItem;
  eapbs: EapbItem;
  clinical_elements: ClinicalElementItem;
}
export type CatalogueName = keyof CatalogueItems;
interface CatalogueFile<T> {
  source: string;
  items: T[];
}

/** Tables in foreign-key order: a table comes after every table it references. */
const CATALOGUE_TABLES = [
  'countries',
  'departments',
  'cities',
  'id_types',
  'blood_types',
  'rh_factors',
  'regimes',
  'occupations',
  'scholarships',
  'civil_statuses',
  'eapbs',
] as const satisfies readonly CatalogueName[];

const CATALOGUE_NAMES = [...CATALOGUE_TABLES, 'clinical_elements'] as const satisfies readonly CatalogueName[];

const HASH_KEY = 'catalogues_hash';
/** Bump when the way rows are written changes, so existing databases are rewritten once. */
const SYNC_VERSION = '1';
/** SQLite allows 32,766 bound variables per statement; 500 rows stays far below it for any table. */
const CHUNK_ROWS = 500;

/** A code list of the RDA, read once from its committed file. */
const codeLists = new Map<CodeListName, CodeItem[]>();
export function loadCodeList(name: CodeListName): CodeItem[] {
  let items = codeLists.get(name);
  if (!items) {
    items = (JSON.parse(readFileSync(rootPath('seeds/catalogues', `${name}.json`), 'utf8')) as CatalogueFile<CodeItem>).items;
    codeLists.set(name, items);
  }
  return items;
}

function resolveCatalogueFile(name: CatalogueName): string {
  return rootPath('seeds/catalogues', `${name}.json`);
}

const cache = new Map<CatalogueName, { text: string; file: CatalogueFile<unknown> }>();

function readCatalogue(name: CatalogueName) {
  let entry = cache.get(name);
  if (!entry) {
    const text = readFileSync(resolveCatalogueFile(name), 'utf8');
    entry = { text, file: JSON.parse(text) as CatalogueFile<unknown> };
    cache.set(name, entry);
  }
  return entry;
}

export function loadCatalogue<N extends CatalogueName>(name: N): CatalogueItems[N][] {
  return readCatalogue(name).file.items as CatalogueItems[N][];
}

export type Catalogues = { [N in CatalogueName]: CatalogueItems[N][] };

export function loadCatalogues(): Catalogues {
  return Object.fromEntries(CATALOGUE_NAMES.map((name) => [name, loadCatalogue(name)])) as Catalogues;
}

/** Hash of the committed files themselves, so any edit to a catalogue triggers a resync. */
function computeCataloguesHash(): string {
  const hash = createHash('sha256').update(`v${SYNC_VERSION}\n`);
  for (const name of CATALOGUE_TABLES) hash.update(`${name}\n`).update(readCatalogue(name).text);
  return hash.digest('hex');
}

export interface SyncCataloguesOptions {
  /** Run inside the caller's transaction instead of opening one. */
  transaction?: Transaction;
  /** Rewrite the tables even when the stored hash matches. */
  force?: boolean;
}

export interface SyncCataloguesResult {
  changed: boolean;
  hash: string;
  counts: Partial<Record<(typeof CATALOGUE_TABLES)[number], number>>;
}

function toRow(table: (typeof CATALOGUE_TABLES)[number], item: object): Record<string, unknown> {
  // The JSON column goes in as text: Sequelize would turn a bare array into a PostgreSQL ARRAY literal.
  if (table === 'eapbs') return { ...item, codes: JSON.stringify((item as EapbItem).codes) };
  return { ...item };
}

/**
 * Upserts every catalogue by id. Rows are never deleted: ids are permanent and patients may
 * still point at an entry that the source no longer lists.
 */
export async function syncCatalogues(qi: QueryInterface, opts: SyncCataloguesOptions = {}): Promise<SyncCataloguesResult> {
  const hash = computeCataloguesHash();
  const sequelize = qi.sequelize;

  const run = async (transaction: Transaction): Promise<SyncCataloguesResult> => {
    const [stored] = (await sequelize.query('SELECT "value" FROM "app_meta" WHERE "key" = :key', {
      replacements: { key: HASH_KEY },
      transaction,
      raw: true,
    })) as [Array<{ value: string }>, unknown];
    if (!opts.force && stored[0]?.value === hash) return { changed: false, hash, counts: {} };

    const counts: SyncCataloguesResult['counts'] = {};
    for (const table of CATALOGUE_TABLES) {
      const items = loadCatalogue(table) as object[];
      const columns = Object.keys(items[0] ?? {}).filter((column) => column !== 'id');
      for (let start = 0; start < items.length; start += CHUNK_ROWS) {
        const rows = items.slice(start, start + CHUNK_ROWS).map((item) => toRow(table, item));
        const options = { transaction, updateOnDuplicate: columns, upsertKeys: ['id'] };
        await qi.bulkInsert(table, rows, options);
      }
      counts[table] = items.length;
    }
    await sequelize.query(
      'INSERT INTO "app_meta" ("key", "value") VALUES (:key, :value) ON CONFLICT ("key") DO UPDATE SET "value" = EXCLUDED."value"',
      { replacements: { key: HASH_KEY, value: hash }, transaction },
    );
    return { changed: true, hash, counts };
  };

  if (opts.transaction) return run(opts.transaction);
  return sequelize.transaction((transaction) => run(transaction));
}
