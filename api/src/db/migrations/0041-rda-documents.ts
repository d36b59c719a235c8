import type { QueryInterface } from 'sequelize';

/**
 * An RDA version's document in a table of its own (issue 51, issue 52): `rda_documents` holds the
 * Bundle as built (`bundle`, the text kept verbatim), one row per `rdas` row, written once with it
 * and never updated (a correction is a new version: a new `rdas` row and a new document). `rdas`
 * keeps what changes (status, attempts, the next try, the Ministry's answer), so a send or the
 * queueing of a backlog writes a row of a few hundred bytes. With the ~26 KB document inside it,
 * SQLite rewrote the record and its overflow pages on every UPDATE, on its one writer connection,
 * and read through them to reach any column after it: a drain of 10,000 RDAs took ingestion's p99
 * from 10 to 34 ms and the API to 324 MB.
 *
 * `rda_id` is the primary key (on SQLite the rowid itself, so a document is read by one b-tree
 * search) and goes with its version (ON DELETE CASCADE).
 *
 * The copy goes in steps of COPY_STEP rows, each a statement of its own, and every step is written
 * to be run again: a start killed halfway (the migration is recorded only once it ends) takes the
 * copy up where it stopped, and the column is dropped last, once every document is across. SQLite
 * (≥ 3.35) drops an unindexed column in place; on PostgreSQL the drop is immediate and the space
 * comes back as rows are rewritten.
 */
const COPY_STEP = 500;

const CREATE = `CREATE TABLE IF NOT EXISTS rda_documents (
  rda_id INTEGER PRIMARY KEY REFERENCES rdas (id) ON DELETE CASCADE,
  bundle TEXT NOT NULL
)`;

async function hasBundleColumn(qi: QueryInterface): Promise<boolean> {
  const columns = (await qi.describeTable('rdas')) as Record<string, unknown> | undefined;
  return Boolean(columns && 'bundle' in columns);
}

/** The row id ending the step after `after` (COPY_STEP rows of rdas), or null when none is left. */
async function stepEnd(qi: QueryInterface, after: number): Promise<number | null> {
  const [rows] = await qi.sequelize.query(
    `SELECT MAX(id) AS last FROM (SELECT id FROM rdas WHERE id > :after ORDER BY id LIMIT ${COPY_STEP}) s`,
    {
      replacements: { after },
    },
  );
  const last = (rows as Array<{ last: number | string | null }>)[0]?.last;
  return last == null ? null : Number(last);
}

export async function up({ context: qi }: { context: QueryInterface }) {
  const sequelize = qi.sequelize;
  await sequelize.query(CREATE);
  if (!(await hasBundleColumn(qi))) return;
  for (let after = 0, last = await stepEnd(qi, 0); last !== null; after = last, last = await stepEnd(qi, after))
    await sequelize.query(
      `INSERT INTO rda_documents (rda_id, bundle) SELECT id, bundle FROM rdas WHERE id > :after AND id <= :last
       ON CONFLICT (rda_id) DO NOTHING`,
      { replacements: { after, last } },
    );
  await sequelize.query('ALTER TABLE rdas DROP COLUMN bundle');
}

/**
 * The document back in `rdas.bundle`, then the table dropped. SQLite adds a NOT NULL column only
 * with a default: '' stands for it until the copy, which no row keeps (a version without its
 * document fails the copy, as it should); PostgreSQL adds the column empty and holds it NOT NULL
 * once filled.
 */
export async function down({ context: qi }: { context: QueryInterface }) {
  const sequelize = qi.sequelize;
  const postgres = sequelize.getDialect() === 'postgres';
  if (!(await hasBundleColumn(qi)))
    await sequelize.query(`ALTER TABLE rdas ADD COLUMN bundle TEXT${postgres ? '' : " NOT NULL DEFAULT ''"}`);
  for (let after = 0, last = await stepEnd(qi, 0); last !== null; after = last, last = await stepEnd(qi, after))
    await sequelize.query(
      'UPDATE rdas SET bundle = (SELECT d.bundle FROM rda_documents d WHERE d.rda_id = rdas.id) WHERE id > :after AND id <= :last',
      { replacements: { after, last } },
    );
  if (postgres) await sequelize.query('ALTER TABLE rdas ALTER COLUMN bundle SET NOT NULL');
  await sequelize.query('DROP TABLE rda_documents');
}
