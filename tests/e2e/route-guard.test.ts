import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startServer, type RunningServer } from './support/server';
import { launchBrowser, openPage, pathOf, waitForPath } from './support/browser';
import { EMAIL_LABEL, PASSWORD_LABEL } from './support/labels';
import { DEMO_ADMIN } from './support/api';

describe('route guard', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  }, 30_000);

  it('sends a visitor without a session from /tags?x=1 to the login page', async () => {
    const page = await openPage(browser, server.baseUrl);

    await page.goto('/tags?x=1');

    await waitForPath(page, '/');
    await page.getByLabel(EMAIL_LABEL).waitFor({ state: 'visible' });
  });

  it('brings the user to /tags?x=1 after logging in', async () => {
    const page = await openPage(browser, server.baseUrl);
    await page.goto('/tags?x=1');
    await waitForPath(page, '/');

    await page.getByLabel(EMAIL_LABEL).fill(DEMO_ADMIN.email);
    await page.getByLabel(PASSWORD_LABEL).fill(DEMO_ADMIN.password);
    await page.getByRole('button', { name: 'Iniciar sesión' }).click();

    await waitForPath(page, '/tags?x=1');
    await page.getByLabel(EMAIL_LABEL).waitFor({ state: 'detached' });
    expect(pathOf(page)).toBe('/tags?x=1');
  });
});
