/**
 * FHIR R4 search parameters (issue 37), pure: the types the read/search API serves, their
 * parameters (the CapabilityStatement and the router read the same table), and the parsing of
 * dates, tokens, `_count` and the keyset cursor, with Spanish errors that name the parameter.
 *
 * Sources: FHIR R4 §3.1.1 Search (prefixes eq/ne/gt/lt/ge/le, a date's precision as its range,
 * tokens `system|code`, `_count`, `_summary=count`, `_sort`, handling=strict in RFC 7240's Prefer).
 */

export type ParamType = 'token' | 'string' | 'date' | 'reference' | 'number' | 'special';

export interface SearchParamDef {
  name: string;
  type: ParamType;
  documentation: string;
}

/** What every type accepts besides its own parameters. */
export const COMMON_PARAMS = ['_count', '_summary', '_total', '_cursor', '_format'] as const;

const ID = (what: string, letter: string) =>
  ({ name: '_id', type: 'token', documentation: `Id de${what} (${letter}<número>); lista separada por comas` }) as const;
const LAST_UPDATED = (column: string) =>
  ({ name: '_lastUpdated', type: 'date', documentation: `${column} con prefijo eq, ge, le, gt o lt; dos veces para un rango` }) as const;
const PATIENT = {
  name: 'patient',
  type: 'reference',
  documentation: 'Paciente: Patient/p<número> o p<número>; lista separada por comas',
} as const;
const SUBJECT = { name: 'subject', type: 'reference', documentation: 'Igual que patient' } as const;

/** The types served and their search parameters: the router and the CapabilityStatement read this. */
export const SEARCH_TYPES = {
  Patient: [
    ID('l paciente', 'p'),
    { name: 'identifier', type: 'token', documentation: 'Documento: sistema|valor o solo el valor' },
    { name: 'name', type: 'string', documentation: 'Comienzo de cualquier palabra del nombre o apellidos' },
    { name: 'family', type: 'string', documentation: 'Comienzo de los apellidos' },
    { name: 'birthdate', type: 'date', documentation: 'Fecha de nacimiento con prefijo eq, ge, le, gt o lt' },
    { name: 'active', type: 'token', documentation: 'true: todo estado salvo inactivo; false: inactivo' },
    { name: '_lastUpdated', type: 'date', documentation: 'Última modificación con prefijo eq, ge, le, gt o lt' },
  ],
  Observation: [
    PATIENT,
    SUBJECT,
    { name: 'code', type: 'token', documentation: 'Código LOINC (sistema|código), lista separada por comas' },
    { name: 'category', type: 'token', documentation: 'vital-signs o laboratory' },
    { name: 'date', type: 'date', documentation: 'Momento de la lectura con prefijo; dos veces para un rango' },
    { name: '_sort', type: 'special', documentation: 'date, -date o _lastUpdated' },
    ID(' la lectura', 'm'),
    LAST_UPDATED('Momento en que se guardó la lectura'),
  ],
  DetectedIssue: [
    PATIENT,
    { name: 'identified', type: 'date', documentation: 'Momento en que se abrió la alerta, con prefijo' },
    ID(' la alerta', 'a'),
    LAST_UPDATED('Última modificación de la alerta'),
  ],
  Condition: [
    PATIENT,
    SUBJECT,
    { name: 'clinical-status', type: 'token', documentation: 'active o resolved' },
    ID(' la condición', 'c'),
    LAST_UPDATED('Última modificación de la condición'),
  ],
  Device: [
    { ...PATIENT, documentation: 'Paciente al que está asignada la pasarela (tarjeta de un solo paciente)' },
    ID(' la pasarela', 'd'),
    LAST_UPDATED('Última modificación de la pasarela'),
  ],
  RelatedPerson: [
    PATIENT,
    { name: '_id', type: 'token', documentation: 'Id del cuidador de un paciente (r<paciente>-<cuidador>); lista separada por comas' },
    LAST_UPDATED('Última modificación del cuidador o de su vínculo'),
  ],
  MedicationRequest: [
    PATIENT,
    SUBJECT,
    { name: 'status', type: 'token', documentation: 'draft, active, cancelled o completed; lista separada por comas' },
    ID(' la orden de medicamento', 'x'),
    LAST_UPDATED('Última modificación de la orden'),
  ],
  ServiceRequest: [
    PATIENT,
    SUBJECT,
    { name: 'status', type: 'token', documentation: 'draft, active, revoked o completed; lista separada por comas' },
    ID(' la orden de medición', 's'),
    LAST_UPDATED('Última modificación de la orden'),
  ],
  Group: [
    { name: 'name', type: 'string', documentation: 'Comienzo del nombre de la etiqueta, sin distinguir mayúsculas' },
    ID(' la etiqueta', 'g'),
    LAST_UPDATED('Última modificación de la etiqueta'),
  ],
  Composition: [
    PATIENT,
    SUBJECT,
    {
      name: 'type',
      type: 'token',
      documentation: 'Tipo de RDA (LOINC): 51845-6 consulta externa, 102089-0 RDA de paciente; lista separada por comas',
    },
    { name: 'date', type: 'date', documentation: 'Momento en que se escribió el RDA, con prefijo; dos veces para un rango' },
    {
      name: '_id',
      type: 'token',
      documentation: 'Id del RDA (rda<número>, el de su primera versión); lista separada por comas',
    },
    LAST_UPDATED('Momento en que se escribió la última versión del RDA'),
  ],
} as const satisfies Record<string, readonly SearchParamDef[]>;

export type SearchType = keyof typeof SEARCH_TYPES;
export const isSearchType = (t: string): t is SearchType => Object.hasOwn(SEARCH_TYPES, t);

/**
 * The served types of FHIR R4's Patient compartment (compartmentdefinition-patient): a group's
 * export restricts them to the tag's patients. Group is not among them here: a tag is read whole.
 */
const PATIENT_BOUND: Record<SearchType, boolean> = {
  Patient: true,
  Observation: true,
  DetectedIssue: true,
  Condition: true,
  Device: true,
  RelatedPerson: true,
  MedicationRequest: true,
  ServiceRequest: true,
  Group: false,
  Composition: true,
};
export const patientBound = (type: string): boolean => isSearchType(type) && PATIENT_BOUND[type];

export const DEFAULT_COUNT = 50;
export const MAX_COUNT = 1000;

export class SearchError extends Error {
  constructor(
    readonly param: string,
    message: string,
  ) {
    super(message);
  }
}

export type Prefix = 'eq' | 'gt' | 'lt' | 'ge' | 'le';
const PREFIXES: readonly Prefix[] = ['eq', 'gt', 'lt', 'ge', 'le'];

/** A date parameter as a half-open range [start, end) of its precision, and its prefix. */
export interface DateBound {
  prefix: Prefix;
  start: Date;
  end: Date;
}

const DATE_RE = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?)?)?$/;

/**
 * `ge2026-11-01`, `2026-11`, `lt2026-11-20T10:00:00Z`: a prefix (eq when none) and the range the
 * value's precision covers. A date without a time is a UTC day; a time needs its zone.
 */
export function parseDateParam(param: string, given: string): DateBound {
  // An unencoded '+' of a zone arrives as a space (form decoding): read it back.
  const raw = given.replace(/ (\d{2}:\d{2})$/, '+$1');
  const bad = () =>
    new SearchError(
      param,
      `${param} debe ser una fecha FHIR (AAAA, AAAA-MM, AAAA-MM-DD o instante con zona) con prefijo opcional eq, gt, lt, ge o le`,
    );
  const hasPrefix = /^[a-z]{2}/.test(raw);
  const prefix = (hasPrefix ? raw.slice(0, 2) : 'eq') as Prefix;
  if (hasPrefix && !PREFIXES.includes(prefix)) throw bad();
  const m = DATE_RE.exec(hasPrefix ? raw.slice(2) : raw);
  if (!m) throw bad();
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const year = Number(y);
  const month = mo ? Number(mo) : 1;
  const day = d ? Number(d) : 1;
  if (month < 1 || month > 12 || day < 1 || day > 31) throw bad();
  let start: Date;
  let end: Date;
  if (h === undefined) {
    start = new Date(Date.UTC(year, month - 1, day));
    if (start.getUTCDate() !== day) throw bad();
    end = d ? new Date(Date.UTC(year, month - 1, day + 1)) : mo ? new Date(Date.UTC(year, month, 1)) : new Date(Date.UTC(year + 1, 0, 1));
  } else {
    if (Number(h) > 23 || Number(mi) > 59 || (s !== undefined && Number(s) > 59)) throw bad();
    start = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s ?? '00'}${frac ?? ''}${zone}`);
    if (Number.isNaN(start.getTime())) throw bad();
    const step = frac ? 1 : s !== undefined ? 1000 : 60_000;
    end = new Date(start.getTime() + step);
  }
  return { prefix, start, end };
}

/** The condition a date bound puts on a column: `>= start`, `< end`, or both for eq. */
export function dateConditions(b: DateBound): Array<{ op: '>=' | '<'; at: Date }> {
  switch (b.prefix) {
    case 'eq':
      return [
        { op: '>=', at: b.start },
        { op: '<', at: b.end },
      ];
    case 'ge':
      return [{ op: '>=', at: b.start }];
    case 'gt':
      return [{ op: '>=', at: b.end }];
    case 'lt':
      return [{ op: '<', at: b.start }];
    case 'le':
      return [{ op: '<', at: b.end }];
  }
}

/** A date-only column's bounds as 'YYYY-MM-DD' strings (birthdate): a time in the value is refused. */
export function dayConditions(param: string, raw: string): Array<{ op: '>=' | '<'; day: string }> {
  if (raw.includes('T')) throw new SearchError(param, `${param} admite solo fechas (AAAA, AAAA-MM o AAAA-MM-DD) con prefijo opcional`);
  return dateConditions(parseDateParam(param, raw)).map((c) => ({ op: c.op, day: c.at.toISOString().slice(0, 10) }));
}

export interface Token {
  system: string | null;
  code: string | null;
}

/** `system|code`, `|code` (no system), `system|` (any code of it) or `code` (any system); a comma list. */
export function parseTokens(param: string, raw: string): Token[] {
  const parts = raw.split(',');
  return parts.map((p) => {
    const bar = p.indexOf('|');
    const token: Token =
      bar < 0 ? { system: null, code: p } : { system: p.slice(0, bar), code: p.slice(bar + 1) === '' ? null : p.slice(bar + 1) };
    if (p === '' || p.split('|').length > 2 || (token.code === null && !token.system))
      throw new SearchError(param, `${param} debe ser un token sistema|código o código, separados por comas`);
    return token;
  });
}

export function parseCount(raw: string): number {
  if (!/^\d{1,6}$/.test(raw)) throw new SearchError('_count', `_count debe ser un entero entre 0 y ${MAX_COUNT}`);
  const n = Number(raw);
  if (n > MAX_COUNT) throw new SearchError('_count', `_count debe ser un entero entre 0 y ${MAX_COUNT}`);
  return n;
}

export function parseBoolean(param: string, raw: string): boolean {
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw new SearchError(param, `${param} debe ser true o false`);
}

/** `Patient/p12`, `p12` or a full URL ending so: the patient's row id. */
export function parseReference(param: string, raw: string): number {
  const m = /^(?:(?:.*\/)?Patient\/)?p([1-9]\d{0,9})$/.exec(raw);
  if (!m) throw new SearchError(param, `${param} debe ser una referencia a un paciente: Patient/p<número>`);
  // A patient id past the INTEGER column's range exists nowhere: it matches nothing (no row has id 0).
  return inIntRange(Number(m[1])) ? Number(m[1]) : 0;
}

/** Row ids of INTEGER columns (every table but measurements, whose id is BIGINT): PostgreSQL refuses a bound value past it. */
export const MAX_INT_ID = 2_147_483_647;
const inIntRange = (n: number) => n >= 1 && n <= MAX_INT_ID;

/** A resource id with its one-letter prefix: `p12` → 12; null for anything else. */
export function rowIdOf(letter: string, id: string): number | null {
  const m = new RegExp(`^${letter}([1-9]\\d{0,14})$`).exec(id);
  return m && inIntRange(Number(m[1])) ? Number(m[1]) : null;
}

/** A comma list of ids with their letter (`_id=p1,p2`): the row ids; an id of another form matches nothing. */
export function rowIdsOf(letter: string, raw: string): number[] {
  return raw
    .split(',')
    .map((id) => rowIdOf(letter, id))
    .filter((x): x is number => x !== null);
}

/** `r12-3`: the RelatedPerson of caregiver 3 for patient 12, as [patient, caregiver]; null for anything else. */
export function relatedPersonKeyOf(id: string): [number, number] | null {
  const m = /^r([1-9]\d{0,9})-([1-9]\d{0,9})$/.exec(id);
  return m && inIntRange(Number(m[1])) && inIntRange(Number(m[2])) ? [Number(m[1]), Number(m[2])] : null;
}

/** `m12` (a reading) or `m12-13` (a systolic and its diastolic: the panel): the row ids; null for anything else. */
export function observationKeyOf(id: string): [number] | [number, number] | null {
  const m = /^m([1-9]\d{0,15})(?:-([1-9]\d{0,15}))?$/.exec(id);
  if (!m) return null;
  return m[2] ? [Number(m[1]), Number(m[2])] : [Number(m[1])];
}

/**
 * A `status` token list read through a status table (our number → FHIR code): the numbers whose
 * code is asked; null when any status will do (`system|`). A code the table lacks matches nothing.
 */
export function statusesOf(param: string, raw: string, table: Record<number, string>, system: string): number[] | null {
  const out = new Set<number>();
  for (const t of parseTokens(param, raw)) {
    if (t.system !== null && t.system !== system) continue;
    if (t.code === null) return null;
    for (const [n, code] of Object.entries(table)) if (code === t.code) out.add(Number(n));
  }
  return [...out].sort((a, b) => a - b);
}

/**
 * The keyset cursor: base64url of the sort it belongs to and the last row's key. It is opaque to
 * the client and checked on the way back: a cursor of another sort or a forged one is a 400.
 */
export function encodeCursor(sort: string, key: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify([sort, ...key]), 'utf8').toString('base64url');
}

/** A cursor's key parts: a date-time, a row id of an INTEGER column, or one of a BIGINT column (readings). */
export type CursorPart = 'string' | 'number' | 'bignumber';

export function decodeCursor(raw: string, sort: string, shape: readonly CursorPart[]): (string | number)[] {
  const bad = new SearchError('_cursor', '_cursor no es válido para esta búsqueda; use el enlace next de la página anterior');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw bad;
  }
  if (!Array.isArray(parsed) || parsed.length !== shape.length + 1 || parsed[0] !== sort) throw bad;
  const key = parsed.slice(1) as unknown[];
  shape.forEach((kind, i) => {
    const v = key[i];
    const ok =
      kind === 'string'
        ? typeof v === 'string' && !Number.isNaN(new Date(v).getTime())
        : Number.isSafeInteger(v) && (kind === 'bignumber' || inIntRange(v as number));
    if (!ok) throw bad;
  });
  return key as (string | number)[];
}

/** RFC 7240 Prefer: `handling=strict` turns an unknown parameter into a 400. */
export const isStrict = (prefer: string | undefined) =>
  (prefer ?? '')
    .split(/[,;]/)
    .map((p) => p.trim().toLowerCase())
    .includes('handling=strict');

/**
 * The query split into the type's parameters and the rest: an unknown name, or a modifier
 * (`name:exact`), is not applied and is reported (or refused under strict handling).
 */
export function splitParams(type: SearchType, pairs: Array<[string, string]>): { known: Map<string, string[]>; unknown: string[] } {
  const names = new Set<string>([...COMMON_PARAMS, ...SEARCH_TYPES[type].map((p) => p.name)]);
  const known = new Map<string, string[]>();
  const unknown: string[] = [];
  for (const [name, value] of pairs) {
    if (!names.has(name)) {
      if (!unknown.includes(name)) unknown.push(name);
      continue;
    }
    known.set(name, [...(known.get(name) ?? []), value]);
  }
  return { known, unknown };
}
