/**
 * Front-end rows of issue 7, measured in headless Chromium (playwright-core, Debian's chromium)
 * against the API serving the built front ends (VIGIA_ADMIN_DIST / VIGIA_PORTAL_DIST):
 * - the JavaScript each page really loads (every script response the browser received, matched to
 *   its file in the dist folder), as gzip bytes (zlib level 6, what a reverse proxy sends): the
 *   admin's login page (its root, /), the patient page (split into what it loads before its charts and the chart
 *   chunks: the lazy `*Chart*` entries and the `charts` vendor chunk of the Vite manifest), and
 *   the portal's first page (/login_patient);
 * - the time from navigation start until the patient page shows its charts (the first chart's
 *   canvas is on screen) for the year-long patient of the large data set: cold cache, then warm;
 *   beside it, in the same navigations, the time until the page shows the patient's name (its
 *   header, the record's first read), the page's own baseline (issue 52).
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { chromiumLaunchOptions } from '../tests/support/chromium.js';
import { serveReference, timeReference } from './browser-reference.js';
import { measurePortalReadings, type PortalReadingsResult } from './portal-readings.js';
import { summarize, type Latency } from './stats.js';

export interface PageWeight {
  page: string;
  files: Array<{ file: string; gzipBytes: number; chart: boolean }>;
  gzipBytes: number;
  chartGzipBytes: number;
}
export interface FrontendResult {
  adminLogin: PageWeight;
  patientPage: PageWeight;
  portalFirst: PageWeight;
  chartsShown: {
    coldMs: number;
    warm: Latency;
    patientId: number;
    /** The same navigations until the patient's name is shown (absent from results before issue 52). */
    headerColdMs?: number;
    headerWarm?: Latency;
    /**
     * A fixed page with no code of Vigía's (browser-reference.ts), loaded warm between the patient
     * page's loads: this machine's browser speed, the charts tripwire's baseline (absent before).
     */
    referenceWarm?: Latency;
  };
  /** Issue 50 (bench/portal-readings.ts); absent from results of runs before it. */
  portalReadings?: PortalReadingsResult;
}

/** Files of chart chunks: the manifest's lazy chart entries and the chunks only they import. */
function chartFiles(dist: string): Set<string> {
  const file = path.join(dist, '.vite', 'manifest.json');
  const out = new Set<string>();
  if (!fs.existsSync(file)) return out;
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, { file: string; imports?: string[] }>;
  const chart = new Set(Object.keys(manifest).filter((key) => /(^_charts-|Chart\.tsx$)/.test(key)));
  // A chunk whose every importer is a chart chunk is one too (the charting library, wherever the
  // splitter put it), until nothing changes.
  for (let grew = true; grew;) {
    grew = false;
    for (const key of Object.keys(manifest)) {
      if (chart.has(key)) continue;
      const importers = Object.keys(manifest).filter((k) => manifest[k].imports?.includes(key));
      if (importers.length && importers.every((k) => chart.has(k))) {
        chart.add(key);
        grew = true;
      }
    }
  }
  for (const key of chart) out.add(manifest[key].file);
  return out;
}

function weigh(page: string, dist: string, urls: string[], charts: Set<string>, prefix = ''): PageWeight {
  const files: PageWeight['files'] = [];
  for (const u of new Set(urls)) {
    let rel = new URL(u).pathname.replace(/^\//, '');
    if (prefix && rel.startsWith(prefix)) rel = rel.slice(prefix.length);
    const local = path.join(dist, rel);
    if (!fs.existsSync(local)) continue;
    files.push({ file: rel, gzipBytes: zlib.gzipSync(fs.readFileSync(local), { level: 6 }).length, chart: charts.has(rel) });
  }
  files.sort((a, b) => b.gzipBytes - a.gzipBytes);
  const sum = (list: PageWeight['files']) => list.reduce((n, f) => n + f.gzipBytes, 0);
  return { page, files, gzipBytes: sum(files.filter((f) => !f.chart)), chartGzipBytes: sum(files.filter((f) => f.chart)) };
}

function recordScripts(page: Page): string[] {
  const urls: string[] = [];
  page.on('response', (r) => {
    if (r.request().resourceType() === 'script' || /\.m?js(\?|$)/.test(r.url())) urls.push(r.url());
  });
  return urls;
}

async function signIn(page: Page, email: string, password: string) {
  await page.getByLabel(/Correo electr[oó]nico/i).fill(email);
  await page.getByLabel(/^\s*Contraseña/).fill(password);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  await page.waitForURL((u) => u.pathname !== '/', { timeout: 30_000 });
}

/**
 * Navigation start → the patient's name (the header) and → the first chart canvas on screen, in
 * ms. Each moment is taken in the page by a MutationObserver set before the page's own scripts
 * run, so neither waits for the other's polling.
 */
const SHOWN_MARKS = `(() => {
  const marks = (window.__vigiaShown = {});
  const seen = () => {
    const name = document.querySelector('h1.patient-name');
    if (marks.header == null && name && name.getBoundingClientRect().height > 0) marks.header = performance.now();
    const canvas = document.querySelector('canvas');
    if (marks.charts == null && canvas && canvas.getBoundingClientRect().height > 0) marks.charts = performance.now();
  };
  new MutationObserver(seen).observe(document, { childList: true, subtree: true });
})();`;

async function timeCharts(page: Page, url: string): Promise<{ headerMs: number; chartsMs: number }> {
  await page.addInitScript(SHOWN_MARKS);
  await page.goto(url, { waitUntil: 'commit' });
  await page.locator('canvas').first().waitFor({ state: 'visible', timeout: 60_000 });
  await page.locator('h1.patient-name').waitFor({ state: 'visible', timeout: 60_000 });
  const marks = await page.evaluate<{ header?: number; charts?: number }>('window.__vigiaShown');
  const now = await page.evaluate(() => performance.now());
  return { headerMs: marks.header ?? now, chartsMs: marks.charts ?? now };
}

/**
 * BENCH_TRACE=DIR: one more warm load of the patient page under the renderer's CPU profiler (a
 * sample every 200 µs), written to DIR/patient-page.cpuprofile (Chrome DevTools' Performance panel
 * or `npx tsx bench/profile-summary.ts FILE` read it), and its requests with when each left and
 * when its answer was in (DIR/patient-page.requests.txt). The page first loads a same-origin address,
 * so the patient page opens in the renderer whose profiler is already running.
 */
async function profileWarmLoad(context: BrowserContext, baseUrl: string, url: string, dir: string, log: (line: string) => void) {
  const page = await context.newPage();
  await page.goto(`${baseUrl}/api/health/live`).catch(() => undefined);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  const requests: Array<{ url: string; startTime: number; endMs: number }> = [];
  page.on('requestfinished', (r) => {
    const t = r.timing();
    requests.push({ url: r.url().replace(baseUrl, ''), startTime: t.startTime, endMs: t.responseEnd });
  });
  await cdp.send('Profiler.start');
  const shown = await timeCharts(page, url);
  const { profile } = await cdp.send('Profiler.stop');
  // Each request from the navigation's start: when it left and when its answer had arrived.
  const origin = await page.evaluate(() => performance.timeOrigin);
  const lines = requests
    .map((r) => ({ url: r.url, from: r.startTime - origin, to: r.startTime - origin + r.endMs }))
    .sort((a, b) => a.from - b.from)
    .map((r) => `${r.from.toFixed(0).padStart(6)} → ${r.to.toFixed(0).padStart(6)} ms  ${r.url.slice(0, 140)}`);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'patient-page.requests.txt'), `${lines.join('\n')}\n`);
  const file = path.join(dir, 'patient-page.cpuprofile');
  fs.writeFileSync(file, JSON.stringify(profile));
  log(`  perfil de CPU de una carga con caché (gráficas en ${shown.chartsMs.toFixed(0)} ms): ${file}`);
  await page.close();
}

/**
 * BENCH_TRACE=DIR, beside the CPU profile: one more warm load under Chromium's timeline trace (what
 * DevTools' Performance panel records: script, style, layout, paint), written to
 * DIR/patient-page.trace.json, and the renderer main thread's time by kind of work until the charts
 * showed, in the log. A CPU profile charges style and layout to '(program)'; this says which.
 */
async function traceWarmLoad(browser: Browser, context: BrowserContext, url: string, dir: string, log: (line: string) => void) {
  const page = await context.newPage();
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing'] });
  const shown = await timeCharts(page, url);
  const buffer = await browser.stopTracing();
  await page.close();
  const file = path.join(dir, 'patient-page.trace.json');
  fs.writeFileSync(file, buffer);
  type TraceEvent = { name: string; ph: string; ts: number; dur?: number; pid: number; tid: number; args?: { name?: string } };
  const events = (JSON.parse(buffer.toString()) as { traceEvents: TraceEvent[] }).traceEvents;
  // The page's renderer main thread: of the CrRendererMain threads, the one that ran longest.
  const busyOf = new Map<string, number>();
  for (const e of events)
    if (e.name === 'RunTask' && e.dur) busyOf.set(`${e.pid}/${e.tid}`, (busyOf.get(`${e.pid}/${e.tid}`) ?? 0) + e.dur);
  const main = events
    .filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
    .sort((a, b) => (busyOf.get(`${b.pid}/${b.tid}`) ?? 0) - (busyOf.get(`${a.pid}/${a.tid}`) ?? 0))[0];
  if (!main) return log(`  traza de una carga con caché: ${file} (sin hilo principal del renderizador)`);
  // A reduce, not Math.min(...): a load's trace holds more events than a call takes arguments.
  const start = events.reduce((min, e) => (e.pid === main.pid && e.tid === main.tid && e.ts > 0 && e.ts < min ? e.ts : min), Infinity);
  const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur);
  const tasks = onMain.filter((e) => e.name === 'RunTask' && (e.ts - start) / 1000 < shown.chartsMs);
  // Each kind's own time: an event's duration less that of the events nested directly in it.
  const kinds = new Map<string, number>();
  const sorted = onMain.filter((e) => e.name !== 'RunTask').sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const stack: TraceEvent[] = [];
  for (const e of sorted) {
    if ((e.ts - start) / 1000 > shown.chartsMs) break;
    while (stack.length && stack.at(-1)!.ts + stack.at(-1)!.dur! <= e.ts) stack.pop();
    const parent = stack.at(-1);
    if (parent) kinds.set(parent.name, (kinds.get(parent.name) ?? 0) - e.dur! / 1000);
    kinds.set(e.name, (kinds.get(e.name) ?? 0) + e.dur! / 1000);
    stack.push(e);
  }
  const busy = tasks.reduce((n, t) => n + t.dur! / 1000, 0);
  const top = [...kinds].sort((a, b) => b[1] - a[1]).slice(0, 12);
  log(
    `  traza de una carga con caché (gráficas en ${shown.chartsMs.toFixed(0)} ms; hilo principal ocupado ${busy.toFixed(0)} ms): ${file}`,
  );
  log(`    ${top.map(([k, ms]) => `${k} ${ms.toFixed(0)} ms`).join(' · ')}`);
}

export async function measureFrontends(opts: {
  baseUrl: string;
  adminDist: string;
  portalDist: string;
  email: string;
  password: string;
  patientId: number;
  /** A staff token of the patient's client, for the portal's sign-in (its code from the SMS outbox). */
  staffToken: string;
  repeats: number;
  screenshotDir?: string;
  log: (line: string) => void;
}): Promise<FrontendResult> {
  const { log } = opts;
  const browser: Browser = await chromium.launch(chromiumLaunchOptions());
  try {
    const charts = chartFiles(opts.adminDist);
    const context = await browser.newContext({ locale: 'es-CO', viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    let scripts = recordScripts(page);
    // The staff sign-in page is the admin's root (/login is the SSO page).
    await page.goto(`${opts.baseUrl}/`, { waitUntil: 'networkidle' });
    const adminLogin = weigh('admin / (sign-in)', opts.adminDist, scripts, charts);
    log(
      `  admin / (inicio de sesión): ${(adminLogin.gzipBytes / 1024).toFixed(1)} KB de JavaScript gzip en ${adminLogin.files.length} archivos`,
    );
    await signIn(page, opts.email, opts.password);
    await page.close();

    // The patient page, opened directly (a bookmark) with a cold cache: everything it loads.
    const cold = await context.newPage();
    scripts = recordScripts(cold);
    const patientUrl = `${opts.baseUrl}/patients/${opts.patientId}?tab=signs`;
    const { headerMs: headerColdMs, chartsMs: coldMs } = await timeCharts(cold, patientUrl);
    await cold.waitForLoadState('networkidle');
    if (opts.screenshotDir) await cold.screenshot({ path: path.join(opts.screenshotDir, 'patient-page-charts.png'), fullPage: true });
    const patientPage = weigh('admin /patients/{id}', opts.adminDist, scripts, charts);
    await cold.close();
    log(
      `  ficha del paciente: ${(patientPage.gzipBytes / 1024).toFixed(1)} KB antes de las gráficas + ${(patientPage.chartGzipBytes / 1024).toFixed(1)} KB de gráficas (gzip); nombre visible en ${headerColdMs.toFixed(0)} ms, gráficas en ${coldMs.toFixed(0)} ms (caché fría)`,
    );
    const warmLoads: number[] = [];
    const headerLoads: number[] = [];
    const referenceLoads: number[] = [];
    const reference = await serveReference();
    try {
      for (let i = 0; i < opts.repeats; i++) {
        const p = await context.newPage();
        const shown = await timeCharts(p, patientUrl);
        warmLoads.push(shown.chartsMs);
        headerLoads.push(shown.headerMs);
        await p.close();
        // The browser's reference page right after, so both meet the same moment of the machine.
        const r = await context.newPage();
        referenceLoads.push(await timeReference(r, reference.url));
        await r.close();
      }
    } finally {
      // Closed on a failed load too: its open port would keep the bench's process from ending.
      await reference.close();
    }
    const warm = summarize(warmLoads);
    const headerWarm = summarize(headerLoads);
    const referenceWarm = summarize(referenceLoads);
    log(
      `  con caché: nombre visible p50 ${headerWarm.p50.toFixed(0)} ms, gráficas p50 ${warm.p50.toFixed(0)} ms; página de referencia del navegador p50 ${referenceWarm.p50.toFixed(0)} ms`,
    );
    if (process.env.BENCH_TRACE) {
      await profileWarmLoad(context, opts.baseUrl, patientUrl, process.env.BENCH_TRACE, log);
      await traceWarmLoad(browser, context, patientUrl, process.env.BENCH_TRACE, log);
    }
    await context.close();

    const portalContext = await browser.newContext({ locale: 'es-CO', viewport: { width: 390, height: 844 } });
    const portal = await portalContext.newPage();
    scripts = recordScripts(portal);
    await portal.goto(`${opts.baseUrl}/login_patient`, { waitUntil: 'networkidle' });
    const portalFirst = weigh('portal /login_patient', opts.portalDist, scripts, new Set(), 'portal/');
    log(`  portal /login_patient: ${(portalFirst.gzipBytes / 1024).toFixed(1)} KB de JavaScript gzip`);
    await portalContext.close();
    // Its own row: a failure here (a patient without a phone for the code) leaves the others standing.
    const portalReadings = await measurePortalReadings(browser, {
      baseUrl: opts.baseUrl,
      staffToken: opts.staffToken,
      patientId: opts.patientId,
      log,
    }).catch((error: unknown) => {
      log(`  portal, primeras mediciones: no medido (${error instanceof Error ? error.message : String(error)})`);
      return undefined;
    });
    return {
      adminLogin,
      patientPage,
      portalFirst,
      chartsShown: { coldMs, warm, patientId: opts.patientId, headerColdMs, headerWarm, referenceWarm },
      portalReadings,
    };
  } finally {
    await browser.close();
  }
}
