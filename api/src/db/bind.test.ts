import { describe, expect, it } from 'vitest';
import { bindNamed, liftLiterals } from './bind';

const date = (d: Date) => d.toISOString();

describe('bindNamed: :name placeholders become bound parameters', () => {
  it.each([
    ['one value', 'SELECT * FROM t WHERE id = :id', { id: 5 }, 'SELECT * FROM t WHERE id = ?', [5], 'SELECT * FROM t WHERE id = $1'],
    ['a list', 'WHERE id IN (:ids)', { ids: [1, 2, 3] }, 'WHERE id IN (?, ?, ?)', [1, 2, 3], 'WHERE id = ANY($1)'],
    [
      'a list not in',
      'WHERE s NOT IN ( :s ) AND x in(:x)',
      { s: [1], x: ['a'] },
      'WHERE s NOT IN ( ? ) AND x in(?)',
      [1, 'a'],
      'WHERE s <> ALL($1 ) AND x = ANY($2)',
    ],
    [
      'two names in one IN fill it',
      'WHERE id IN (:a, :b)',
      { a: [1, 2], b: 3 },
      'WHERE id IN (?, ?, ?)',
      [1, 2, 3],
      'WHERE id IN ($1, $2, $3)',
    ],
    ['a list elsewhere fills it', 'VALUES (:row)', { row: [1, 2] }, 'VALUES (?, ?)', [1, 2], 'VALUES ($1, $2)'],
    ['JOIN is not IN', 'JOIN (:ids)', { ids: [1, 2] }, 'JOIN (?, ?)', [1, 2], 'JOIN ($1, $2)'],
    ['an empty list matches nothing', 'WHERE id IN (:ids)', { ids: [] }, 'WHERE id IN (NULL)', [], 'WHERE id IN (NULL)'],
    ['the same name twice', 'a = :x OR b = :x', { x: 'q' }, 'a = ? OR b = ?', ['q', 'q'], 'a = $1 OR b = $2'],
    [
      'a cast is not a name',
      "SELECT x::int, ':no' FROM t WHERE y = :y",
      { y: 1 },
      "SELECT x::int, ':no' FROM t WHERE y = ?",
      [1],
      "SELECT x::int, ':no' FROM t WHERE y = $1",
    ],
    [
      'names in identifiers and comments stay',
      'SELECT "a:b" -- :c\nFROM t /* :d */ WHERE e = :e',
      { e: 2 },
      'SELECT "a:b" -- :c\nFROM t /* :d */ WHERE e = ?',
      [2],
      'SELECT "a:b" -- :c\nFROM t /* :d */ WHERE e = $1',
    ],
    [
      'NUL and quotes travel as data',
      'INSERT INTO t (a) VALUES (:a)',
      { a: "x'\u0000--" },
      'INSERT INTO t (a) VALUES (?)',
      ["x'\u0000--"],
      'INSERT INTO t (a) VALUES ($1)',
    ],
    ['undefined is NULL', 'UPDATE t SET a = :a', { a: undefined }, 'UPDATE t SET a = ?', [null], 'UPDATE t SET a = $1'],
  ])('%s', (_n, sql, values, sqliteText, params, pgText) => {
    expect(bindNamed(sql, values, 'sqlite', date)).toEqual({ text: sqliteText, params });
    expect(bindNamed(sql, values, 'postgres', date).text).toBe(pgText);
  });

  it('writes SQLite booleans as 1/0 and dates as stored text; PostgreSQL gets them as they are', () => {
    const d = new Date('2026-11-25T10:00:00Z');
    expect(bindNamed('a = :a AND b = :b', { a: true, b: d }, 'sqlite', date).params).toEqual([1, '2026-11-25T10:00:00.000Z']);
    expect(bindNamed('a = :a AND b = :b', { a: true, b: d }, 'postgres', date).params).toEqual([true, d]);
    expect(bindNamed('a IN (:a)', { a: [3, 4] }, 'postgres', date).params).toEqual([[3, 4]]);
  });

  it('refuses a name with no value', () => {
    expect(() => bindNamed('a = :missing', {}, 'sqlite', date)).toThrow(/:missing/);
  });

  it('numbers PostgreSQL placeholders after those already bound', () => {
    expect(bindNamed('a = :a', { a: 1 }, 'postgres', date, 4).text).toBe('a = $4');
  });
});

describe('liftLiterals: values Sequelize escaped into generated statements', () => {
  it.each([
    [
      'a where clause',
      "SELECT `id` FROM `tags` AS `Tag` WHERE `Tag`.`client_id` = 1 AND `Tag`.`name` = 'o''brien' LIMIT 20, 10;",
      'SELECT `id` FROM `tags` AS `Tag` WHERE `Tag`.`client_id` = $v1 AND `Tag`.`name` = $v2 LIMIT $v3, $v4;',
      [1, "o'brien", 20, 10],
    ],
    [
      'IN lists',
      'WHERE "id" IN (1, 2, 3) AND "s" IN (\'a\', \'b\')',
      'WHERE "id" IN ($v1, $v2, $v3) AND "s" IN ($v4, $v5)',
      [1, 2, 3, 'a', 'b'],
    ],
    ['negative numbers', 'WHERE "x" >= -5 AND "y" < 2.5', 'WHERE "x" >= $v1 AND "y" < $v2', [-5, 2.5]],
    ['BETWEEN', 'WHERE "v" BETWEEN 10 AND 20 AND "w" = 3', 'WHERE "v" BETWEEN $v1 AND $v2 AND "w" = $v3', [10, 20, 3]],
    ['dates', 'WHERE "at" > \'2026-11-25 10:00:00.000 +00:00\'', 'WHERE "at" > $v1', ['2026-11-25 10:00:00.000 +00:00']],
    ['OFFSET', 'LIMIT 10 OFFSET 40', 'LIMIT $v1 OFFSET $v2', [10, 40]],
    [
      'code numbers stay: ORDER BY position, CASE results, function arguments, identifiers with digits',
      'SELECT CASE WHEN a THEN 1 ELSE 0 END, substr(b, 1, 3), t1.c2 FROM t1 ORDER BY 1',
      'SELECT CASE WHEN a THEN 1 ELSE 0 END, substr(b, 1, 3), t1.c2 FROM t1 ORDER BY 1',
      [],
    ],
    [
      'typed literals stay',
      "WHERE at > now() - INTERVAL '1 day' AND b = E'\\\\x00'",
      "WHERE at > now() - INTERVAL '1 day' AND b = E'\\\\x00'",
      [],
    ],
    ['existing placeholders stay', 'INSERT INTO t (a, b) VALUES ($1, $2)', 'INSERT INTO t (a, b) VALUES ($1, $2)', []],
    ['strings in comments and identifiers stay', "/* 'x' */ SELECT \"it's\" FROM t", "/* 'x' */ SELECT \"it's\" FROM t", []],
  ])('%s', (_n, sql, text, params) => {
    const out = liftLiterals(sql, 'sqlite');
    expect(out.text).toBe(text);
    expect(out.params).toEqual(params);
  });

  it('numbers PostgreSQL placeholders after those Sequelize bound', () => {
    expect(liftLiterals('UPDATE "t" SET "a"=$1 WHERE "id" = 7', 'postgres', 2)).toMatchObject({
      text: 'UPDATE "t" SET "a"=$1 WHERE "id" = $2',
      params: [7],
    });
  });

  it('takes NUL and quote characters back out of the text exactly', () => {
    const value = "a'b\u0000c''";
    const escaped = `'${value.replace(/'/g, "''")}'`;
    expect(liftLiterals(`WHERE x = ${escaped}`, 'sqlite').params).toEqual([value]);
  });
});
