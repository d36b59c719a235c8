import { describe, expect, it } from 'vitest';
import { Sequelize } from 'sequelize';
import { sqlDate } from './sql.js';

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
