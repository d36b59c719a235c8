import type { Sequelize } from 'sequelize';
import { select } from '../../db/sql.js';
import { toSearchKey } from '@vigia/contract/rules/names';
import { badRequest } from '../../http/errors.js';
import type { components } from '@vigia/contract/openapi';
import { CLINICAL_ELEMENTS } from '@vigia/contract/rules/vitals';
import { CODE_LISTS, loadCodeList, type CodeItem, type CodeListName } from './catalogues.sync.js';

type ListName = components['schemas']['ListName'];
type SearchType = components['schemas']['SearchType'];
type SearchPage = components['schemas']['SearchPage'];

interface Country {
  id: number;
  code: string;
  name: string;
  phone_prefix: string;
  time_zone: string;
}
interface City {
  id: number;
  country_id: number;
  department_id: number | null;
  name: string;
  search_name: string;
}
interface IdType {
  id: number;
  country_id: number;
  code: string;
  name: string;
  validation_regex: string;
  position: number;
}
interface Named {
  id: number;
  name: string;
  position?: number;
}
interface Eapb {
  id: number;
  code: string;
  name: string;
  regime_id: number | null;
  search_name: string;
}

export const GENDERS: Record<number, string> = { 0: 'Femenino', 1: 'Masculino', 2: 'Otro' };
/** 'Frecuencia cardiaca (lpm)': the catalogue's labels, from the contract's one table of elements. */
const CLINICAL_ELEMENT_LABELS: Record<number, string> = Object.fromEntries(CLINICAL_ELEMENTS.map((e) => [e.id, `${e.name} (${e.unit})`]));
export const ROLE_LABELS: Record<string, string> = {
  admin: 'Administrador',
  medico: 'Médico',
  enfermeria: 'Enfermería',
  consulta: 'Consulta',
};

/** A user's text for a LIKE pattern: its own % and _ must not act as wildcards. */
export function likeSafe(text: string): string {
  return text.replace(/[%_\\]/g, '');
}

/**
 * Reference catalogues are small and change only with a release, so they are read once into
 * memory: names resolve without joins and listings answer without touching the database.
 */
export interface Catalogues {
  country(id: number): Country | undefined;
  city(id: number | null): City | undefined;
  idType(id: number): IdType | undefined;
  named(table: SimpleTable, id: number | null): string | null;
  /** An RDA code list's entry ('01' in residence_zones), undefined for a code the guide does not list. */
  code(list: CodeListName, code: string | null | undefined): CodeItem | undefined;
  eapb(id: number | null): Eapb | undefined;
  /** `q` only narrows icd10co, the one list too long to answer whole (≤ 20 matches, ICD10CO_PAGE). */
  listing(name: Exclude<ListName, 'tags'>, countryId?: number, q?: string): Record<string, string>;
  idTypesFull(countryId: number): IdType[];
  search(type: Exclude<SearchType, 'tags'>, q: string, countryId: number | undefined, page: number, perPage: number): SearchPage;
}

type SimpleTable = 'blood_types' | 'rh_factors' | 'regimes' | 'occupations' | 'scholarships' | 'civil_statuses';
const SIMPLE: SimpleTable[] = ['blood_types', 'rh_factors', 'regimes', 'occupations', 'scholarships', 'civil_statuses'];

/** How many ICD-10 CO codes one search answers: enough for a picker, never the 12,634. */
export const ICD10CO_PAGE = 20;

let icd10coKeys: Array<{ code: string; name: string; key: string }> | null = null;

/**
 * ICD-10 CO codes whose code starts with `q` (dot and case ignored: 'i10' and 'I10.' find I10X)
 * or whose name holds every word of `q`, accents ignored ('hipertension esencial'); code matches
 * first, in the guide's order. An empty `q` answers the first codes.
 */
export function searchIcd10co(q: string): CodeItem[] {
  icd10coKeys ??= loadCodeList('icd10co').map((i) => ({ ...i, key: toSearchKey(i.name) }));
  const key = toSearchKey(q);
  const prefix = key.replace(/[.\s]/g, '').toUpperCase();
  const words = key.split(' ').filter(Boolean);
  const byCode = prefix ? icd10coKeys.filter((i) => i.code.startsWith(prefix)) : icd10coKeys;
  const out = byCode.slice(0, ICD10CO_PAGE);
  if (out.length < ICD10CO_PAGE && words.length) {
    for (const i of icd10coKeys) {
      if (out.length >= ICD10CO_PAGE) break;
      if (!out.includes(i) && words.every((w) => i.key.includes(w))) out.push(i);
    }
  }
  return out.map(({ code, name }) => ({ code, name }));
}

export async function loadCatalogues(sequelize: Sequelize): Promise<Catalogues> {
  const rows = <T extends object>(sql: string) => select<T>(sequelize, sql);
  const countries = await rows<Country>('SELECT id, code, name, phone_prefix, time_zone FROM countries ORDER BY name');
  const departments = await rows<Named & { country_id: number }>('SELECT id, country_id, name FROM departments ORDER BY name');
  const cities = await rows<City>('SELECT id, country_id, department_id, name, search_name FROM cities ORDER BY name');
  const idTypes = await rows<IdType>('SELECT id, country_id, code, name, validation_regex, position FROM id_types ORDER BY position, id');
  const eapbs = await rows<Eapb>('SELECT id, code, name, regime_id, search_name FROM eapbs ORDER BY name');
  const simple = new Map<SimpleTable, Named[]>();
  for (const t of SIMPLE) simple.set(t, await rows<Named>(`SELECT id, name, position FROM ${t} ORDER BY position, id`));

  const byId = <T extends { id: number }>(rows: T[]) => new Map(rows.map((r) => [r.id, r]));
  const codeLists = new Map(CODE_LISTS.map((name) => [name, new Map(loadCodeList(name).map((i) => [i.code, i]))]));
  const isCodeList = (name: string): name is CodeListName => codeLists.has(name as CodeListName);
  const countryById = byId(countries);
  const cityById = byId(cities);
  // Spanish order whatever the database's collation ('Ábrego' among the A's): the order of a
  // search without text, the first page the new-patient form shows before anything is typed.
  const citiesByName = [...cities].sort((a, b) => a.name.localeCompare(b.name, 'es') || a.id - b.id);
  const idTypeById = byId(idTypes);
  const eapbById = byId(eapbs);
  const deptById = byId(departments);
  const simpleById = new Map(SIMPLE.map((t) => [t, byId(simple.get(t)!)]));
  const toMap = (rows: Array<{ id: number; name: string }>) => Object.fromEntries(rows.map((r) => [String(r.id), r.name]));
  const requireCountry = (countryId: number | undefined, field = 'country_id') => {
    if (!countryId) throw badRequest(field, '¡El campo es requerido!');
    return countryId;
  };

  return {
    country: (id) => countryById.get(id),
    city: (id) => (id == null ? undefined : cityById.get(id)),
    idType: (id) => idTypeById.get(id),
    eapb: (id) => (id == null ? undefined : eapbById.get(id)),
    named: (table, id) => (id == null ? null : (simpleById.get(table)!.get(id)?.name ?? null)),
    code: (list, code) => (code == null ? undefined : codeLists.get(list)!.get(code)),
    idTypesFull: (countryId) => idTypes.filter((t) => t.country_id === countryId),
    listing(name, countryId, q) {
      if (name === 'icd10co') return Object.fromEntries(searchIcd10co(q ?? '').map((i) => [i.code, i.name]));
      if (isCodeList(name)) return Object.fromEntries([...codeLists.get(name)!.values()].map((i) => [i.code, i.name]));
      switch (name) {
        case 'countries':
          return toMap(countries);
        case 'prefixes':
          return Object.fromEntries(countries.map((c) => [String(c.id), `${c.phone_prefix} ${c.name}`]));
        case 'departments':
          return toMap(departments.filter((d) => d.country_id === requireCountry(countryId)));
        case 'cities':
          return toMap(cities.filter((c) => c.country_id === requireCountry(countryId)));
        case 'id_types':
          return Object.fromEntries(idTypes.filter((t) => t.country_id === requireCountry(countryId)).map((t) => [String(t.id), t.name]));
        case 'eapbs':
          return toMap(eapbs);
        case 'genders':
          return Object.fromEntries(Object.entries(GENDERS));
        case 'clinical_elements':
          return Object.fromEntries(Object.entries(CLINICAL_ELEMENT_LABELS));
        case 'roles':
          return ROLE_LABELS;
        default:
          return toMap(simple.get(name)!);
      }
    },
    search(type, q, countryId, page, perPage) {
      const key = toSearchKey(q ?? '');
      let rows: Array<{ id: number; name: string; detail: string | null }>;
      if (type === 'cities') {
        rows = citiesByName
          .filter((c) => (!countryId || c.country_id === countryId) && (!key || c.search_name.includes(key)))
          .map((c) => ({ id: c.id, name: c.name, detail: c.department_id ? (deptById.get(c.department_id)?.name ?? null) : null }));
        // Names that start with the query come first: 'cali' should find Cali before Calima.
        if (key) rows.sort((a, b) => Number(!toSearchKey(a.name).startsWith(key)) - Number(!toSearchKey(b.name).startsWith(key)));
      } else if (type === 'eapbs') {
        rows = eapbs
          .filter((e) => !key || e.search_name.includes(key) || e.code.toLowerCase().includes(key))
          .map((e) => ({ id: e.id, name: e.name, detail: e.code }));
      } else if (type === 'countries') {
        rows = countries
          .filter((c) => !key || toSearchKey(c.name).includes(key))
          .map((c) => ({ id: c.id, name: c.name, detail: c.phone_prefix }));
      } else {
        rows = simple
          .get('occupations')!
          .filter((o) => !key || toSearchKey(o.name).includes(key))
          .map((o) => ({ id: o.id, name: o.name, detail: null }));
      }
      const start = (page - 1) * perPage;
      return { data: { data: rows.slice(start, start + perPage), total: rows.length, page, per_page: perPage } };
    },
  };
}
