/**
 * The schema the migrations leave behind, for each dialect: its tables and its triggers (name,
 * table, events, the tables the trigger writes). Read by running every migration's `up` against a
 * query interface that records the statements instead of sending them: trigger names are often
 * built in code (0020 makes one per row of a table), so only running the migration gives them,
 * and SQLite and PostgreSQL get different triggers for the same fact (three per table on SQLite,
 * one function on PostgreSQL). No database is needed, so the lint step stays fast and offline.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export type Dialect = 'sqlite' | 'postgres';
export const DIALECTS: Dialect[] = ['sqlite', 'postgres'];

export interface Trigger {
  name: string;
  table: string;
  /** 'INSERT', 'UPDATE OF status', 'INSERT OR DELETE OR UPDATE OF client_id, status'... */
  events: string;
  /** Tables its body (or, on PostgreSQL, its function's body) inserts into, updates or deletes from. */
  feeds: string[];
  /** Repository-relative path of the migration that created it. */
  migration: string;
}

export interface Schema {
  tables: Set<string>;
  triggers: Map<string, Trigger>;
}

interface Migration {
  up(params: { context: unknown }): Promise<void>;
}

const IDENT = String.raw`"?([A-Za-z_][A-Za-z0-9_]*)"?`;

/** Tables a statement writes: INSERT INTO x, UPDATE x SET, DELETE FROM x (SQL text, not code). */
export function writtenTables(sql: string): string[] {
  const out = new Set<string>();
  const patterns = [
    new RegExp(String.raw`\bINSERT\s+(?:OR\s+[A-Za-z]+\s+)?INTO\s+${IDENT}`, 'gi'),
    new RegExp(String.raw`\bUPDATE\s+(?:ONLY\s+)?${IDENT}(?:\s+(?:AS\s+)?[A-Za-z_][A-Za-z0-9_]*)?\s+SET\b`, 'gi'),
    new RegExp(String.raw`\bDELETE\s+FROM\s+(?:ONLY\s+)?${IDENT}`, 'gi'),
  ];
  for (const re of patterns) for (const m of sql.matchAll(re)) if (m[1].toUpperCase() !== 'SET') out.add(m[1]);
  return [...out].sort();
}

/** The statements one migration sends, on one dialect, with the table calls of the query interface as SQL-like lines. */
function recorder(dialect: Dialect, statements: string[]) {
  const transaction = {};
  const noop = async () => undefined;
  const sequelize = new Proxy(
    {
      getDialect: () => dialect,
      async query(sql: unknown, opts?: { type?: string }) {
        statements.push(typeof sql === 'string' ? sql : String((sql as { query?: string })?.query ?? ''));
        return opts?.type === 'SELECT' ? [] : [[], 0];
      },
      async transaction(a: unknown, b?: unknown) {
        const fn = (typeof a === 'function' ? a : b) as (t: object) => Promise<unknown>;
        return fn(transaction);
      },
    } as Record<string | symbol, unknown>,
    { get: (target, key) => (key in target ? target[key] : noop) },
  );
  const calls: Record<string, (...args: unknown[]) => Promise<unknown>> = {
    createTable: async (name) => void statements.push(`CREATE TABLE ${tableName(name)} ()`),
    dropTable: async (name) => void statements.push(`DROP TABLE ${tableName(name)}`),
    renameTable: async (from, to) => void statements.push(`ALTER TABLE ${tableName(from)} RENAME TO ${tableName(to)}`),
  };
  return new Proxy({ sequelize } as Record<string | symbol, unknown>, {
    get: (target, key) => (key in target ? target[key] : typeof key === 'string' && key in calls ? calls[key] : noop),
  });
}

function tableName(name: unknown): string {
  if (typeof name === 'string') return name;
  const t = name as { tableName?: string } | null;
  return t?.tableName ?? String(name);
}

/** Applies one statement to the schema being built. */
export function applyStatement(schema: Schema, functions: Map<string, string>, sql: string, migration: string) {
  const text = sql.replace(/--[^\n]*/g, ' ');
  for (const m of text.matchAll(new RegExp(String.raw`\bCREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?${IDENT}`, 'gi')))
    schema.tables.add(m[1]);
  for (const m of text.matchAll(new RegExp(String.raw`\bDROP\s+TABLE\s+(?:IF\s+EXISTS\s+)?${IDENT}`, 'gi'))) schema.tables.delete(m[1]);
  for (const m of text.matchAll(new RegExp(String.raw`\bALTER\s+TABLE\s+${IDENT}\s+RENAME\s+TO\s+${IDENT}`, 'gi'))) {
    schema.tables.delete(m[1]);
    schema.tables.add(m[2]);
  }
  const fn = text.match(new RegExp(String.raw`\bCREATE\s+(?:OR\s+REPLACE\s+)?FUNCTION\s+${IDENT}\s*\(`, 'i'));
  if (fn) functions.set(fn[1], text);
  const drop = text.match(new RegExp(String.raw`\bDROP\s+TRIGGER\s+(?:IF\s+EXISTS\s+)?${IDENT}`, 'i'));
  if (drop) schema.triggers.delete(drop[1]);
  const created = text.match(
    new RegExp(
      String.raw`\bCREATE\s+(?:OR\s+REPLACE\s+)?TRIGGER\s+${IDENT}\s+(?:AFTER|BEFORE|INSTEAD\s+OF)\s+([\s\S]+?)\s+ON\s+${IDENT}`,
      'i',
    ),
  );
  if (created) {
    const [, name, events, table] = created;
    const executes = text.match(new RegExp(String.raw`\bEXECUTE\s+(?:FUNCTION|PROCEDURE)\s+${IDENT}`, 'i'));
    const body = executes ? (functions.get(executes[1]) ?? '') : text.slice(created.index! + created[0].length);
    schema.triggers.set(name, { name, table, events: events.replace(/\s+/g, ' ').trim(), feeds: writtenTables(body), migration });
  }
}

/** The migrations of a folder, in the order their names give (0001-..., 0002-...). */
export function listMigrations(dir: string): string[] {
  return fs
    .readdirSync(dir)
    .filter((f) => /^\d{4}-.*\.ts$/.test(f) && !f.endsWith('.test.ts'))
    .sort()
    .map((f) => path.join(dir, f));
}

/** Runs every migration's `up` on a recorder per dialect; `root` makes the paths repository-relative. */
export async function readSchema(migrationFiles: string[], root: string): Promise<Record<Dialect, Schema>> {
  const modules = await Promise.all(migrationFiles.map(async (f) => [f, (await import(pathToFileURL(f).href)) as Migration] as const));
  const out = {} as Record<Dialect, Schema>;
  for (const dialect of DIALECTS) {
    const schema: Schema = { tables: new Set(), triggers: new Map() };
    const functions = new Map<string, string>();
    for (const [file, migration] of modules) {
      const statements: string[] = [];
      await migration.up({ context: recorder(dialect, statements) });
      for (const sql of statements) applyStatement(schema, functions, sql, path.relative(root, file));
    }
    out[dialect] = schema;
  }
  return out;
}
