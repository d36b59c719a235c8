import { describe, expect, it } from 'vitest';
import { QueryTypes, Sequelize } from 'sequelize';
import { select, sqlDate } from './sql.js';

describe('sqlDate', () => {
  const sqlite = new Sequelize({ dialect: 'sqlite', storage: ':memory:', logging: false });
  it.each([
    '2026-11-21T12:34:56.789Z',
    '2026-01-01T00:00:00.000Z',
    '1999-12-31T23:59:59.999Z',
    '2026-03-08T07:00:00.001Z',
  ])('%s is written as sequelize.escape writes it', (iso) => {
    expect(sqlDate(new Date(iso))).toBe(sqlite.escape(new Date(iso) as unknown as string));
  });
});

describe('select on SQLite (straight to the driver)', () => {
  const sqlite = new Sequelize({ dialect: 'sqlite', storage: ':memory:', logging: false });
  it.each([
    ['a date', { v: new Date('2026-11-21T12:34:56.789Z') }],
    ['a string with a quote', { v: "O'Higgins" }],
    ['a number', { v: 36.6 }],
    ['null', { v: null }],
  ])('writes %s as Sequelize does', async (_name, replacements) => {
    const [ours] = await select<{ v: unknown }>(sqlite, 'SELECT :v AS v', replacements);
    const [theirs] = (await sqlite.query('SELECT :v AS v', { replacements, type: QueryTypes.SELECT })) as Array<{ v: unknown }>;
    expect(ours.v).toEqual(theirs.v);
  });

  it('expands a list for IN', async () => {
    const rows = await select<{ v: number }>(sqlite, 'SELECT value AS v FROM json_each(:list) WHERE value IN (:ids)', { list: '[1,2,3,4]', ids: [2, 4] });
    expect(rows.map((r) => r.v)).toEqual([2, 4]);
  });
});

describe('logging on SQLite', () => {
  it("shows the statement sent straight to the driver to Sequelize's logging option", async () => {
    const logged: string[] = [];
    const sqlite = new Sequelize({ dialect: 'sqlite', storage: ':memory:', logging: (text: string) => logged.push(text) });
    await select(sqlite, 'SELECT :v AS v', { v: 7 });
    expect(logged.at(-1)).toBe('Executing (default): SELECT 7 AS v');
  });
});
