/**
 * An RDA's Bundle as a person reads it (issue 51): the Composition's heading (title, date, patient,
 * author, provider) and each section's title with its narrative lines, which the builder writes
 * as one `<p>` per line (api/src/modules/fhir/rda.narrative.ts). The JSON itself stays behind
 * 'Ver JSON' for integrators.
 */

type Json = Record<string, unknown>;

export interface RdaFact {
  label: string;
  value: string;
}

export interface RdaSection {
  title: string;
  lines: string[];
}

export interface RdaReadable {
  title: string | null;
  facts: RdaFact[];
  sections: RdaSection[];
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : []);
const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** The text of an XHTML fragment: tags dropped, entities read. */
function plain(xhtml: string): string {
  return xhtml
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x?[0-9a-f]+|\w+);/gi, (whole, name: string) => {
      if (name.startsWith('#x') || name.startsWith('#X')) return String.fromCodePoint(parseInt(name.slice(2), 16));
      if (name.startsWith('#')) return String.fromCodePoint(parseInt(name.slice(1), 10));
      return ENTITIES[name.toLowerCase()] ?? whole;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

/** A narrative's lines: each paragraph (or list item), else the whole text as one line. */
export function narrativeLines(div: unknown): string[] {
  if (typeof div !== 'string') return [];
  const blocks = [...div.matchAll(/<(p|li)\b[^>]*>([\s\S]*?)<\/\1>/gi)].map((m) => plain(m[2])).filter(Boolean);
  if (blocks.length) return blocks;
  const whole = plain(div);
  return whole ? [whole] : [];
}

/** A person's or an organisation's name as written: HumanName.text, else given names and surnames. */
function nameOf(resource: Json | undefined): string | null {
  if (!resource) return null;
  const direct = text(resource.name);
  if (direct) return direct;
  const [name] = list(resource.name);
  if (!name) return null;
  const given = Array.isArray(name.given) ? name.given.filter((g): g is string => typeof g === 'string') : [];
  return text(name.text) ?? text([...given, text(name.family) ?? ''].join(' '));
}

/** The first identifier's value ('CC 52987654' when it has a type code). */
function identifierOf(resource: Json | undefined): string | null {
  const [id] = list(resource?.identifier);
  const value = text(id?.value);
  if (!value) return null;
  const type = isObject(id.type) ? list(id.type.coding)[0] : undefined;
  const code = text(type?.code);
  return code ? `${code} ${value}` : value;
}

function referenced(entries: Map<string, Json>, ref: unknown): Json | undefined {
  const reference = isObject(ref) ? text(ref.reference) : null;
  return reference ? entries.get(reference) : undefined;
}

/**
 * The readable parts of a document Bundle: its first entry's Composition (the guide puts it there)
 * and the resources it points at, found by their `fullUrl` or `Type/id`.
 */
export function readRdaBundle(bundle: unknown, formatDate: (iso: string) => string): RdaReadable {
  const entries = new Map<string, Json>();
  let composition: Json | undefined;
  for (const entry of list(isObject(bundle) ? bundle.entry : [])) {
    const resource = isObject(entry.resource) ? entry.resource : undefined;
    if (!resource) continue;
    const fullUrl = text(entry.fullUrl);
    if (fullUrl) entries.set(fullUrl, resource);
    if (text(resource.resourceType) && text(resource.id)) entries.set(`${String(resource.resourceType)}/${String(resource.id)}`, resource);
    if (!composition && resource.resourceType === 'Composition') composition = resource;
  }
  if (!composition) return { title: null, facts: [], sections: [] };

  const facts: RdaFact[] = [];
  const add = (label: string, value: string | null) => value && facts.push({ label, value });
  const date = text(composition.date);
  add('Fecha del documento', date ? formatDate(date) : null);
  const patient = referenced(entries, composition.subject);
  add('Paciente', [nameOf(patient), identifierOf(patient)].filter(Boolean).join(' · ') || null);
  const authors = list(composition.author)
    .map((a) => referenced(entries, a))
    .map((r) => (r?.resourceType === 'Practitioner' ? nameOf(r) : null))
    .filter((n): n is string => n !== null);
  add('Autor', authors.join(', ') || null);
  const custodian = referenced(entries, composition.custodian);
  const provider = custodian ?? [...entries.values()].find((r) => r.resourceType === 'Organization');
  add('Prestador', nameOf(provider));
  const encounter = referenced(entries, composition.encounter);
  const start = isObject(encounter?.period) ? text(encounter.period.start) : null;
  add('Atención', start ? formatDate(start) : null);

  const sections = list(composition.section).map((s) => ({
    title: text(s.title) ?? 'Sección sin título',
    lines: narrativeLines(isObject(s.text) ? s.text.div : undefined),
  }));
  return { title: text(composition.title), facts, sections };
}
