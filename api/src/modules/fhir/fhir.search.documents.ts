import { compositionFor } from './fhir.mappers.js';
import { RDA_DOCUMENT_TYPES } from './rda.profiles.js';
import { parseTokens, rowIdOf, rowIdsOf } from './fhir.search.rules.js';
import {
  readRows,
  bind,
  dateParamConditions,
  groupCondition,
  patientConditions,
  searchById,
  where,
  type Json,
  type Page,
  type SearchDeps,
  type SearchInput,
} from './fhir.search.sql.js';

/**
 * The RDA documents (issue 51) on the FHIR API: each kept document (`rdas`) is a Composition, the
 * first entry of its Bundle, and `Composition/{id}/$document` answers the Bundle itself, the text
 * kept, byte for byte what was (or will be) sent to the Ministry.
 *
 * The id is `rda<n>`, n the row id of the document's first version (the staff API's `/rdas/<n>`):
 * the Composition id inside the Bundle is a UUID the builder drew, unique by chance only (nothing
 * holds it unique, fixed ones are built in tests) and not indexed, and a nota aclaratoria is a new
 * Bundle with new UUIDs. A read answers the latest version (the chain of `replaces_id`); a search
 * lists the versions no later version replaces, keyset on the row id
 * (rdas (client_id, id), or (client_id, patient_id, id) for a patient's). The document itself is
 * in `rda_documents` (migration 0041), read by its primary key for the rows answered only: a
 * count, the walk along a chain of versions and the rows a page filters out never read it.
 */

const LOINC = 'http://loinc.org';
/**
 * The most rows a page reads: each carries its whole document (tens of kB with the Epicrisis PDF),
 * and a Bulk export's worker thread has a heap of 40 MB on SQLite with two pages in flight. A
 * larger `_count` gets pages of this size, with their `next` link (FHIR lets a server send fewer).
 */
export const COMPOSITION_PAGE_MAX = 100;
/** A chain of corrections longer than this is not a chain (a loop written by hand): not found. */
const MAX_VERSIONS = 100;

interface RdaDbRow {
  id: number | string;
  patient_id: number | string;
  version: number | string;
  replaces_id: number | string | null;
  created_at: string | Date;
}
/** A version's row with its document's text (null only for a version written without one: none is). */
type RdaDocRow = RdaDbRow & { bundle: string | null };

const RDA_COLUMNS = 'SELECT r.id, r.patient_id, r.version, r.replaces_id, r.created_at';
const RDA_SELECT = `${RDA_COLUMNS}, (SELECT d.bundle FROM rda_documents d WHERE d.rda_id = r.id) AS bundle`;
// The version no later one replaces (index rdas_replaces_id, migration 0040): a correction still on
// its way and the version it corrects are not listed twice.
const LATEST = 'NOT EXISTS (SELECT 1 FROM rdas n WHERE n.replaces_id = r.id)';

/** The latest version's row of the document whose first version is `rootId`, or null (none, or another organisation's). */
async function latestOf(deps: SearchDeps, clientId: number, rootId: number): Promise<RdaDbRow | null> {
  const [root] = await readRows<RdaDbRow>(deps, `${RDA_COLUMNS} FROM rdas r WHERE r.id = :id AND r.client_id = :clientId`, {
    id: rootId,
    clientId,
  });
  if (!root || root.replaces_id != null) return null;
  let row = root;
  for (let i = 0; i < MAX_VERSIONS; i++) {
    const [next] = await readRows<RdaDbRow>(
      deps,
      `${RDA_COLUMNS} FROM rdas r WHERE r.replaces_id = :id AND r.client_id = :clientId ORDER BY r.version DESC, r.id DESC LIMIT 1`,
      { id: Number(row.id), clientId },
    );
    if (!next) return row;
    row = next;
  }
  return null;
}

/** The first version's row id of a version (itself when it replaces none). */
async function rootOf(deps: SearchDeps, clientId: number, row: RdaDbRow): Promise<number> {
  let id = Number(row.id);
  let replaces = row.replaces_id;
  for (let i = 0; replaces != null && i < MAX_VERSIONS; i++) {
    id = Number(replaces);
    const [up] = await readRows<{ replaces_id: number | string | null }>(
      deps,
      'SELECT replaces_id FROM rdas WHERE id = :id AND client_id = :clientId',
      { id, clientId },
    );
    replaces = up ? up.replaces_id : null;
  }
  return id;
}

/** The document's text of a version (the latest of its chain, found by latestOf). */
async function documentText(deps: SearchDeps, row: RdaDbRow): Promise<string | null> {
  const [doc] = await readRows<{ bundle: string }>(deps, 'SELECT bundle FROM rda_documents WHERE rda_id = :id', { id: Number(row.id) });
  return doc?.bundle ?? null;
}

async function compositionOf(deps: SearchDeps, clientId: number, row: RdaDocRow): Promise<Json | null> {
  if (row.bundle == null) return null;
  return compositionFor({
    id: row.replaces_id == null ? Number(row.id) : await rootOf(deps, clientId, row),
    patient_id: Number(row.patient_id),
    version: Number(row.version),
    created_at: new Date(row.created_at),
    bundle: JSON.parse(row.bundle) as Json,
  });
}

/** The document Bundle kept for `Composition/rda<n>` (its latest version), as text: `$document` sends it unchanged. */
export async function readDocumentText(
  deps: SearchDeps,
  clientId: number,
  id: string,
): Promise<{ text: string; composition: Json } | null> {
  const rootId = rowIdOf('rda', id);
  const row = rootId === null ? null : await latestOf(deps, clientId, rootId);
  const text = row && (await documentText(deps, row));
  if (!row || text == null) return null;
  const composition = await compositionOf(deps, clientId, { ...row, bundle: text });
  return composition ? { text, composition } : null;
}

export async function readComposition(deps: SearchDeps, clientId: number, id: string): Promise<Json | null> {
  return (await readDocumentText(deps, clientId, id))?.composition ?? null;
}

/** `type`: LOINC codes of the RDA kinds; a code of another kind, or of another system, matches nothing. */
function kindsOf(raw: string): string[] | null {
  const kinds = new Set<string>();
  for (const t of parseTokens('type', raw)) {
    if (t.system !== null && t.system !== LOINC) continue;
    if (t.code === null) return null;
    for (const [kind, type] of Object.entries(RDA_DOCUMENT_TYPES)) if (type.code === t.code) kinds.add(kind);
  }
  return [...kinds].sort();
}

export async function searchCompositions(deps: SearchDeps, clientId: number, input: SearchInput): Promise<Page> {
  const w = where(clientId);
  w.sql.push('r.client_id = :clientId', LATEST);
  patientConditions(w, 'r.patient_id', input.params, ['patient', 'subject']);
  groupCondition(w, 'r.patient_id', input.groupId);
  for (const raw of input.params.get('_id') ?? []) {
    // `rda<n>` names a document by its first version: the row listed is its latest.
    const latest = await Promise.all(rowIdsOf('rda', raw).map((root) => latestOf(deps, clientId, root)));
    const ids = latest.filter((r): r is RdaDbRow => r !== null).map((r) => Number(r.id));
    w.sql.push(ids.length ? `r.id IN (${ids.map((id) => bind(w, id)).join(', ')})` : '1 = 0');
  }
  for (const raw of input.params.get('type') ?? []) {
    const kinds = kindsOf(raw);
    if (kinds === null) continue;
    w.sql.push(kinds.length ? `r.kind IN (${kinds.map((k) => bind(w, k)).join(', ')})` : '1 = 0');
  }
  // A version is written once and never changed (its send status is not the document): the moment
  // it was written is the Composition's date and its last update.
  dateParamConditions(w, 'r.created_at', 'date', input.params);
  dateParamConditions(w, 'r.created_at', '_lastUpdated', input.params);
  return searchById<RdaDocRow>(
    deps,
    { ...input, count: Math.min(input.count, COMPOSITION_PAGE_MAX) },
    {
      cursorName: 'Composition:_id',
      select: RDA_SELECT,
      from: 'FROM rdas r',
      idColumn: 'r.id',
      where: w,
      // A kept Bundle without its Composition (none is written so; recordRda checks the identifier
      // only) is left out of the page rather than failing it.
      map: async (rows) => (await Promise.all(rows.map((r) => compositionOf(deps, clientId, r)))).filter((c): c is Json => c !== null),
    },
  );
}
