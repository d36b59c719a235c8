import type { QueryInterface } from 'sequelize';

/**
 * A device's card number is unique within its client, not across the installation (issue 18,
 * P147): a number unique everywhere let one client learn that another uses a card (the conflict
 * answer) or take a number first so the other could never register it. Unique (client_id, card_id)
 * replaces the plain index of 0004; the gateway call names only the card, so a plain index on
 * card_id serves its lookup of the candidates, and the device secret picks among them.
 *
 * PostgreSQL drops the unique index 0004 created (`devices_card_id_key`; also as a constraint, the
 * name PostgreSQL gives a column's UNIQUE). SQLite cannot drop a column's inline UNIQUE, so the
 * table is rebuilt with the same columns, in one transaction; nothing references `devices` by
 * foreign key (measurements.device_id is a plain column), so the rows keep their ids.
 */
const SQLITE_TABLE = `CREATE TABLE devices_0018 (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  client_id INTEGER NOT NULL REFERENCES clients (id),
  card_id VARCHAR(64) NOT NULL,
  multipatient TINYINT(1) NOT NULL DEFAULT 0,
  name VARCHAR(80),
  secret_hash VARCHAR(64) NOT NULL,
  secret_rotated_at DATETIME NOT NULL,
  last_seen_at DATETIME,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL
)`;
const COLUMNS = 'id, client_id, card_id, multipatient, name, secret_hash, secret_rotated_at, last_seen_at, created_at, updated_at';

const INDEXES = [
  'CREATE UNIQUE INDEX devices_client_card ON devices (client_id, card_id)',
  'CREATE INDEX devices_card ON devices (card_id)',
];

export async function up({ context: qi }: { context: QueryInterface }) {
  const sequelize = qi.sequelize;
  await sequelize.transaction(async (transaction) => {
    const run = (sql: string) => sequelize.query(sql, { transaction });
    if (sequelize.getDialect() === 'postgres') {
      await run('ALTER TABLE devices DROP CONSTRAINT IF EXISTS devices_card_id_key');
      await run('DROP INDEX IF EXISTS devices_card_id_key');
      await run('DROP INDEX IF EXISTS devices_client_card');
    } else {
      await run(SQLITE_TABLE);
      await run(`INSERT INTO devices_0018 (${COLUMNS}) SELECT ${COLUMNS} FROM devices`);
      await run('DROP TABLE devices');
      await run('ALTER TABLE devices_0018 RENAME TO devices');
    }
    for (const sql of INDEXES) await run(sql);
  });
}

/** Back to one card number per installation: fails, as it should, while two clients share a number. */
export async function down({ context: qi }: { context: QueryInterface }) {
  const sequelize = qi.sequelize;
  await sequelize.transaction(async (transaction) => {
    const run = (sql: string) => sequelize.query(sql, { transaction });
    await run('DROP INDEX devices_card');
    await run('DROP INDEX devices_client_card');
    await run('CREATE UNIQUE INDEX devices_card_id_key ON devices (card_id)');
    await run('CREATE INDEX devices_client_card ON devices (client_id, card_id)');
  });
}
