import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startServer, type RunningServer } from './support/server';
import { launchBrowser, openPage, waitForPath } from './support/browser';
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
    await page.getByLabel('Correo Electronico').waitFor({ state: 'visible' });
  });

  it('brings the user to /tags?x=1 after logging in', async () => {
    const page = await openPage(browser, server.baseUrl);
    await page.goto('/tags?x=1');
    await waitForPath(page, '/');

    await page.getByLabel('Correo Electronico').fill(DEMO_ADMIN.email);
    await page.getByLabel('Contraseña', { exact: true }).fill(DEMO_ADMIN.password);
    await page.getByRole('button', { name: 'Iniciar sesión' }).click();

    await waitForPath(page, '/tags?x=1');
  });
});
