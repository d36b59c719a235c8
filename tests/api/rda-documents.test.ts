import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as rdaDocuments from '../../api/src/db/migrations/0041-rda-documents';
import { bindNamed } from '../../api/src/db/bind';
import { execute, insertReturningId, select, sqliteDate, writeTransaction } from '../../api/src/db/sql';
import { refreshPlannerStatistics } from '../../api/src/db/statistics';
import { RDA_BY_IDENTIFIER, RDA_DOCUMENT, RDA_TO_SEND, getRda, recordRda } from '../../api/src/modules/rdas/rdas.service';
import { startTestProduct, createOrg, bearer, patientBody, type TestProduct, type Org } from '../support/product';

/**
 * The RDA document in a table of its own (migration 0041, issue 51 / issue 52): `rdas` keeps the
 * version and its sending, `rda_documents` the Bundle as built, written once. Here: the look-ups a
 * document's life goes through (recordRda's identifier, the send job's row and document) stay
 * searches of an index or of the primary key with the planner's statistics taken while the tables
 * were nearly empty, the state in which SQLite scanned `rdas` before (P246); and the migration
 * moves every document across and back, and takes a copy left halfway up where it stopped.
 */

const NOW = new Date('2026-12-05T15:00:00Z');
/** Rows added after the statistics were taken: more than a step of the migration's copy (500). */
const GROWN = 1200;

let t: TestProduct;
let org: Org;
let patientId: number;
let sqlite: boolean;

beforeAll(async () => {
  t = await startTestProduct({ now: () => NOW });
  sqlite = t.sequelize.getDialect() === 'sqlite';
  org = await createOrg(t, 'Clinica Documentos');
  const res = await t.http.post('/api/v1/patients').set(bearer(org.tokens.admin)).send(patientBody());
  expect(res.status).toBe(201);
  patientId = res.body.id as number;
}, 60_000);
afterAll(async () => t?.stop());

/** A document Bundle as recordRda takes it (the identifier is all it judges), padded to `size` characters of text. */
const bundleOf = (identifier = crypto.randomUUID(), size = 0) => ({
  resourceType: 'Bundle',
  type: 'document',
  identifier: { system: 'https://fhir.minsalud.gov.co/rda/NamingSystem/identifier-RDA', value: identifier },
  entry: [],
  ...(size ? { pad: crypto.randomBytes(size / 2).toString('hex') } : {}),
});

const store = () => ({ sequelize: t.sequelize, jobs: t.jobs, now: () => NOW });

/** `n` versions 'sin enviar' written as recordRda writes them (its two INSERTs), in one transaction. */
async function addRdas(n: number) {
  await writeTransaction(t.sequelize, async (tx) => {
    for (let k = 0; k < n; k++) {
      const identifier = crypto.randomUUID();
      const id = await insertReturningId(
        t.sequelize,
        `INSERT INTO rdas (client_id, patient_id, kind, identifier, version, status, attempts, created_at, updated_at)
         VALUES (:clientId, :patientId, 'consulta', :identifier, 1, 'sin_enviar', 0, :now, :now) RETURNING id`,
        { clientId: org.clientId, patientId, identifier, now: NOW },
        tx,
      );
      // 600 characters a document, kept in the table's own pages: a real one (26 KB) goes to
      // PostgreSQL's TOAST table, leaving ~130 rows a page, and a scan costs once there are tens
      // of pages; these reach that size with fewer rows.
      const bundle = JSON.stringify(bundleOf(identifier, 600));
      await execute(t.sequelize, 'INSERT INTO rda_documents (rda_id, bundle) VALUES (:id, :bundle)', { id, bundle }, tx);
    }
  });
}

interface SqliteDriver {
  all(sql: string, params: unknown[], cb: (err: Error | null, rows: unknown[]) => void): void;
  close(cb?: (err: Error | null) => void): void;
}

/**
 * SQLite: the plan on a connection opened now, which reads the statistics as they are (a
 * connection loads them when it opens), with the statement's own values. PostgreSQL: EXPLAIN with
 * the values bound, as the statement runs (not prepared: a plan made for these values).
 */
async function planOf(sql: string, values: Record<string, unknown>): Promise<string[]> {
  if (!sqlite) {
    const rows = await select<{ 'QUERY PLAN': string }>(t.sequelize, `EXPLAIN (COSTS OFF) ${sql}`, values);
    return rows.map((r) => r['QUERY PLAN'].trim());
  }
  const manager = t.sequelize.connectionManager as unknown as {
    lib: { Database: new (file: string, mode: number, cb: (err: Error | null) => void) => SqliteDriver; OPEN_READONLY: number };
  };
  const storage = (t.sequelize as unknown as { options: { storage: string } }).options.storage;
  const conn = await new Promise<SqliteDriver>((resolve, reject) => {
    const c = new manager.lib.Database(storage, manager.lib.OPEN_READONLY, (err) => (err ? reject(err) : resolve(c)));
  });
  try {
    const { text, params } = bindNamed(sql, values, 'sqlite', sqliteDate);
    const rows = await new Promise<Array<{ detail: string }>>((resolve, reject) =>
      conn.all(`EXPLAIN QUERY PLAN ${text}`, params, (err, r) => (err ? reject(err) : resolve(r as Array<{ detail: string }>))),
    );
    return rows.map((r) => r.detail);
  } finally {
    await new Promise((resolve) => conn.close(resolve));
  }
}

describe("the RDA store's look-ups, planned with the statistics of nearly empty tables", () => {
  it('find an identifier by its unique index, and a version and its document by their primary keys: never a scan', async () => {
    const kept = await recordRda(store(), { clientId: org.clientId, patientId, kind: 'consulta', bundle: bundleOf() });
    // The statistics taken now, one RDA kept: SQLite's statistics job (db/statistics.ts), PostgreSQL's
    // ANALYZE, its autovacuum kept from taking them again while the tables grow below.
    if (sqlite) await refreshPlannerStatistics(t.sequelize);
    else
      for (const table of ['rdas', 'rda_documents']) {
        await t.sequelize.query(`ALTER TABLE ${table} SET (autovacuum_enabled = false)`);
        await t.sequelize.query(`ANALYZE ${table}`);
      }
    // SQLite plans by its statistics alone; PostgreSQL weighs them by the table's size now.
    await addRdas(GROWN);
    const plans = {
      identifier: await planOf(RDA_BY_IDENTIFIER, { identifier: kept.identifier }),
      row: await planOf(RDA_TO_SEND, { id: kept.id, clientId: org.clientId }),
      document: await planOf(RDA_DOCUMENT, { id: kept.id }),
    };
    if (sqlite)
      expect(plans).toEqual({
        identifier: ['SEARCH rdas USING INDEX sqlite_autoindex_rdas_1 (identifier=?)'],
        row: ['SEARCH rdas USING INTEGER PRIMARY KEY (rowid=?)'],
        document: ['SEARCH rda_documents USING INTEGER PRIMARY KEY (rowid=?)'],
      });
    else
      expect({
        identifier: plans.identifier[0],
        row: plans.row[0],
        document: plans.document[0],
        scans: Object.values(plans)
          .flat()
          .filter((line) => /Seq Scan/.test(line)),
      }).toEqual({
        identifier: 'Index Scan using rdas_identifier_key on rdas',
        row: 'Index Scan using rdas_pkey on rdas',
        document: 'Index Scan using rda_documents_pkey on rda_documents',
        scans: [],
      });
  });
});

describe('migration 0041', () => {
  /** Every document kept, by its version's row id, from wherever it lives. */
  async function documents(from: 'rdas' | 'rda_documents'): Promise<Map<number, string>> {
    const rows = await select<{ id: number; bundle: string }>(
      t.sequelize,
      from === 'rdas' ? 'SELECT id, bundle FROM rdas ORDER BY id' : 'SELECT rda_id AS id, bundle FROM rda_documents ORDER BY rda_id',
      {},
    );
    return new Map(rows.map((r) => [Number(r.id), r.bundle]));
  }
  const hasBundle = async () => 'bundle' in (await t.sequelize.getQueryInterface().describeTable('rdas'));

  it('puts the documents back in rdas.bundle (down) and moves them across again (up), a copy left halfway resumed', async () => {
    const qi = t.sequelize.getQueryInterface();
    const before = await documents('rda_documents');
    expect(before.size).toBe(GROWN + 1);
    expect(await hasBundle()).toBe(false);

    await rdaDocuments.down({ context: qi });
    expect(await hasBundle()).toBe(true);
    expect(await documents('rdas')).toEqual(before);
    await expect(select(t.sequelize, 'SELECT COUNT(*) AS n FROM rda_documents', {})).rejects.toThrow();

    // A start killed during the copy: the table made, the first step's documents across.
    await t.sequelize.query(
      'CREATE TABLE rda_documents (rda_id INTEGER PRIMARY KEY REFERENCES rdas (id) ON DELETE CASCADE, bundle TEXT NOT NULL)',
    );
    await t.sequelize.query('INSERT INTO rda_documents (rda_id, bundle) SELECT id, bundle FROM rdas WHERE id <= :last', {
      replacements: { last: [...before.keys()][499] },
    });
    await rdaDocuments.up({ context: qi });
    expect(await hasBundle()).toBe(false);
    expect(await documents('rda_documents')).toEqual(before);
    // Run again, it finds its work done.
    await rdaDocuments.up({ context: qi });
    expect(await documents('rda_documents')).toEqual(before);

    // The product reads each version's document where it now is, the text as kept.
    const [first] = before.keys();
    const detail = await getRda({ sequelize: t.sequelize }, org.clientId, first);
    expect(JSON.stringify(detail.bundle)).toBe(before.get(first));
  }, 120_000);

  it("a version's document goes with it", async () => {
    const kept = await recordRda(store(), { clientId: org.clientId, patientId, kind: 'paciente', bundle: bundleOf() });
    expect((await select(t.sequelize, RDA_DOCUMENT, { id: kept.id })).length).toBe(1);
    await execute(t.sequelize, 'DELETE FROM rdas WHERE id = :id', { id: kept.id });
    expect(await select(t.sequelize, RDA_DOCUMENT, { id: kept.id })).toEqual([]);
  });
});
