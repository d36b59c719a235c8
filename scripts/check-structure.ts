/**
 * The tree's shape, checked (issue 17). Reads every TypeScript file, keeps the value imports (an
 * `import type`, or an import whose every name is `type`, costs nothing at run time and is left
 * out), and fails when:
 * - admin/ or portal/ imports from api/;
 * - api/src imports seeds/ from anywhere but its composition root (app.ts, server.ts);
 * - any file reaches contract/ by a relative path from outside it (the package is @vigia/contract);
 * - the folders under api/src/modules, api/src, admin/src or admin/src/pages import each other in
 *   a cycle;
 * - a page of the staff app (admin/src/pages/<x>) imports another page, beyond the edges
 *   PAGE_IMPORTS_ALLOWED still lists (and an entry there that no import uses any more fails too);
 * - an `eslint-disable` comment gives no reason after ` -- ` on its line;
 * - (scripts/structure/, with the other checks of issue 40) a staff-app file outside
 *   admin/src/providers/ makes an untyped custom call: apiUrl(...), a `url:` built from a string,
 *   fetch(...), or an import of useCustom / useCustomMutation / useDataProvider / useGetOnDemand /
 *   usePrefetchCustom instead of providers/calls.ts (structure/custom-calls.ts).
 *
 * `tsx scripts/check-structure.ts --report` prints the folder graph and import counts as well.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { checkWritersAndLayers } from './structure/index.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const PACKAGES = ['api', 'admin', 'portal', 'contract', 'seeds', 'tests', 'bench', 'scripts'];
const COMPOSITION_ROOTS = new Set(['api/src/app.ts', 'api/src/server.ts']);

export interface FileImport {
  from: string;
  spec: string;
  /** Repository-relative path the import resolves to, when it is a relative import. */
  to: string | null;
  typeOnly: boolean;
}

function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.name === 'node_modules' || e.name === 'dist' || e.name.startsWith('.')) continue;
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(ts|tsx)$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(p);
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out;
}

function resolveRelative(fromFile: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const base = path.resolve(path.dirname(fromFile), spec);
  const stem = base.replace(/\.(js|ts|tsx)$/, '');
  for (const cand of [base, `${stem}.ts`, `${stem}.tsx`, `${stem}.d.ts`, path.join(base, 'index.ts')]) {
    if (fs.existsSync(cand) && fs.statSync(cand).isFile()) return path.relative(ROOT, cand);
  }
  return path.relative(ROOT, base);
}

function isTypeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isImportDeclaration(node)) {
    const clause = node.importClause;
    if (!clause) return false; // side-effect import
    if (clause.isTypeOnly) return true;
    if (clause.name) return false;
    const bindings = clause.namedBindings;
    if (!bindings) return false;
    if (ts.isNamespaceImport(bindings)) return false;
    return bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
  }
  if (node.isTypeOnly) return true;
  const clause = node.exportClause;
  return !!clause && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly);
}

export function readImports(file: string): FileImport[] {
  const text = fs.readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const from = path.relative(ROOT, file);
  const out: FileImport[] = [];
  const add = (spec: string, typeOnly: boolean) => out.push({ from, spec, to: resolveRelative(file, spec), typeOnly });
  const visit = (node: ts.Node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      add(node.moduleSpecifier.text, isTypeOnly(node));
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteral(arg)) add(arg.text, false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      add(node.argument.literal.text, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** Strongly connected components of more than one node (Tarjan), each sorted. */
export function cycles(graph: Map<string, Set<string>>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const strong = (v: string) => {
    idx.set(v, index);
    low.set(v, index);
    index += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1) out.push(comp.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) strong(v);
  return out;
}

/** Folder graph of value imports between the direct children of `parent`. */
export function folderGraph(imports: FileImport[], parent: string): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  const folderOf = (p: string) => {
    if (!p.startsWith(`${parent}/`)) return null;
    const rest = p.slice(parent.length + 1);
    const slash = rest.indexOf('/');
    return slash < 0 ? null : rest.slice(0, slash);
  };
  for (const imp of imports) {
    if (imp.typeOnly || !imp.to) continue;
    const a = folderOf(imp.from);
    const b = folderOf(imp.to);
    if (!a || !b || a === b) continue;
    if (!graph.has(a)) graph.set(a, new Set());
    graph.get(a)!.add(b);
  }
  return graph;
}

function describeEdge(edge: { from: string; spec: string }) {
  return `${edge.from} → ${edge.spec}`;
}

/** Parents whose direct child folders may not import each other in a cycle (value imports). */
export const CYCLE_FREE = ['api/src/modules', 'api/src', 'admin/src', 'admin/src/pages'];

const PAGES = 'admin/src/pages';

/**
 * A page imports components, never another page (issue 40; /work/shared/GUIDE.md). Empty since the
 * order and alert widgets the patient page shows moved to admin/src/components/orders and /alerts; a
 * `from → to` line here would let one page folder import another while its shared part moves.
 */
export const PAGE_IMPORTS_ALLOWED: ReadonlySet<string> = new Set([]);

/** Import cycles among the folders of CYCLE_FREE, and page-to-page imports beyond `allowed`. */
export function layerProblems(imports: FileImport[], allowed: ReadonlySet<string> = PAGE_IMPORTS_ALLOWED): string[] {
  const problems: string[] = [];
  for (const parent of CYCLE_FREE) {
    for (const cycle of cycles(folderGraph(imports, parent))) problems.push(`import cycle among ${parent}/{${cycle.join(',')}}`);
  }
  const used = new Set<string>();
  for (const [from, tos] of folderGraph(imports, PAGES)) {
    for (const to of tos) {
      const edge = `${from} → ${to}`;
      used.add(edge);
      if (allowed.has(edge)) continue;
      const files = imports.filter((i) => !i.typeOnly && i.from.startsWith(`${PAGES}/${from}/`) && i.to?.startsWith(`${PAGES}/${to}/`));
      for (const imp of files)
        problems.push(`a page imports another page (move the shared part to admin/src/components): ${describeEdge(imp)}`);
    }
  }
  for (const edge of allowed) {
    if (!used.has(edge)) problems.push(`PAGE_IMPORTS_ALLOWED lists ${edge}, which no page import uses any more: remove the entry`);
  }
  return problems;
}

export function checkStructure(): { problems: string[]; imports: FileImport[] } {
  const files = PACKAGES.flatMap((p) => listFiles(path.join(ROOT, p)));
  const imports = files.flatMap(readImports);
  const problems: string[] = [];
  for (const imp of imports) {
    const pkg = imp.from.split('/')[0];
    if ((pkg === 'admin' || pkg === 'portal') && imp.to?.startsWith('api/'))
      problems.push(`front end imports the API: ${describeEdge(imp)}`);
    if (imp.from.startsWith('api/src/') && imp.to?.startsWith('seeds/') && !COMPOSITION_ROOTS.has(imp.from)) {
      problems.push(`api imports seeds outside its composition root: ${describeEdge(imp)}`);
    }
    if (pkg !== 'contract' && imp.to?.startsWith('contract/'))
      problems.push(`relative import of the contract package: ${describeEdge(imp)}`);
    if (pkg === 'contract' && imp.to && !imp.to.startsWith('contract/'))
      problems.push(`contract imports outside itself: ${describeEdge(imp)}`);
  }
  problems.push(...layerProblems(imports));
  // The house style: an `eslint-disable` says why on the same line (`-- reason`).
  for (const file of files) {
    fs.readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (/(\/\/|\/\*)\s*eslint-disable/.test(line) && !/eslint-disable[^*]*\s--\s+\S/.test(line)) {
          problems.push(`eslint-disable without a reason: ${path.relative(ROOT, file)}:${i + 1}`);
        }
      });
  }
  return { problems, imports };
}

function report(imports: FileImport[]) {
  const value = imports.filter((i) => !i.typeOnly);
  console.log(`imports: ${imports.length} (${value.length} value, ${imports.length - value.length} type-only)`);
  const relContract = imports.filter((i) => !i.from.startsWith('contract/') && i.to?.startsWith('contract/')).length;
  const byName = imports.filter((i) => i.spec.startsWith('@vigia/contract')).length;
  console.log(`contract imports: ${byName} by name, ${relContract} relative`);
  for (const parent of CYCLE_FREE) {
    const g = folderGraph(imports, parent);
    const edges = [...g.values()].reduce((n, s) => n + s.size, 0);
    console.log(`${parent}: ${g.size} folders with outgoing value imports, ${edges} folder edges`);
    for (const [a, bs] of [...g].sort()) console.log(`  ${a} → ${[...bs].sort().join(', ')}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { problems, imports } = checkStructure();
  problems.push(...(await checkWritersAndLayers(ROOT, imports)));
  if (process.argv.includes('--report')) report(imports);
  for (const p of problems) console.log(p);
  console.log(problems.length === 0 ? 'structure: ok' : `structure: ${problems.length} problems`);
  process.exit(problems.length === 0 ? 0 : 1);
}
