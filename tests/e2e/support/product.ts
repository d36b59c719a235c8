import { afterAll, beforeAll } from 'vitest';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { startServer, type RunningServer } from './server';
import { launchBrowser } from './browser';
import { EMAIL_LABEL, PASSWORD_LABEL } from './labels';
import { closeWelcome, openPage, waitForPath } from './browser';
import { DEMO_ADMIN } from './api';

/**
 * The real product (its own data folder) and a Chromium, started before the file's tests and
 * stopped after them. Accessors, because the values exist only once beforeAll has run.
 * `extraEnv`: more environment for the server (e.g. WEBHOOKS_ALLOW_HTTP=1 for a loopback receiver).
 */
export function useProductInBrowser(extraEnv: Record<string, string> = {}): { server: () => RunningServer; browser: () => Browser } {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startServer(extraEnv);
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  }, 30_000);
  return { server: () => server, browser: () => browser };
}

/** Fills the staff login form (already on screen) and submits it. */
export async function submitStaffLogin(page: Page, credentials: { email: string; password: string }): Promise<void> {
  await page.getByLabel(EMAIL_LABEL).fill(credentials.email);
  await page.getByLabel(PASSWORD_LABEL).fill(credentials.password);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
}

/**
 * A new page on `path`: the login it is sent to first, then back on `path` signed in. `pageOptions`
 * go to openPage (e.g. a browser that does not ask for reduced motion).
 */
export async function openSignedIn(
  product: ReturnType<typeof useProductInBrowser>,
  path: string,
  credentials: { email: string; password: string } = DEMO_ADMIN,
  pageOptions: BrowserContextOptions = {},
): Promise<Page> {
  const page = await openPage(product.browser(), product.server().baseUrl, pageOptions);
  await page.goto(path);
  await waitForPath(page, '/');
  await submitStaffLogin(page, credentials);
  await waitForPath(page, path);
  await closeWelcome(page);
  return page;
}
