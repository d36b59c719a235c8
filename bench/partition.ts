/**
 * The partitioned layout of the million-patient plan (bench/README, "A million patients on
 * PostgreSQL"), built so a run can check it (`--partitioned`): a copy of the benchmark's database
 * whose `measurements` is range-partitioned by month on "when", with the indexes the plan names.
 * The product's migrations keep one table; this is the layout a large installation would move to.
 */
import pg from 'pg';
import { droppableBenchDatabase } from './dataset.js';

/** A month's partition: [from, to) in UTC. */
export interface MonthPartition {
  name: string;
  from: string;
  to: string;
}

const monthStart = (year: number, month: number) => new Date(Date.UTC(year, month, 1)).toISOString();

/**
 * One partition per calendar month (UTC) from the month of `first` to `monthsAhead` months after
 * the month of `last`: readings already stored, and the months a job would have created ahead.
 */
export function monthlyPartitions(table: string, first: Date, last: Date, monthsAhead: number): MonthPartition[] {
  if (!(first <= last)) throw new Error('monthlyPartitions: first must not be after last');
  const parts: MonthPartition[] = [];
  let y = first.getUTCFullYear();
  let m = first.getUTCMonth();
  const endY = last.getUTCFullYear();
  const endM = last.getUTCMonth() + monthsAhead;
  while (y * 12 + m <= endY * 12 + endM) {
    const name = `${table}_${y}_${String(m + 1).padStart(2, '0')}`;
    parts.push({ name, from: monthStart(y, m), to: monthStart(y, m + 1) });
    m += 1;
    if (m === 12) {
      m = 0;
      y += 1;
    }
  }
  return parts;
}

/**
 * An index of the one-table layout, as the partitioned parent needs it: a unique index (the
 * primary key, the device-reading index) must hold the partition key, so "when" is added to it;
 * the others are kept as they are. `definition` is pg_indexes.indexdef.
 */
export function partitionedIndex(definition: string, unique: boolean, partitionKey = '"when"'): string {
  if (!unique) return definition;
  const { open, close } = indexColumns(definition);
  const columns = definition.slice(open + 1, close);
  if (columns.split(',').some((c) => c.trim() === partitionKey)) return definition;
  return `${definition.slice(0, close)}, ${partitionKey}${definition.slice(close)}`;
}

/** Where the column list of an index definition opens and closes (a WHERE after it has its own). */
export function indexColumns(definition: string): { open: number; close: number } {
  const open = definition.indexOf('(', definition.indexOf(' USING '));
  let depth = 0;
  for (let i = open; i < definition.length; i++) {
    if (definition[i] === '(') depth++;
    else if (definition[i] === ')' && --depth === 0) return { open, close: i };
  }
  throw new Error(`Definición de índice sin columnas: ${definition}`);
}

/**
 * Creates `target` as a copy of `source` (CREATE DATABASE ... TEMPLATE: a file copy, no rows
 * re-inserted) and turns its `measurements` into monthly partitions. `source` must have no other
 * sessions. Answers the partitions made and the seconds the change took.
 */
export async function buildPartitionedCopy(
  sourceUrl: string,
  targetUrl: string,
  log: (line: string) => void,
): Promise<{ partitions: number; seconds: number }> {
  const started = performance.now();
  const source = new URL(sourceUrl).pathname.slice(1);
  if (!/^[a-z0-9_]+$/i.test(source)) throw new Error(`Nombre de base no válido: ${source}`);
  const target = droppableBenchDatabase(targetUrl);
  const adminUrl = new URL(sourceUrl);
  adminUrl.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${target}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${target}" TEMPLATE "${source}"`);
  } finally {
    await admin.end();
  }
  log(`Copia de ${source} en ${target}: ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const db = new pg.Client({ connectionString: targetUrl });
  await db.connect();
  try {
    const { rows: range } = await db.query<{ first: Date | null; last: Date | null }>(
      'SELECT MIN("when") AS first, MAX("when") AS last FROM measurements',
    );
    const first = range[0].first ?? new Date();
    const last = range[0].last ?? first;
    const { rows: indexes } = await db.query<{ name: string; def: string; unique: boolean; primary: boolean }>(
      `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS def, i.indisunique AS unique, i.indisprimary AS primary
         FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
        WHERE i.indrelid = 'measurements'::regclass`,
    );
    // The table's own triggers (the triage marks of migrations 0020 and 0023) go with it; made
    // again once the rows are in, so moving them marks nothing.
    const { rows: triggers } = await db.query<{ def: string }>(
      `SELECT pg_get_triggerdef(oid) AS def FROM pg_trigger WHERE tgrelid = 'measurements'::regclass AND NOT tgisinternal ORDER BY tgname`,
    );
    const { rows: seq } = await db.query<{ seq: string | null }>(`SELECT pg_get_serial_sequence('measurements', 'id') AS seq`);
    const parts = monthlyPartitions('measurements', first, last, 2);
    await db.query('BEGIN');
    await db.query('ALTER TABLE measurements RENAME TO measurements_flat');
    // Defaults (the id's sequence), NOT NULLs and checks; no indexes yet: rows first, indexes after.
    await db.query(
      'CREATE TABLE measurements (LIKE measurements_flat INCLUDING DEFAULTS INCLUDING CONSTRAINTS) PARTITION BY RANGE ("when")',
    );
    for (const p of parts) await db.query(`CREATE TABLE ${p.name} PARTITION OF measurements FOR VALUES FROM ('${p.from}') TO ('${p.to}')`);
    await db.query('CREATE TABLE measurements_default PARTITION OF measurements DEFAULT');
    const moved = await db.query('INSERT INTO measurements SELECT * FROM measurements_flat');
    if (seq[0].seq) await db.query(`ALTER SEQUENCE ${seq[0].seq} OWNED BY measurements.id`);
    await db.query('DROP TABLE measurements_flat');
    for (const ix of indexes) {
      const def = partitionedIndex(ix.def.replace(/ ON (public\.)?measurements_flat /, ' ON $1measurements '), ix.unique);
      if (ix.primary) {
        const { open, close } = indexColumns(def);
        const columns = def.slice(open + 1, close);
        await db.query(`ALTER TABLE measurements ADD CONSTRAINT ${ix.name} PRIMARY KEY (${columns})`);
      } else await db.query(def);
    }
    // Read before the rename: each definition names the new table.
    for (const { def } of triggers) await db.query(def);
    await db.query('COMMIT');
    await db.query('ANALYZE measurements');
    log(
      `measurements por mes: ${parts.length} particiones (${parts[0].name} a ${parts[parts.length - 1].name}) y una por defecto; ` +
        `${moved.rowCount} filas; índices: ${indexes.map((i) => i.name).join(', ')}; ${triggers.length} disparadores`,
    );
    return { partitions: parts.length, seconds: (performance.now() - started) / 1000 };
  } catch (err) {
    await db.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    await db.end();
  }
}
