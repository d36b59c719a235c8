/**
 * Values travel beside the SQL text, never inside it (issue 18). Two pure rewrites, one scanner:
 *
 * - bindNamed: our own statements are written with `:name` placeholders (sql.ts). Each becomes the
 *   driver's placeholder (`?` on SQLite, `$n` on PostgreSQL) and its value goes into the parameter
 *   list; an array fills a list (`IN (:ids)` → `IN (?, ?, ?)`), or on PostgreSQL goes as one array
 *   (`IN (:ids)` → `= ANY($1)`, `NOT IN` → `<> ALL`: the plan PostgreSQL makes of an IN list anyway).
 * - liftLiterals: statements Sequelize's model methods generate carry their WHERE values escaped
 *   into the text (Sequelize 6 binds only INSERT and UPDATE values). Each string literal, and each
 *   number in a value position (after a comparison, inside `IN (...)`, after LIMIT or OFFSET,
 *   around BETWEEN ... AND), is taken back out of the text and bound.
 *
 * The scanner skips what is not a value: quoted identifiers, comments, existing placeholders, `::`
 * casts, typed literals (`INTERVAL '1 day'`, `E'...'`).
 */
export type Dialect = 'sqlite' | 'postgres';

export interface Bound {
  text: string;
  params: unknown[];
}

/** What precedes a number, for telling a value (`id = 5`) from code (`ORDER BY 1`, `CASE WHEN ... THEN 1`). */
export interface NumberContext {
  /** The previous significant token: an upper-cased word, an operator, `(`, `)`, `,` or VALUE. */
  prev: string;
  /** The one before it. */
  prevPrev: string;
  /** Inside the parentheses of `IN (...)`. */
  inList: boolean;
  /** Between LIMIT and the end of its values (`LIMIT 10, 20`). */
  afterLimit: boolean;
  /** The previous token is the AND of a BETWEEN. */
  between: boolean;
}

interface Scan {
  /** A string literal: answer its replacement text, or null to keep it. */
  onString?(value: string): string | null;
  /** A bare number (a minus sign before it is the previous token `-`): its replacement, or null. */
  onNumber?(text: string, context: NumberContext): { text: string; dropMinus?: boolean } | null;
  /** `:name`. */
  onNamed?(name: string): string | null;
}

const COMPARISON = new Set(['=', '<', '>', '<=', '>=', '<>', '!=']);

function scan(sql: string, handlers: Scan): string {
  let out = '';
  let i = 0;
  const n = sql.length;
  let prev = '';
  let prevPrev = '';
  const parens: boolean[] = [];
  let afterLimit = false;
  let between = false;
  let andOfBetween = false;
  const token = (t: string) => {
    andOfBetween = false;
    prevPrev = prev;
    prev = t;
    if (t === 'LIMIT') afterLimit = true;
    else if (afterLimit && t !== 'VALUE' && t !== ',') afterLimit = false;
    if (t === 'BETWEEN') between = true;
    else if (t === 'AND' && between) {
      between = false;
      andOfBetween = true;
    }
  };
  while (i < n) {
    const c = sql[i];
    if (c === "'") {
      let j = i + 1;
      let value = '';
      for (;;) {
        if (j >= n) throw new Error('SQL: unterminated string literal');
        if (sql[j] === "'") {
          if (sql[j + 1] === "'") {
            value += "'";
            j += 2;
            continue;
          }
          break;
        }
        value += sql[j++];
      }
      const end = j + 1;
      const prefixed = i > 0 && /[A-Za-z0-9_]/.test(sql[i - 1]);
      const typed = /^(INTERVAL|DATE|TIME|TIMESTAMP|TIMESTAMPTZ)$/.test(prev);
      const replaced = prefixed || typed ? null : (handlers.onString?.(value) ?? null);
      out += replaced ?? sql.slice(i, end);
      i = end;
      token('VALUE');
    } else if (c === '"' || c === '`') {
      const j = sql.indexOf(c, i + 1);
      const end = j < 0 ? n : j + 1;
      out += sql.slice(i, end);
      i = end;
      token('IDENT');
    } else if (c === '-' && sql[i + 1] === '-') {
      const j = sql.indexOf('\n', i);
      const end = j < 0 ? n : j;
      out += sql.slice(i, end);
      i = end;
    } else if (c === '/' && sql[i + 1] === '*') {
      const j = sql.indexOf('*/', i + 2);
      const end = j < 0 ? n : j + 2;
      out += sql.slice(i, end);
      i = end;
    } else if (c === ':' && sql[i + 1] === ':') {
      // A PostgreSQL cast: `x::int`.
      let j = i + 2;
      while (j < n && /[A-Za-z0-9_]/.test(sql[j])) j++;
      out += sql.slice(i, j);
      i = j;
    } else if (c === ':' && /[A-Za-z_]/.test(sql[i + 1] ?? '') && !(i > 0 && /[A-Za-z0-9_]/.test(sql[i - 1]))) {
      let j = i + 1;
      while (j < n && /[A-Za-z0-9_]/.test(sql[j])) j++;
      const replaced = handlers.onNamed?.(sql.slice(i + 1, j)) ?? null;
      out += replaced ?? sql.slice(i, j);
      i = j;
      token('VALUE');
    } else if (/[0-9]/.test(c)) {
      let j = i;
      while (j < n && /[0-9]/.test(sql[j])) j++;
      if (sql[j] === '.' && /[0-9]/.test(sql[j + 1] ?? '')) {
        j++;
        while (j < n && /[0-9]/.test(sql[j])) j++;
      }
      if (/[eE]/.test(sql[j] ?? '') && /[-+0-9]/.test(sql[j + 1] ?? '')) {
        j += 2;
        while (j < n && /[0-9]/.test(sql[j])) j++;
      }
      if (j < n && /[A-Za-z_]/.test(sql[j])) {
        // Part of a word (`1st`): not a number.
        while (j < n && /[A-Za-z0-9_]/.test(sql[j])) j++;
        out += sql.slice(i, j);
        token('IDENT');
      } else {
        const inList = parens.length > 0 && parens[parens.length - 1];
        const replaced = handlers.onNumber?.(sql.slice(i, j), { prev, prevPrev, inList, afterLimit, between: andOfBetween }) ?? null;
        if (replaced?.dropMinus) out = out.replace(/-\s*$/, '');
        out += replaced?.text ?? sql.slice(i, j);
        token('VALUE');
      }
      i = j;
    } else if ((c === '$' || c === '?') && (c === '?' || /[0-9]/.test(sql[i + 1] ?? ''))) {
      let j = i + 1;
      while (j < n && /[0-9]/.test(sql[j])) j++;
      out += sql.slice(i, j);
      i = j;
      token('VALUE');
    } else if (/[A-Za-z_]/.test(c)) {
      let j = i;
      while (j < n && /[A-Za-z0-9_$]/.test(sql[j])) j++;
      // `t.col` and `"t".col`: a qualified name is one identifier.
      while (sql[j] === '.' && /[A-Za-z_"`]/.test(sql[j + 1] ?? '')) {
        j++;
        if (sql[j] === '"' || sql[j] === '`') j = sql.indexOf(sql[j], j + 1) + 1 || n;
        else while (j < n && /[A-Za-z0-9_$]/.test(sql[j])) j++;
      }
      const word = sql.slice(i, j);
      out += word;
      i = j;
      token(/^[A-Za-z_]+$/.test(word) ? word.toUpperCase() : 'IDENT');
    } else if (c === '(') {
      parens.push(prev === 'IN');
      out += c;
      i++;
      token('(');
    } else if (c === ')') {
      parens.pop();
      out += c;
      i++;
      token(')');
    } else if (/[<>=!]/.test(c)) {
      let j = i + 1;
      while (j < n && /[<>=]/.test(sql[j])) j++;
      out += sql.slice(i, j);
      token(sql.slice(i, j));
      i = j;
    } else if (/\s/.test(c)) {
      out += c;
      i++;
    } else {
      out += c;
      i++;
      token(c);
    }
  }
  return out;
}

/** The dialect's n-th placeholder (1-based). */
const placeholder = (dialect: Dialect, index: number) => (dialect === 'postgres' ? `$${index}` : '?');

/** A value as the driver takes it: booleans as 1/0 on SQLite, dates in Sequelize's stored text there. */
function driverValue(dialect: Dialect, v: unknown, writeDate: (d: Date) => string): unknown {
  if (v === undefined) return null;
  if (dialect === 'sqlite') {
    if (typeof v === 'boolean') return v ? 1 : 0;
    if (v instanceof Date) return writeDate(v);
    if (typeof v === 'bigint') return v.toString();
  }
  return v;
}

/**
 * `:name` placeholders → the driver's, with the values in order. A name missing from `values` is an
 * error (as Sequelize's replacements are). An empty array writes NULL (`IN (NULL)` matches nothing,
 * and so does `NOT IN (NULL)`, on both databases).
 * `first` is the index the first placeholder gets on PostgreSQL (after parameters already bound).
 */
export function bindNamed(
  sql: string,
  values: Record<string, unknown>,
  dialect: Dialect,
  writeDate: (d: Date) => string,
  first = 1,
): Bound {
  const params: unknown[] = [];
  const next = (v: unknown) => {
    params.push(driverValue(dialect, v, writeDate));
    return placeholder(dialect, first + params.length - 1);
  };
  const { chunks, names, lists } = templateOf(sql);
  let text = chunks[0];
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    if (!Object.prototype.hasOwnProperty.call(values, name)) throw new Error(`SQL: no value for :${name}`);
    const v = values[name];
    const list = Array.isArray(v) && v.length && dialect === 'postgres' ? lists[i] : null;
    if (list) {
      // One array for the whole list: the text stays the same whatever the list holds (prepared once, sql.ts).
      text = text.slice(0, text.length - list.cut) + (list.negated ? '<> ALL(' : '= ANY(') + next(v) + chunks[i + 1];
      continue;
    }
    text += (Array.isArray(v) ? (v.length ? v.map(next).join(', ') : 'NULL') : next(v)) + chunks[i + 1];
  }
  return { text, params };
}

/** `IN (` or `NOT IN (` right before a placeholder. */
const IN_LIST = /\b(NOT\s+)?IN\s*\(\s*$/i;

/**
 * A statement's text cut at its `:name` placeholders, scanned once per text: the statements are the
 * code's own constants, and scanning one costs more than sending it (the ingestion path runs a
 * dozen per reading). Bounded: texts built per call (IN lists of varying shape) cannot grow it.
 */
interface Template {
  chunks: string[];
  names: string[];
  /**
   * For each placeholder alone in an `IN (…)` (`NOT IN`): how many characters of the text before it
   * the `IN (` takes, for PostgreSQL's one-array form. Found once per text, with the chunks.
   */
  lists: Array<{ cut: number; negated: boolean } | null>;
}
const templates = new Map<string, Template>();
function templateOf(sql: string): Template {
  let t = templates.get(sql);
  if (t) return t;
  const names: string[] = [];
  // NUL never occurs in the code's SQL text: it marks where each value goes.
  const marked = scan(sql, {
    onNamed(name) {
      names.push(name);
      return '\u0000';
    },
  });
  const chunks = marked.split('\u0000');
  const lists = names.map((_, i) => {
    const list = /^\s*\)/.test(chunks[i + 1]) ? IN_LIST.exec(chunks[i]) : null;
    return list ? { cut: chunks[i].length - list.index, negated: !!list[1] } : null;
  });
  t = { chunks, names, lists };
  if (templates.size >= 5000) templates.clear();
  templates.set(sql, t);
  return t;
}

/** Whether a number in this position is a value a caller supplied (not `ORDER BY 1` or `THEN 1`). */
export function isValuePosition(c: NumberContext): boolean {
  if (COMPARISON.has(c.prev) || c.prev === 'OFFSET' || c.prev === 'BETWEEN' || c.prev === 'LIMIT') return true;
  if (c.prev === 'AND' && c.prevPrev === 'VALUE' && c.between) return true;
  if (c.inList && (c.prev === '(' || c.prev === ',')) return true;
  if (c.afterLimit && c.prev === ',') return true;
  return false;
}

/**
 * Literal values of a generated statement → bound parameters. `first` is the index the first lifted
 * placeholder gets on PostgreSQL; on SQLite lifted values are named (`$v1`, `$v2`, …) so they mix
 * with the `$1` parameters Sequelize already binds (an object keyed by name).
 */
export function liftLiterals(sql: string, dialect: Dialect, first = 1): { text: string; params: unknown[]; names: string[] } {
  const params: unknown[] = [];
  const names: string[] = [];
  const next = (v: unknown) => {
    params.push(v);
    if (dialect === 'postgres') return `$${first + params.length - 1}`;
    const name = `$v${params.length}`;
    names.push(name);
    return name;
  };
  const text = scan(sql, {
    onString: (value) => next(value),
    onNumber(textValue, context) {
      const value = Number(textValue);
      if (!Number.isFinite(value)) return null;
      if (isValuePosition(context)) return { text: next(value) };
      // `= -5`: the minus belongs to the value.
      if (context.prev === '-' && isValuePosition({ ...context, prev: context.prevPrev, prevPrev: '' }))
        return { text: next(-value), dropMinus: true };
      return null;
    },
  });
  return { text, params, names };
}
