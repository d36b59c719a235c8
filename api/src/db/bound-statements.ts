import type { Sequelize } from 'sequelize';
import { liftLiterals, type Dialect } from './bind.js';

/**
 * Every statement Sequelize itself sends carries its values as bound parameters (issue 18).
 * Sequelize 6 binds INSERT and UPDATE values but escapes WHERE values, LIMIT and OFFSET into the
 * text of the statements its model methods generate (findAll, count, destroy, update's WHERE). Its
 * dialect's Query.run is the last step before the driver: there each literal value is taken back out
 * of the text (bind.ts liftLiterals) and sent beside it. Statements sql.ts already bound are marked
 * `bound` and pass untouched, and so do schema statements (migrations), which take no parameters.
 */
type QueryRun = (this: { options?: { bound?: boolean; bind?: unknown } }, sql: string, parameters?: unknown) => Promise<unknown>;
interface QueryClass {
  prototype: { run: QueryRun; vigiaBound?: true };
}

const DATA_STATEMENT = /^\s*(?:\/\*[\s\S]*?\*\/\s*)*(SELECT|INSERT|UPDATE|DELETE|WITH)\b/i;

export function bindEveryStatement(sequelize: Sequelize): void {
  const Query = (sequelize as unknown as { dialect: { Query: QueryClass } }).dialect.Query;
  if (Query.prototype.vigiaBound) return;
  const dialect: Dialect = sequelize.getDialect() === 'postgres' ? 'postgres' : 'sqlite';
  const run = Query.prototype.run;
  Query.prototype.run = function (sql, parameters) {
    if (this.options?.bound || !DATA_STATEMENT.test(sql)) return run.call(this, sql, parameters);
    if (dialect === 'postgres') {
      const existing = Array.isArray(parameters) ? parameters : [];
      const lifted = liftLiterals(sql, 'postgres', existing.length + 1);
      if (!lifted.params.length) return run.call(this, sql, parameters);
      const all = [...existing, ...lifted.params];
      // Sequelize's `logging` option shows the statement with these values (the benchmark replays it).
      if (this.options) this.options.bind = all;
      return run.call(this, lifted.text, all);
    }
    const lifted = liftLiterals(sql, 'sqlite');
    if (!lifted.params.length) return run.call(this, sql, parameters);
    const named: Record<string, unknown> = { ...((parameters as Record<string, unknown> | undefined) ?? {}) };
    lifted.names.forEach((name, i) => (named[name] = lifted.params[i]));
    // Logged in the order they appear: bound by position, they fill $v1, $v2, … in that order.
    if (this.options && parameters === undefined) this.options.bind = lifted.params;
    return run.call(this, lifted.text, named);
  };
  Query.prototype.vigiaBound = true;
}
