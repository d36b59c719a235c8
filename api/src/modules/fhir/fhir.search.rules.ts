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

/** The types served and their search parameters: the router and the CapabilityStatement read this. */
export const SEARCH_TYPES = {
  Patient: [
    { name: '_id', type: 'token', documentation: 'Id del paciente (p<número>); lista separada por comas' },
    { name: 'identifier', type: 'token', documentation: 'Documento: sistema|valor o solo el valor' },
    { name: 'name', type: 'string', documentation: 'Comienzo de cualquier palabra del nombre o apellidos' },
    { name: 'family', type: 'string', documentation: 'Comienzo de los apellidos' },
    { name: 'birthdate', type: 'date', documentation: 'Fecha de nacimiento con prefijo eq, ge, le, gt o lt' },
    { name: 'active', type: 'token', documentation: 'true: todo estado salvo inactivo; false: inactivo' },
    { name: '_lastUpdated', type: 'date', documentation: 'Última modificación con prefijo eq, ge, le, gt o lt' },
  ],
  Observation: [
    { name: 'patient', type: 'reference', documentation: 'Paciente: Patient/p<número> o p<número>' },
    { name: 'subject', type: 'reference', documentation: 'Igual que patient' },
    { name: 'code', type: 'token', documentation: 'Código LOINC (sistema|código), lista separada por comas' },
    { name: 'category', type: 'token', documentation: 'vital-signs o laboratory' },
    { name: 'date', type: 'date', documentation: 'Momento de la lectura con prefijo; dos veces para un rango' },
    { name: '_sort', type: 'special', documentation: 'date, -date o _lastUpdated' },
  ],
  DetectedIssue: [
    { name: 'patient', type: 'reference', documentation: 'Paciente: Patient/p<número> o p<número>' },
    { name: 'identified', type: 'date', documentation: 'Momento en que se abrió la alerta, con prefijo' },
  ],
  Condition: [
    { name: 'patient', type: 'reference', documentation: 'Paciente: Patient/p<número> o p<número>' },
    { name: 'subject', type: 'reference', documentation: 'Igual que patient' },
    { name: 'clinical-status', type: 'token', documentation: 'active o resolved' },
  ],
} as const satisfies Record<string, readonly SearchParamDef[]>;

export type SearchType = keyof typeof SEARCH_TYPES;
export const isSearchType = (t: string): t is SearchType => Object.hasOwn(SEARCH_TYPES, t);

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
  return Number(m[1]);
}

/** A resource id with its one-letter prefix: `p12` → 12; null for anything else. */
export function rowIdOf(letter: string, id: string): number | null {
  const m = new RegExp(`^${letter}([1-9]\\d{0,14})$`).exec(id);
  return m ? Number(m[1]) : null;
}

/**
 * The keyset cursor: base64url of the sort it belongs to and the last row's key. It is opaque to
 * the client and checked on the way back: a cursor of another sort or a forged one is a 400.
 */
export function encodeCursor(sort: string, key: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify([sort, ...key]), 'utf8').toString('base64url');
}

export function decodeCursor(raw: string, sort: string, shape: readonly ('string' | 'number')[]): (string | number)[] {
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
    if (kind === 'number' ? !Number.isSafeInteger(v) : typeof v !== 'string' || Number.isNaN(new Date(v).getTime())) throw bad;
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
