/**
 * The staff app's custom calls go through admin/src/providers/calls.ts (issue 40), which types each
 * one from the contract's operation: path, parameters, body and answer. Outside admin/src/providers/
 * a file fails when it builds an API URL itself, which is what an untyped call needs:
 * - a call of `apiUrl(...)` (providers/data.ts, the URL of a path);
 * - a `url:` property whose value is a string or template literal, or a `+` with one (the URL a
 *   hand-written useCustom / useCustomMutation is handed);
 * - a call of `fetch(...)` (`window.fetch`, `globalThis.fetch` alike): a request beside the data
 *   provider, with neither its types, nor its errors, nor its 401 handling;
 * - an import of the hooks calls.ts wraps: useCustom, useCustomMutation, useDataProvider from
 *   @refinedev/core, useGetOnDemand, usePrefetchCustom from providers/queries.ts (each takes a URL).
 * A `url` read from a value (`read.url`, a link the API answered) is no URL built here.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ADMIN = 'admin/src';
const PROVIDERS = 'admin/src/providers/';
const HINT = 'use providers/calls.ts (useApiQuery, useApiMutation, apiRead)';
/** The hooks that take a URL, by the module they come from (its specifier's ending). */
const URL_HOOKS: { from: RegExp; names: ReadonlySet<string> }[] = [
  { from: /^@refinedev\/core$/, names: new Set(['useCustom', 'useCustomMutation', 'useDataProvider']) },
  { from: /\/providers\/queries(\.js|\.ts)?$/, names: new Set(['useGetOnDemand', 'usePrefetchCustom']) },
];

const isStringBuilt = (node: ts.Expression): boolean => {
  const inner = ts.isParenthesizedExpression(node) || ts.isAsExpression(node) ? node.expression : node;
  if (ts.isStringLiteral(inner) || ts.isNoSubstitutionTemplateLiteral(inner) || ts.isTemplateExpression(inner)) return true;
  if (ts.isBinaryExpression(inner) && inner.operatorToken.kind === ts.SyntaxKind.PlusToken)
    return isStringBuilt(inner.left) || isStringBuilt(inner.right);
  if (ts.isConditionalExpression(inner)) return isStringBuilt(inner.whenTrue) || isStringBuilt(inner.whenFalse);
  return false;
};

const calleeName = (node: ts.CallExpression): string | null => {
  const callee = node.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (
    ts.isPropertyAccessExpression(callee) &&
    ts.isIdentifier(callee.expression) &&
    ['window', 'globalThis', 'self'].includes(callee.expression.text)
  )
    return callee.name.text;
  return null;
};

/** The untyped custom calls of one staff-app file (`file` relative to the repository), as problems. */
export function customCallProblems(file: string, text: string): string[] {
  if (!file.startsWith(`${ADMIN}/`) || file.startsWith(PROVIDERS)) return [];
  const source = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const problems: string[] = [];
  const at = (node: ts.Node) => `${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && !node.importClause?.isTypeOnly) {
      const spec = node.moduleSpecifier.text;
      const hooks = URL_HOOKS.find((h) => h.from.test(spec))?.names;
      const bindings = node.importClause?.namedBindings;
      if (hooks && bindings && ts.isNamedImports(bindings)) {
        for (const el of bindings.elements) {
          const name = (el.propertyName ?? el.name).text;
          if (!el.isTypeOnly && hooks.has(name)) problems.push(`${name} imported outside providers (${HINT}): ${at(el)}`);
        }
      }
    } else if (ts.isCallExpression(node)) {
      const name = calleeName(node);
      if (name === 'apiUrl') problems.push(`a custom call builds its URL with apiUrl (${HINT}): ${at(node)}`);
      if (name === 'fetch') problems.push(`a request with fetch beside the data provider (${HINT}): ${at(node)}`);
    } else if (
      ts.isPropertyAssignment(node) &&
      (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name)) &&
      node.name.text === 'url' &&
      isStringBuilt(node.initializer)
    ) {
      problems.push(`a custom call's url built from a string (${HINT}): ${at(node)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return problems;
}

/** customCallProblems of every TypeScript file of admin/src. */
export function checkCustomCalls(root: string): string[] {
  const problems: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')) {
        const file = path.relative(root, p).split(path.sep).join('/');
        problems.push(...customCallProblems(file, fs.readFileSync(p, 'utf8')));
      }
    }
  };
  const dir = path.join(root, ADMIN);
  if (fs.existsSync(dir)) walk(dir);
  return problems;
}
