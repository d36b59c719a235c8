import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cycles, folderGraph, layerProblems, readImports, type FileImport } from './check-structure';
import { checkCustomCalls, customCallProblems } from './structure/custom-calls';

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

describe("customCallProblems: the staff app's custom calls through providers/calls.ts (issue 40)", () => {
  const HINT = 'use providers/calls.ts (useApiQuery, useApiMutation, apiRead)';
  const page = 'admin/src/pages/x/XPage.tsx';

  it.each([
    [
      'a read whose URL apiUrl builds',
      "import { useCustom } from '@refinedev/core';\nimport { apiUrl } from '../../providers/data';\nconst q = useCustom<X>({ url: apiUrl(`/patients/${id}`), method: 'get' });",
      [`useCustom imported outside providers (${HINT}): ${page}:1`, `a custom call builds its URL with apiUrl (${HINT}): ${page}:3`],
    ],
    [
      'a write whose url is a template',
      "const { mutate } = useApiMutation();\nmutate({ url: `${base}/alert_entries`, method: 'post', values: {} });",
      [`a custom call's url built from a string (${HINT}): ${page}:2`],
    ],
    [
      'a url joined with +',
      "const call = { url: API_URL + '/patients', method: 'get' };",
      [`a custom call's url built from a string (${HINT}): ${page}:1`],
    ],
    [
      'fetch beside the data provider',
      "await fetch('/api/v1/patients');\nawait window.fetch(u);",
      [
        `a request with fetch beside the data provider (${HINT}): ${page}:1`,
        `a request with fetch beside the data provider (${HINT}): ${page}:2`,
      ],
    ],
    [
      "the providers' URL hooks",
      "import { useGetOnDemand as get, useInvalidatePaths } from '../../providers/queries';\nimport { useCustomMutation, useList } from '@refinedev/core';",
      [
        `useGetOnDemand imported outside providers (${HINT}): ${page}:1`,
        `useCustomMutation imported outside providers (${HINT}): ${page}:2`,
      ],
    ],
    [
      'typed calls, a url read from a value, and other *_url fields',
      [
        "import { useList, type CustomResponse } from '@refinedev/core';",
        "import { apiRead, useApiQuery, useApiRead } from '../../providers/calls';",
        "const q = useApiQuery('/patients/{id}', { params: { id } });",
        'const r = useApiRead({ ...remote.read, query });',
        "const link = { url: answer.url, webhook_url: 'https://x.example' };",
      ].join('\n'),
      [],
    ],
  ])('%s', (_name, source, expected) => {
    expect(customCallProblems(page, source)).toEqual(expected);
  });

  it('leaves admin/src/providers and other packages alone', () => {
    const source = "import { useCustom } from '@refinedev/core';\nconst u = apiUrl('/x');\nawait fetch(u);";
    expect(customCallProblems('admin/src/providers/calls.ts', source)).toEqual([]);
    expect(customCallProblems('portal/src/pages/Home.tsx', source)).toEqual([]);
  });

  it('finds a planted untyped call in a tree, and nothing once it goes through calls.ts', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'structure-calls-'));
    const dir = path.join(root, 'admin/src/pages/alerts');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'AlertsPage.tsx');
    fs.writeFileSync(file, "const q = useCustom({ url: apiUrl('/alerts/updates'), method: 'get' });\n");
    expect(checkCustomCalls(root)).toEqual([`a custom call builds its URL with apiUrl (${HINT}): admin/src/pages/alerts/AlertsPage.tsx:1`]);
    fs.writeFileSync(file, "const q = useApiQuery('/alerts/updates', { query: { since_id: 3 } });\n");
    expect(checkCustomCalls(root)).toEqual([]);
  });
});
