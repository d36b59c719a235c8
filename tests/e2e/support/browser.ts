import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type BrowserContextOptions, type Locator, type Page, type Route } from 'playwright-core';
import { onTestFinished } from 'vitest';
import { REPO_ROOT } from './server';
import { chromiumLaunchOptions } from '../../support/chromium';

/** Chromium from the system (playwright-core downloads none) and a screenshot of every failing test. */

export const SCREENSHOT_DIR = path.join(REPO_ROOT, 'tests/e2e/.screenshots');

/** A server in trouble for the GETs `url` matches: 500 with the API's error body (other methods go through). */
export async function failReads(page: Page, url: RegExp): Promise<void> {
  await page.route(url, (route) =>
    route.request().method() === 'GET'
      ? route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: 'Error interno' }) })
      : route.continue(),
  );
}

/**
 * Like failReads, for the GETs of the API (`/api/v1` left off: `/patients/7/alerts?status=1`) that
 * `fails` picks, so reads of one path told apart by their query fail one at a time. Answers a
 * function that lets them through again.
 */
export async function failReadsWhere(page: Page, fails: (apiPath: string) => boolean): Promise<() => Promise<void>> {
  const matches = (url: URL) => url.pathname.startsWith('/api/v1/') && fails(url.pathname.slice('/api/v1'.length) + url.search);
  const handler = (route: Route) =>
    route.request().method() === 'GET'
      ? route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: 'Error interno' }) })
      : route.continue();
  await page.route(matches, handler);
  return () => page.unroute(matches, handler);
}

/** Long enough for a slow machine; short enough that a missing element fails the test, not the suite. */
const ACTION_TIMEOUT_MS = 15_000;

export function launchBrowser(): Promise<Browser> {
  return chromium.launch(chromiumLaunchOptions());
}

function fileNameFor(testName: string): string {
  const safe = testName
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 120);
  return `${safe || 'test'}-${Date.now()}.png`;
}

/**
 * A fresh context (no cookies, no storage) for the running test. When the test fails, the page is
 * saved to tests/e2e/.screenshots/ before the context closes.
 *
 * The page asks for reduced motion, which the staff app honours by turning antd's motion off: on a
 * loaded machine a click landed on a dialog still zooming in (Playwright's 'stable' check passed
 * between two slow frames), did nothing, and left the dialog in its opening animation (CI, the
 * Antecedentes tab; reproduced with the two cores kept busy, 2 failures in 10 runs).
 */
export async function openPage(browser: Browser, baseURL: string, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({
    baseURL,
    locale: 'es-CO',
    viewport: { width: 1280, height: 800 },
    reducedMotion: 'reduce',
    ...options,
  });
  context.setDefaultTimeout(ACTION_TIMEOUT_MS);
  const page = await context.newPage();

  onTestFinished(async ({ task }) => {
    try {
      if (task.result?.state === 'fail') {
        await mkdir(SCREENSHOT_DIR, { recursive: true });
        const file = path.join(SCREENSHOT_DIR, fileNameFor(`${task.suite?.name ?? ''} ${task.name}`));
        await page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
        console.error(`Screenshot of the failing page (${page.url()}): ${file}`);
      }
    } finally {
      await context.close();
    }
  }, 30_000);

  return page;
}

/** The path and query the browser shows, e.g. '/tags?x=1'. */
export function pathOf(page: Page): string {
  const url = new URL(page.url());
  return url.pathname + url.search;
}

/** Waits until the browser shows the given path (and query), for client-side navigations too. */
export async function waitForPath(page: Page, expected: string, timeout = ACTION_TIMEOUT_MS): Promise<void> {
  await page.waitForURL((url) => url.pathname + url.search === expected, { timeout, waitUntil: 'commit' });
}

/**
 * Closes every toast open now. Three notifications open at once become the notifications dialog
 * (03 §2), which covers the page: a test whose steps each notify closes them as it goes, so the
 * machine's speed (whether the welcome toast's 4 s had run out) does not decide whether it opens.
 * (A string: the tests' TypeScript has no DOM types.)
 */
export async function closeToasts(page: Page): Promise<void> {
  await page.evaluate(`document.querySelectorAll('.ant-notification-notice-close').forEach((b) => b.click())`);
  // Gone, not just closing: a toast on its way out still takes the clicks aimed at what it covers.
  await page
    .locator('.ant-notification-notice')
    .first()
    .waitFor({ state: 'detached', timeout: 3_000 })
    .catch(() => undefined);
}

/**
 * The welcome toast a staff sign-in shows, closed. It sits over the top right of the screen (a
 * whole phone's width) for 4 s, and antd pauses a toast while the pointer is over it: a click
 * Playwright aims at a button beneath it keeps the pointer there, so the toast never leaves and the
 * click times out (CI, a loaded machine: 'Cancelar' of an export's row, a passkey's 'Cambiar nombre').
 */
export async function closeWelcome(page: Page): Promise<void> {
  await page
    .locator('.ant-notification-notice')
    .first()
    .waitFor({ state: 'visible', timeout: 5_000 })
    .catch(() => undefined);
  await closeToasts(page);
}

/**
 * Selects a tab by its name, clicking again (at most three times) when a click lands while the tab
 * bar is re-rendered (the patient's tabs come with the record and its permissions, and a phone's bar
 * measures which fit) and is lost.
 */
export async function selectTab(page: Page, name: string, scope: Page | Locator = page): Promise<void> {
  const tab = scope.getByRole('tab', { name, exact: true });
  for (let attempt = 1; ; attempt++) {
    await tab.click();
    const selected = await tab
      .and(page.locator('[aria-selected="true"]'))
      .waitFor({ timeout: 5_000 })
      .then(() => true)
      .catch(() => false);
    if (selected) return;
    if (attempt >= 3) throw new Error(`La pestaña '${name}' no quedó seleccionada`);
  }
}

/** Opens a Select by its label (a combobox in `scope`), types `search` and picks the first option whose text holds `option`. */
export async function pickOption(page: Page, scope: Locator, label: string, option: string, search?: string) {
  const box = scope.getByRole('combobox', { name: label });
  await box.click();
  if (search) await box.fill(search);
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option }).first().click();
}
