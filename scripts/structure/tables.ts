/**
 * One writer per table (issue 40). docs/tables.md names each table's owner (a folder under
 * api/src) and lists every trigger; this check fails when
 * - the API writes a table (SQL text, a bulk call, a model's static write, a catalogue
 *   declaration) from a file outside the table's owner, unless FOREIGN_WRITES_ALLOWED names it;
 * - a table the migrations create has no row in the doc, or the doc names a table or an owner
 *   folder that does not exist;
 * - a trigger the migrations create is not in the doc, or its row says another table, other
 *   events, other fed tables or other dialects than the migration, or an owner that does not own
 *   what it feeds; a row for a trigger no migration leaves behind;
 * - an allow-list entry matches no write any more (remove it: its write has moved to its owner).
 * Migrations and tests are not scanned; seeds fill an empty database as a loader and are checked
 * as a layer instead (seeds.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { DIALECTS, listMigrations, readSchema, type Dialect, type Trigger } from './schema.js';
import { findWrites, listSources, readModelTables, type TableWrite } from './writes.js';

export interface AllowedWrite {
  /** Repository-relative path of the writing file. */
  file: string;
  table: string;
  /** Why it is still there and what replaces it. */
  why: string;
}

/**
 * Writes of a table outside its owner that are known and on their way out. Empty since issue 40's
 * moves landed (a foreign write now fails the check); an entry added for a move in progress must
 * still match a write (else the check asks to remove it).
 */
export const FOREIGN_WRITES_ALLOWED: AllowedWrite[] = [];

export interface TriggerRow {
  name: string;
  table: string;
  events: string;
  feeds: string[];
  owner: string;
  dialects: Dialect[];
}

export interface Ownership {
  /** table → owner folder, relative to api/src ('modules/alerts', 'jobs'). */
  owners: Map<string, string>;
  triggers: Map<string, TriggerRow>;
}

const cells = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((c) => c.trim().replace(/`/g, ''));

const DIALECT_WORDS: Record<string, Dialect[]> = { both: ['sqlite', 'postgres'], sqlite: ['sqlite'], postgresql: ['postgres'] };

/** Reads the two tables of docs/tables.md: under '## Tables' and under '## Triggers'. */
export function parseOwnership(markdown: string): Ownership {
  const owners = new Map<string, string>();
  const triggers = new Map<string, TriggerRow>();
  let section = '';
  let inTable = false;
  for (const line of markdown.split('\n')) {
    const heading = line.match(/^##\s+(.*)/);
    if (heading) section = heading[1].trim().toLowerCase();
    const isRow = line.trim().startsWith('|');
    // The first row of a table is its header; the second its rule.
    const header = isRow && !inTable;
    inTable = isRow;
    if (!isRow || header || /^\|[\s:|-]*$/.test(line.trim())) continue;
    const row = cells(line);
    if (section.startsWith('tables')) owners.set(row[0], row[1]);
    if (section.startsWith('triggers')) {
      const [name, table, events, feeds, owner, dialects] = row;
      triggers.set(name, {
        name,
        table,
        events: events.replace(/\s+/g, ' '),
        feeds: feeds
          .split(/[,\s]+/)
          .filter(Boolean)
          .sort(),
        owner,
        dialects: DIALECT_WORDS[dialects.toLowerCase()] ?? [],
      });
    }
  }
  return { owners, triggers };
}

const DIALECT_NAMES: Record<Dialect, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

export interface CheckTablesOptions {
  root: string;
  /** Defaults to docs/tables.md under root. */
  doc?: string;
  allowed?: AllowedWrite[];
}

export async function checkTables(opts: CheckTablesOptions): Promise<string[]> {
  const { root } = opts;
  const docPath = opts.doc ?? path.join(root, 'docs/tables.md');
  const docName = path.relative(root, docPath);
  const allowed = opts.allowed ?? FOREIGN_WRITES_ALLOWED;
  const apiSrc = path.join(root, 'api/src');
  const problems: string[] = [];
  const { owners, triggers: rows } = parseOwnership(fs.readFileSync(docPath, 'utf8'));
  const schema = await readSchema(listMigrations(path.join(apiSrc, 'db/migrations')), root);

  const tables = new Set(DIALECTS.flatMap((d) => [...schema[d].tables]));
  for (const table of [...tables].sort()) if (!owners.has(table)) problems.push(`table ${table} has no owner in ${docName}`);
  for (const [table, owner] of owners) {
    if (!tables.has(table)) problems.push(`${docName} names table ${table}, which no migration creates`);
    if (!fs.existsSync(path.join(apiSrc, owner))) problems.push(`${docName}: the owner of ${table}, api/src/${owner}, is not a folder`);
  }

  const seen = new Map<string, Array<Trigger & { dialect: Dialect }>>();
  for (const dialect of DIALECTS)
    for (const t of schema[dialect].triggers.values()) seen.set(t.name, [...(seen.get(t.name) ?? []), { ...t, dialect }]);
  for (const [name, found] of seen) {
    const row = rows.get(name);
    const { table, events, feeds, migration } = found[0];
    if (!row) {
      problems.push(`trigger ${name} (on ${table}, feeds ${feeds.join(', ') || 'nothing'}; ${migration}) is not listed in ${docName}`);
      continue;
    }
    const dialects = found.map((f) => f.dialect);
    if (row.table !== table) problems.push(`${docName}: trigger ${name} is on ${table}, not ${row.table}`);
    if (row.events !== events) problems.push(`${docName}: trigger ${name} fires on ${events}, not ${row.events}`);
    if (row.feeds.join(',') !== feeds.join(','))
      problems.push(`${docName}: trigger ${name} feeds ${feeds.join(', ')}, not ${row.feeds.join(', ')}`);
    if (row.dialects.join(',') !== dialects.join(','))
      problems.push(`${docName}: trigger ${name} exists on ${dialects.map((d) => DIALECT_NAMES[d]).join(' and ')}`);
    for (const fed of feeds)
      if (owners.get(fed) !== row.owner)
        problems.push(`${docName}: trigger ${name} feeds ${fed}, owned by ${owners.get(fed)}, not ${row.owner}`);
  }
  for (const name of rows.keys()) if (!seen.has(name)) problems.push(`${docName} lists trigger ${name}, which no migration leaves behind`);

  const models = await readModelTables(listSources(path.join(apiSrc, 'db/models')));
  const writes: TableWrite[] = [];
  for (const file of listSources(apiSrc, [path.join(apiSrc, 'db/migrations')]))
    writes.push(...findWrites(path.relative(root, file), fs.readFileSync(file, 'utf8'), models));
  const used = new Set<AllowedWrite>();
  for (const w of writes) {
    const owner = owners.get(w.table);
    if (!owner || !tables.has(w.table)) continue;
    if (w.file.startsWith(`api/src/${owner}/`)) continue;
    const entry = allowed.find((a) => a.file === w.file && a.table === w.table);
    if (entry) used.add(entry);
    else problems.push(`${w.file}:${w.line}: ${w.how} ${w.table} outside its owner api/src/${owner} (ask that module; ${docName})`);
  }
  for (const a of allowed)
    if (!used.has(a))
      problems.push(`allow-list entry ${a.file} → ${a.table} matches no write any more: remove it (scripts/structure/tables.ts)`);
  return problems;
}
