import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import request from 'supertest';
import { bootstrap, type Product } from '../../api/src/bootstrap';
import { loadConfig } from '../../api/src/config';

/**
 * Security headers on every kind of answer (API JSON, API errors, the reference page, the admin
 * and portal pages and their assets): CSP with frame-ancestors 'none', X-Frame-Options,
 * Referrer-Policy, X-Content-Type-Options; HSTS only in production (a developer's plain-HTTP
 * localhost must not be pinned to HTTPS).
 */
const ENVS = ['production', 'development', 'test'] as const;
const products: Partial<Record<(typeof ENVS)[number], Product>> = {};
const dirs: string[] = [];
const savedEnv = { admin: process.env.VIGIA_ADMIN_DIST, portal: process.env.VIGIA_PORTAL_DIST };
let checked = 0;

/** A stand-in build, so the static pages are served without compiling the front ends. */
function fakeBuild(name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `vigia-${name}-`));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    `<!doctype html><html><body><div id="root"></div><script src="/assets/app.js"></script></body></html>`,
  );
  fs.writeFileSync(path.join(dir, 'assets', 'app.js'), 'console.log(1);');
  dirs.push(dir);
  return dir;
}

beforeAll(async () => {
  process.env.VIGIA_ADMIN_DIST = fakeBuild('admin');
  process.env.VIGIA_PORTAL_DIST = fakeBuild('portal');
  for (const env of ENVS) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `vigia-headers-${env}-`));
    dirs.push(dataDir);
    const config = { ...loadConfig({ DATA_DIR: dataDir, NODE_ENV: env, JWT_SECRET: 'clave-de-cabeceras' }), databaseUrl: null };
    products[env] = await bootstrap(config, { serveFrontEnds: true });
  }
});
afterAll(async () => {
  for (const p of Object.values(products)) await p?.close();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  process.env.VIGIA_ADMIN_DIST = savedEnv.admin;
  process.env.VIGIA_PORTAL_DIST = savedEnv.portal;
  if (savedEnv.admin === undefined) delete process.env.VIGIA_ADMIN_DIST;
  if (savedEnv.portal === undefined) delete process.env.VIGIA_PORTAL_DIST;
  console.info(`[security] headers: ${JSON.stringify({ answersChecked: checked, environments: ENVS.length })}`);
});

const PAGES: Array<[string, string, number]> = [
  ['API answer', '/api/v1/health', 200],
  ['API error (no session)', '/api/v1/me', 401],
  ['API unknown route', '/api/v1/nada', 404],
  ['contract', '/api/v1/openapi.yaml', 200],
  ['API reference page', '/api/docs', 200],
  ['admin page', '/', 200],
  ['admin deep link', '/patients/1', 200],
  ['admin asset', '/assets/app.js', 200],
  ['portal page', '/login_patient', 200],
  ['portal asset', '/portal/assets/app.js', 200],
];

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([k, ...v]) => [k, v]),
  );
}

describe.each(ENVS)('%s', (env) => {
  it.each(PAGES)('%s (%s) carries the security headers', async (_label, url, status) => {
    const res = await request(products[env]!.app).get(url);
    checked++;
    expect(res.status).toBe(status);
    const csp = directives(res.headers['content-security-policy'] ?? '');
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('script-src')).toEqual(["'self'"]); // no inline script, no eval
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'self'"]);
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['referrer-policy']).toBe('same-origin');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-powered-by']).toBeUndefined();
    if (env === 'production') {
      const hsts = res.headers['strict-transport-security'] ?? '';
      expect(Number(/max-age=(\d+)/.exec(hsts)?.[1])).toBeGreaterThanOrEqual(31_536_000);
      expect(hsts).toContain('includeSubDomains');
      expect(csp.has('upgrade-insecure-requests')).toBe(true);
    } else {
      expect(res.headers['strict-transport-security']).toBeUndefined();
      expect(csp.has('upgrade-insecure-requests')).toBe(false);
    }
    // Patient data is never kept by shared caches.
    if (url.startsWith('/api/v1')) expect(res.headers['cache-control']).toBe('no-store');
  });
});
