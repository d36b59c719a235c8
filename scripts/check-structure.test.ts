import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cycles, folderGraph, layerProblems, readImports, type FileImport } from './check-structure';

const graph = (edges: Record<string, string[]>) => new Map(Object.entries(edges).map(([k, v]) => [k, new Set(v)]));

describe('cycles', () => {
  it.each([
    ['none in a chain', { a: ['b'], b: ['c'], c: [] }, []],
    ['a pair', { a: ['b'], b: ['a'] }, [['a', 'b']]],
    ['one knot of three beside a free node', { a: ['b'], b: ['c'], c: ['a'], d: ['a'] }, [['a', 'b', 'c']]],
    [
      'two separate knots',
      { a: ['b'], b: ['a'], c: ['d'], d: ['c'] },
      [
        ['a', 'b'],
        ['c', 'd'],
      ],
    ],
  ])('%s', (_name, edges, expected) => {
    expect(cycles(graph(edges)).sort()).toEqual(expected);
  });
});

describe('folderGraph', () => {
  const imp = (from: string, to: string, typeOnly = false): FileImport => ({ from, to, spec: to, typeOnly });
  it('counts value imports between the folders of a parent, not type-only ones or those within a folder', () => {
    const g = folderGraph(
      [
        imp('api/src/modules/orders/a.ts', 'api/src/modules/patients/b.ts'),
        imp('api/src/modules/patients/b.ts', 'api/src/modules/orders/a.ts', true),
        imp('api/src/modules/orders/a.ts', 'api/src/modules/orders/c.ts'),
        imp('api/src/modules/orders/a.ts', 'api/src/db/sql.ts'),
      ],
      'api/src/modules',
    );
    expect([...g].map(([k, v]) => [k, [...v]])).toEqual([['orders', ['patients']]]);
  });
});

describe('readImports', () => {
  it.each([
    ["import { a } from './x';", false],
    ["import type { a } from './x';", true],
    ["import { type a, type b } from './x';", true],
    ["import { type a, b } from './x';", false],
    ["import * as x from './x';", false],
    ["import './x';", false],
    ["export { a } from './x';", false],
    ["export type { a } from './x';", true],
    ["const x = await import('./x');", false],
    ["let y: import('./x').T;", true],
  ])('%s is type-only: %s', (source, typeOnly) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'structure-'));
    const file = path.join(dir, 'f.ts');
    fs.writeFileSync(file, source);
    const [found] = readImports(file);
    expect(found.spec).toBe('./x');
    expect(found.typeOnly).toBe(typeOnly);
  });
});

describe("layerProblems: the staff app's layers (issue 40)", () => {
  const imp = (from: string, to: string, typeOnly = false): FileImport => ({ from, to, spec: to, typeOnly });
  const none = new Set<string>();

  it.each([
    [
      'the cycle the registry closed: providers → resources → pages → providers',
      [
        imp('admin/src/providers/access.ts', 'admin/src/resources/registry.tsx'),
        imp('admin/src/resources/registry.tsx', 'admin/src/pages/stocks/StockPage.tsx'),
        imp('admin/src/pages/stocks/StockPage.tsx', 'admin/src/providers/access.ts'),
      ],
      none,
      ['import cycle among admin/src/{pages,providers,resources}'],
    ],
    [
      'layout ⇄ crud',
      [
        imp('admin/src/layout/FeedbackDialog.tsx', 'admin/src/crud/form-controls.tsx'),
        imp('admin/src/crud/CrudList.tsx', 'admin/src/layout/LinkButton.tsx'),
      ],
      none,
      ['import cycle among admin/src/{crud,layout}'],
    ],
    [
      'pages/orders ⇄ pages/patients, one edge allowed',
      [
        imp('admin/src/pages/patients/tabs/OrdersTab.tsx', 'admin/src/pages/orders/OrdersTable.tsx'),
        imp('admin/src/pages/orders/OrderDetailPage.tsx', 'admin/src/pages/patients/record-access.ts'),
      ],
      new Set(['patients → orders']),
      [
        'import cycle among admin/src/pages/{orders,patients}',
        'a page imports another page (move the shared part to admin/src/components): admin/src/pages/orders/OrderDetailPage.tsx → admin/src/pages/patients/record-access.ts',
      ],
    ],
    [
      'a page importing another page',
      [imp('admin/src/pages/dashboard/DashboardPage.tsx', 'admin/src/pages/triage/TriageTable.tsx')],
      none,
      [
        'a page imports another page (move the shared part to admin/src/components): admin/src/pages/dashboard/DashboardPage.tsx → admin/src/pages/triage/TriageTable.tsx',
      ],
    ],
    [
      'an allowed edge no import uses any more',
      [imp('admin/src/pages/dashboard/DashboardPage.tsx', 'admin/src/components/Card.tsx')],
      new Set(['dashboard → alerts']),
      ['PAGE_IMPORTS_ALLOWED lists dashboard → alerts, which no page import uses any more: remove the entry'],
    ],
    [
      'pages reading components and a type of another page',
      [
        imp('admin/src/pages/orders/OrderDetailPage.tsx', 'admin/src/components/record-access.ts'),
        imp('admin/src/pages/orders/OrderDetailPage.tsx', 'admin/src/pages/patients/types.ts', true),
        imp('admin/src/pages/patients/PatientPage.tsx', 'admin/src/components/record-access.ts'),
        imp('admin/src/components/record-access.ts', 'admin/src/providers/access.ts'),
      ],
      none,
      [],
    ],
  ])('%s', (_name, imports, allowed, expected) => {
    expect(layerProblems(imports, allowed)).toEqual(expected);
  });
});
