import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyStatement, writtenTables, type Schema } from './schema';
import { findWrites } from './writes';
import { FOREIGN_WRITES_ALLOWED, checkTables, parseOwnership, type AllowedWrite } from './tables';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('writtenTables', () => {
  it.each([
    ['INSERT INTO alerts (client_id) VALUES (1)', ['alerts']],
    ['insert into "alert_entries" ("when") values (1)', ['alert_entries']],
    ['INSERT OR IGNORE INTO jobs (kind) VALUES (1)', ['jobs']],
    ['UPDATE users SET media_email = 1', ['users']],
    ['UPDATE "alerts" SET "when" = 1', ['alerts']],
    ['UPDATE alerts AS a SET status = 1 FROM x', ['alerts']],
    ['UPDATE ONLY stocks s SET cuantity = 0', ['stocks']],
    ['DELETE FROM patient_tags WHERE tag_id = 1', ['patient_tags']],
    ['INSERT INTO app_meta (key) VALUES (1) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value', ['app_meta']],
    ['INSERT INTO c (n) VALUES (1) ON CONFLICT (k) DO UPDATE SET n = c.n + 1', ['c']],
    ['SELECT id FROM alerts WHERE "when" > 1 FOR UPDATE', []],
    ['CREATE TRIGGER t AFTER UPDATE OF status ON alerts BEGIN SELECT 1; END', []],
    ['UPDATE ${table} SET x = 1', []],
  ])('%s → %j', (sql, tables) => {
    expect(writtenTables(sql)).toEqual(tables);
  });
});

describe('findWrites', () => {
  const models = new Map([['Tag', 'tags']]);
  const write = (source: string) => findWrites('api/src/modules/x/x.ts', source, models).map((w) => [w.line, w.table, w.how]);
  it.each([
    ["await execute(s, 'UPDATE alerts SET status = 1', {});", [[1, 'alerts', 'UPDATE']]],
    ['await s.query(`\n  INSERT INTO "alert_entries" (a)\n  VALUES (1)`);', [[2, 'alert_entries', 'INSERT INTO']]],
    ['await s.query(`DELETE FROM tags WHERE id IN ${ids}`);', [[1, 'tags', 'DELETE FROM']]],
    ["await qi.bulkInsert('patient_tags', rows);", [[1, 'patient_tags', 'bulkInsert']]],
    ['await Tag.create({ name });', [[1, 'tags', 'Tag.create']]],
    ['await Tag.findAll({});', []],
    ['await Other.destroy({});', []],
    ['export const r = defineResource({ name: "tags", model: Tag });', [[1, 'tags', 'defineResource({ model: Tag })']]],
    [
      "export const a = statedHistoryList<Row, Dto, In>({\n  table: 'patient_allergies',\n  columns: {},\n});",
      [[1, 'patient_allergies', "statedHistoryList({ table: 'patient_allergies' })"]],
    ],
    ['// UPDATE alerts SET status = 1\nconst a = 1;', []],
    ['const t = await Tag.findByPk(1);\nawait t!.save();', [[2, 'tags', 't.save()']]],
    ['function f(tag: Tag) {\n  return tag.update({});\n}', [[2, 'tags', 'tag.update()']]],
    ['function a(x: Tag) {}\nfunction b(x: Other) {\n  return x.destroy();\n}', []],
  ])('%s', (source, expected) => {
    expect(write(source)).toEqual(expected);
  });
});

describe('applyStatement', () => {
  const empty = (): Schema => ({ tables: new Set(), triggers: new Map() });
  it('reads a SQLite trigger: its table, events and what its body writes', () => {
    const schema = empty();
    applyStatement(
      schema,
      new Map(),
      'CREATE TRIGGER mark AFTER UPDATE OF status ON alerts WHEN OLD.status IS NOT NEW.status BEGIN INSERT INTO dirty (id) VALUES (NEW.id); END',
      'm.ts',
    );
    expect(schema.triggers.get('mark')).toEqual({
      name: 'mark',
      table: 'alerts',
      events: 'UPDATE OF status',
      feeds: ['dirty'],
      migration: 'm.ts',
    });
  });
  it('reads what a PostgreSQL trigger feeds from its function, and forgets a dropped trigger', () => {
    const schema = empty();
    const functions = new Map<string, string>();
    applyStatement(
      schema,
      functions,
      'CREATE FUNCTION f() RETURNS trigger AS $$ BEGIN UPDATE counts SET n = n + 1; RETURN NULL; END $$',
      'm.ts',
    );
    applyStatement(schema, functions, 'CREATE TRIGGER t AFTER INSERT OR DELETE ON alerts FOR EACH ROW EXECUTE FUNCTION f()', 'm.ts');
    expect(schema.triggers.get('t')).toMatchObject({ table: 'alerts', events: 'INSERT OR DELETE', feeds: ['counts'] });
    applyStatement(schema, functions, 'DROP TRIGGER IF EXISTS t ON alerts', 'n.ts');
    expect(schema.triggers.size).toBe(0);
  });
});

describe('parseOwnership', () => {
  it('reads the owners and the triggers, not the headers', () => {
    const doc = [
      '## Tables',
      '| table | owner | what |',
      '|---|---|---|',
      '| `alerts` | `modules/alerts` | alerts |',
      '',
      '## Triggers',
      '| trigger | on | events | feeds | owner | dialects | why |',
      '|---|---|---|---|---|---|---|',
      '| `t` | `alerts` | UPDATE OF status | `dirty` | `modules/triage` | SQLite | x |',
    ].join('\n');
    const { owners, triggers } = parseOwnership(doc);
    expect([...owners]).toEqual([['alerts', 'modules/alerts']]);
    expect(triggers.get('t')).toEqual({
      name: 't',
      table: 'alerts',
      events: 'UPDATE OF status',
      feeds: ['dirty'],
      owner: 'modules/triage',
      dialects: ['sqlite'],
    });
  });
});

/** A small tree: two modules, one migration with a trigger, one model, and the doc that lists them. */
function plantTree(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tables-'));
  const base: Record<string, string> = {
    'api/src/db/migrations/0001-base.ts': `
      export async function up({ context: qi }: any) {
        await qi.createTable('alerts', {});
        await qi.createTable('dirty', {});
        await qi.sequelize.query('CREATE TRIGGER mark_alerts AFTER INSERT ON alerts BEGIN INSERT INTO dirty (id) VALUES (NEW.id); END');
      }`,
    'api/src/db/models/alerts.model.ts': `
      export class Alert { static initModel() {} static getTableName() { return 'alerts'; } }`,
    'api/src/modules/alerts/alerts.service.ts': `export const close = (s: any) => s.query('UPDATE alerts SET status = 1');`,
    'api/src/modules/triage/triage.service.ts': `export const clear = (s: any) => s.query('DELETE FROM dirty');`,
    'docs/tables.md': [
      '## Tables',
      '| table | owner | what |',
      '|---|---|---|',
      '| `alerts` | `modules/alerts` | alerts |',
      '| `dirty` | `modules/triage` | marks |',
      '',
      '## Triggers',
      '| trigger | on | events | feeds | owner | dialects | why |',
      '|---|---|---|---|---|---|---|',
      '| `mark_alerts` | `alerts` | INSERT | `dirty` | `modules/triage` | both | x |',
    ].join('\n'),
  };
  for (const [file, text] of Object.entries({ ...base, ...files })) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  return root;
}

describe('checkTables', () => {
  const check = (files: Record<string, string>, allowed: AllowedWrite[] = []) => checkTables({ root: plantTree(files), allowed });

  it('passes a tree whose writes stay with their owners and whose triggers are listed', async () => {
    expect(await check({})).toEqual([]);
  });

  it.each([
    ['an INSERT', 's.query(`INSERT INTO alerts (id) VALUES (1)`)', 'INSERT INTO alerts'],
    ['an UPDATE', "s.query('UPDATE alerts SET status = 2 WHERE id = 1')", 'UPDATE alerts'],
    ['a DELETE', "s.query('DELETE FROM alerts WHERE id = 1')", 'DELETE FROM alerts'],
    ['a model write', 'Alert.update({ status: 2 }, { where: {} })', 'Alert.update alerts'],
  ])('fails on %s of a table from another module, naming file:line, table and owner', async (_name, call, what) => {
    const problems = await check({
      'api/src/modules/triage/triage.jobs.ts': `import { Alert } from '../../db/models/alerts.model';\n\nexport const f = (s: any) => ${call};`,
    });
    expect(problems).toEqual([
      `api/src/modules/triage/triage.jobs.ts:3: ${what} outside its owner api/src/modules/alerts (ask that module; docs/tables.md)`,
    ]);
  });

  it('lets an allow-listed foreign write pass, and fails on an entry that matches no write', async () => {
    const file = 'api/src/modules/triage/triage.jobs.ts';
    const allowed = [{ file, table: 'alerts', why: 'moving' }];
    expect(await check({ [file]: "export const f = (s: any) => s.query('UPDATE alerts SET status = 2');" }, allowed)).toEqual([]);
    expect(await check({}, allowed)).toEqual([
      `allow-list entry ${file} → alerts matches no write any more: remove it (scripts/structure/tables.ts)`,
    ]);
  });

  it('fails on a trigger a migration creates that the doc does not list', async () => {
    const problems = await check({
      'api/src/db/migrations/0002-more.ts': `
        export async function up({ context: qi }: any) {
          const name = ['mark', 'alerts', 'delete'].join('_');
          await qi.sequelize.query(\`CREATE TRIGGER \${name} AFTER DELETE ON alerts BEGIN INSERT INTO dirty (id) VALUES (OLD.id); END\`);
        }`,
    });
    expect(problems).toEqual([
      'trigger mark_alerts_delete (on alerts, feeds dirty; api/src/db/migrations/0002-more.ts) is not listed in docs/tables.md',
    ]);
  });

  it('fails on a table without an owner and on a trigger row that disagrees with its migration', async () => {
    const problems = await check({
      'api/src/db/migrations/0002-more.ts': `export async function up({ context: qi }: any) { await qi.createTable('notes', {}); }`,
      'docs/tables.md': fs
        .readFileSync(path.join(plantTree({}), 'docs/tables.md'), 'utf8')
        .replace(
          '| `mark_alerts` | `alerts` | INSERT | `dirty` | `modules/triage` |',
          '| `mark_alerts` | `alerts` | DELETE | `dirty` | `modules/alerts` |',
        ),
    });
    expect(problems).toEqual([
      'table notes has no owner in docs/tables.md',
      'docs/tables.md: trigger mark_alerts fires on INSERT, not DELETE',
      'docs/tables.md: trigger mark_alerts feeds dirty, owned by modules/triage, not modules/alerts',
    ]);
  });

  it('passes the real tree with an empty allow-list: every table is written by its owner alone', async () => {
    expect(FOREIGN_WRITES_ALLOWED).toEqual([]);
    expect(await checkTables({ root: ROOT })).toEqual([]);
  }, 60_000);
});
