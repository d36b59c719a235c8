/**
 * Where the API writes each table. A write is found in three shapes:
 * - SQL text in a string or template literal: INSERT INTO x, UPDATE x SET, DELETE FROM x (an
 *   `ON CONFLICT ... DO UPDATE` is its INSERT's; a quoted name counts as the bare one);
 * - the query interface's bulk calls with a literal table: bulkInsert('x'), bulkUpdate, bulkDelete;
 * - a Sequelize model's static writes (X.create, bulkCreate, update, destroy, upsert, increment,
 *   decrement, truncate, findOrCreate) on a model of api/src/db/models, and a catalogue declaration
 *   (defineResource({ model: X })), whose table the resource engine then writes for it, and a
 *   stated-history list's (statedHistoryList({ table: 'x' })), which that mechanism writes for it.
 * - a write through an instance (x.save(), x.update(), x.destroy()...) whose variable a finder of a
 *   known model answered (`const x = await Tag.findByPk(id)`) or whose type names one (`x: Tag`).
 * Not seen: a table name built at run time (`UPDATE ${table}`), and an instance that reaches a
 * file untyped (a loop over findAll's rows): its model's static calls place the table.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { writtenTables } from './schema.js';

export interface TableWrite {
  /** Repository-relative path. */
  file: string;
  line: number;
  table: string;
  /** What was seen: 'INSERT INTO', 'Tag.create', 'bulkInsert'... */
  how: string;
}

const MODEL_WRITES = new Set(['create', 'bulkCreate', 'update', 'destroy', 'upsert', 'increment', 'decrement', 'truncate', 'findOrCreate']);
const BULK_WRITES = new Set(['bulkInsert', 'bulkUpdate', 'bulkDelete']);
const INSTANCE_WRITES = new Set(['save', 'update', 'destroy', 'increment', 'decrement', 'restore']);
/** Static calls that answer one instance of the model. */
const FINDERS = new Set(['findByPk', 'findOne', 'create', 'build']);

/** The expression under await, parentheses, `!` and `as`. */
function unwrap(e: ts.Expression): ts.Expression {
  while (ts.isAwaitExpression(e) || ts.isParenthesizedExpression(e) || ts.isNonNullExpression(e) || ts.isAsExpression(e)) e = e.expression;
  return e;
}

/**
 * Model class → table, read from the models themselves: each exported class with a static
 * `initModel` is initialised on a Sequelize instance that never connects, then asked its table
 * (the options are sometimes built by a helper, so the source text alone would not say).
 */
export async function readModelTables(files: string[]): Promise<Map<string, string>> {
  const { Sequelize } = await import('sequelize');
  const sequelize = new Sequelize({ dialect: 'sqlite', storage: ':memory:', logging: false });
  const out = new Map<string, string>();
  for (const file of files) {
    const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(mod)) {
      const model = value as { initModel?: (s: unknown) => void; getTableName?: () => string | { tableName: string } };
      if (typeof value !== 'function' || typeof model.initModel !== 'function') continue;
      model.initModel(sequelize);
      const table = model.getTableName!();
      out.set(name, typeof table === 'string' ? table : table.tableName);
    }
  }
  await sequelize.close();
  return out;
}

function kindOf(sql: string, table: string): string {
  const re = (p: string) => new RegExp(p.replace('%TABLE%', `"?${table}"?`), 'i');
  if (re(String.raw`\bINSERT\s+(?:OR\s+[A-Za-z]+\s+)?INTO\s+%TABLE%\b`).test(sql)) return 'INSERT INTO';
  if (re(String.raw`\bDELETE\s+FROM\s+(?:ONLY\s+)?%TABLE%\b`).test(sql)) return 'DELETE FROM';
  return 'UPDATE';
}

/** The writes one file's source makes (`file` is the repository-relative name reported). */
export function findWrites(file: string, text: string, models: Map<string, string>): TableWrite[] {
  const source = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const out = new Map<string, TableWrite>();
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line + 1;
  const add = (line: number, table: string, how: string) => {
    const key = `${line}:${table}`;
    if (!out.has(key)) out.set(key, { file, line, table, how });
  };
  // Variables known to hold a model's instance, per function scope (a name means one thing per scope).
  const scopes: Array<Map<string, string>> = [new Map()];
  const instanceTable = (name: string) => {
    for (let i = scopes.length - 1; i >= 0; i--) if (scopes[i].has(name)) return scopes[i].get(name);
    return undefined;
  };
  const modelOf = (node: ts.VariableDeclaration | ts.ParameterDeclaration): string | undefined => {
    if (node.type && ts.isTypeReferenceNode(node.type) && ts.isIdentifier(node.type.typeName)) return models.get(node.type.typeName.text);
    const init = node.initializer && unwrap(node.initializer);
    if (init && ts.isCallExpression(init) && ts.isPropertyAccessExpression(init.expression) && ts.isIdentifier(init.expression.expression))
      if (FINDERS.has(init.expression.name.text)) return models.get(init.expression.expression.text);
    return undefined;
  };
  const visit = (node: ts.Node) => {
    const scoped = ts.isFunctionLike(node);
    if (scoped) scopes.push(new Map());
    if ((ts.isVariableDeclaration(node) || ts.isParameter(node)) && ts.isIdentifier(node.name)) {
      const table = modelOf(node);
      if (table) scopes[scopes.length - 1].set(node.name.text, table);
    }
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) {
      const raw = node.getText(source);
      const start = node.getStart(source);
      for (const table of writtenTables(raw)) {
        // The line of the statement's own keyword, for a multi-line template.
        const at = raw.search(
          new RegExp(String.raw`(INSERT\s+(?:OR\s+[A-Za-z]+\s+)?INTO|UPDATE|DELETE\s+FROM)\s+(?:ONLY\s+)?"?${table}"?\b`, 'i'),
        );
        add(lineOf(start + Math.max(0, at)), table, kindOf(raw, table));
      }
    } else if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const method = node.expression.name.text;
      const target = unwrap(node.expression.expression);
      const [first] = node.arguments;
      if (BULK_WRITES.has(method) && first && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first))) {
        add(lineOf(node.getStart(source)), first.text, method);
      } else if (MODEL_WRITES.has(method) && ts.isIdentifier(target) && models.has(target.text)) {
        add(lineOf(node.getStart(source)), models.get(target.text)!, `${target.text}.${method}`);
      } else if (INSTANCE_WRITES.has(method) && ts.isIdentifier(target) && instanceTable(target.text)) {
        add(lineOf(node.getStart(source)), instanceTable(target.text)!, `${target.text}.${method}()`);
      }
    } else if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'statedHistoryList') {
      const [decl] = node.arguments;
      const table =
        decl && ts.isObjectLiteralExpression(decl)
          ? decl.properties.find((p) => ts.isPropertyAssignment(p) && p.name.getText(source) === 'table')
          : undefined;
      if (table && ts.isPropertyAssignment(table) && ts.isStringLiteralLike(table.initializer))
        add(lineOf(node.getStart(source)), table.initializer.text, `statedHistoryList({ table: '${table.initializer.text}' })`);
    } else if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'defineResource') {
      const [decl] = node.arguments;
      if (decl && ts.isObjectLiteralExpression(decl)) {
        for (const prop of decl.properties) {
          if (ts.isPropertyAssignment(prop) && prop.name.getText(source) === 'model' && ts.isIdentifier(prop.initializer)) {
            const table = models.get(prop.initializer.text);
            if (table) add(lineOf(node.getStart(source)), table, `defineResource({ model: ${prop.initializer.text} })`);
          }
        }
      }
    }
    ts.forEachChild(node, visit);
    if (scoped) scopes.pop();
  };
  visit(source);
  return [...out.values()];
}

/** Every TypeScript file under `dir`, tests and the `skip` folders left out. */
export function listSources(dir: string, skip: string[] = []): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.name === 'node_modules' || e.name === 'dist' || e.name.startsWith('.') || skip.includes(p)) continue;
      if (e.isDirectory()) walk(p);
      else if (/\.tsx?$/.test(e.name) && !/\.(test|d)\.tsx?$/.test(e.name)) out.push(p);
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out.sort();
}
