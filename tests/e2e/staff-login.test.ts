import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startServer, type RunningServer } from './support/server';
import { launchBrowser, openPage, pathOf, waitForPath } from './support/browser';
import { EMAIL_LABEL, PASSWORD_LABEL } from './support/labels';
import { DEMO_ADMIN, createStaffSession, rejectedLoginMessage } from './support/api';

describe('staff login (/)', () => {
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

  it('takes the administrator to the dashboard, which shows their name', async () => {
    const { first_name } = await createStaffSession(server.baseUrl);
    const page = await openPage(browser, server.baseUrl);

    await page.goto('/');
    await page.getByLabel(EMAIL_LABEL).fill(DEMO_ADMIN.email);
    await page.getByLabel(PASSWORD_LABEL).fill(DEMO_ADMIN.password);
    await page.getByRole('button', { name: 'Iniciar sesión' }).click();

    await waitForPath(page, '/dashboard');
    await page.getByText(first_name).first().waitFor({ state: 'visible' });
  });

  it("refuses a wrong password with the server's message and stays on the login page", async () => {
    const wrong = { email: DEMO_ADMIN.email, password: 'Incorrecta@2026' };
    const message = await rejectedLoginMessage(server.baseUrl, wrong);
    const page = await openPage(browser, server.baseUrl);

    await page.goto('/');
    await page.getByLabel(EMAIL_LABEL).fill(wrong.email);
    await page.getByLabel(PASSWORD_LABEL).fill(wrong.password);
    await page.getByRole('button', { name: 'Iniciar sesión' }).click();

    await page.getByText(message).first().waitFor({ state: 'visible' });
    expect(pathOf(page)).toBe('/');
  });
});
