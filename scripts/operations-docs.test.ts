import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it, expect } from 'vitest';
import YAML from 'yaml';
import { databaseRegistry, processRegistry } from '../api/src/observability/metrics';

/**
 * docs/operations/: the alerting rules are valid for Prometheus, fire on their series and stay
 * silent otherwise (promtool), and name only metric families the app really exports (read from
 * its registries), so a renamed metric fails here before an operator's alert goes quiet.
 */

const DIR = path.join(__dirname, '..', 'docs', 'operations');
const RULES = path.join(DIR, 'alerts.rules.yml');

function exportedSeries(): Set<string> {
  const metrics = [...processRegistry.getMetricsAsArray(), ...databaseRegistry({} as never, () => new Date()).getMetricsAsArray()];
  const out = new Set<string>(['up']);
  for (const m of metrics) {
    out.add(m.name);
    if (m.constructor.name === 'Histogram') for (const s of ['_bucket', '_sum', '_count']) out.add(`${m.name}${s}`);
  }
  return out;
}

/** The metric names a PromQL expression reads: identifiers outside label matchers that no '(' follows. */
export function metricNames(expr: string): string[] {
  const bare = expr.replace(/\{[^}]*\}/g, '{}').replace(/"[^"]*"/g, '""');
  return [...bare.matchAll(/\b(vigia_[a-z0-9_]+|up)\b(?!\s*\()/g)].map((m) => m[1]);
}

function promtool(args: string[]) {
  const r = spawnSync('promtool', args, { cwd: DIR, encoding: 'utf8' });
  expect(r.error, 'promtool (paquete prometheus de Debian) debe estar instalado').toBeUndefined();
  return r;
}

function exportedFamilies(): string[] {
  return [...processRegistry.getMetricsAsArray(), ...databaseRegistry({} as never, () => new Date()).getMetricsAsArray()].map(
    (m) => m.name,
  );
}

/** The family a series name belongs to (a histogram's _bucket, _sum and _count are its own). */
const familyOf = (series: string, families: string[]) =>
  families.includes(series) ? series : families.find((f) => ['_bucket', '_sum', '_count'].some((s) => series === `${f}${s}`));

describe('docs/operations/grafana-dashboard.json', () => {
  const dash = JSON.parse(fs.readFileSync(path.join(DIR, 'grafana-dashboard.json'), 'utf8')) as {
    schemaVersion: number;
    __inputs: Array<{ name: string; type: string; pluginId: string }>;
    panels: Array<{ type: string; title: string; datasource?: { uid: string }; targets?: Array<{ expr: string }> }>;
  };
  const drawn = dash.panels.filter((p) => p.type !== 'row');

  it('is importable: schemaVersion 39 or later, a ${DS_PROMETHEUS} datasource input every panel uses', () => {
    expect(dash.schemaVersion).toBeGreaterThanOrEqual(39);
    expect(dash.__inputs).toContainEqual(expect.objectContaining({ name: 'DS_PROMETHEUS', type: 'datasource', pluginId: 'prometheus' }));
    for (const p of drawn) expect(p.datasource?.uid, p.title).toBe('${DS_PROMETHEUS}');
  });

  it('names only families /metrics exports, and draws every one of them', () => {
    const exported = exportedSeries();
    const families = exportedFamilies();
    const used = new Set<string>();
    for (const p of drawn) {
      expect(p.targets?.length, p.title).toBeGreaterThan(0);
      for (const t of p.targets!) {
        const names = metricNames(t.expr);
        expect(names.length, `${p.title}: ${t.expr}`).toBeGreaterThan(0);
        for (const n of names) {
          expect(exported.has(n), `${p.title}: ${n}`).toBe(true);
          const f = familyOf(n, families);
          if (f) used.add(f);
        }
      }
    }
    expect(families.filter((f) => !used.has(f))).toEqual([]);
  });
});

describe('docs/operations/alerts.rules.yml', () => {
  const doc = YAML.parse(fs.readFileSync(RULES, 'utf8')) as { groups: Array<{ rules: Array<{ alert: string; expr: string }> }> };
  const rules = doc.groups.flatMap((g) => g.rules);

  it('passes promtool check rules', () => {
    const r = promtool(['check', 'rules', 'alerts.rules.yml']);
    expect(r.stdout + r.stderr).toContain(`SUCCESS: ${rules.length} rules found`);
    expect(r.status).toBe(0);
  });

  it('fires its alerts on the test series and stays silent otherwise (promtool test rules)', () => {
    const r = promtool(['test', 'rules', 'alerts.rules.test.yml']);
    expect(r.stdout + r.stderr).toContain('SUCCESS');
    expect(r.status).toBe(0);
  });

  it('names only metric families /metrics exports', () => {
    const exported = exportedSeries();
    for (const rule of rules) {
      const names = metricNames(rule.expr);
      expect(names.length, rule.alert).toBeGreaterThan(0);
      for (const n of names) expect(exported.has(n), `${rule.alert}: ${n}`).toBe(true);
    }
  });

  it('reads a renamed metric as unknown', () => {
    expect(metricNames('rate(vigia_http_requests_total{status=~"5.."}[5m])')).toEqual(['vigia_http_requests_total']);
    expect(exportedSeries().has('vigia_http_requests_total')).toBe(false);
  });
});
