import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startServer, type RunningServer } from './support/server';
import { launchBrowser, openPage, waitForPath } from './support/browser';
import { DEMO_ADMIN } from './support/api';
import { expectAccessible } from './support/accessibility';
import { startOidcProvider, type LoopbackProvider } from '../support/oidc';

/** Single sign-on from /login through a real OpenID Connect provider on loopback (03 §2, §8, D18). */
describe('Inicio de sesión único (/login)', () => {
  let provider: LoopbackProvider;
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    provider = await startOidcProvider();
    server = await startServer((baseUrl) => {
      provider.register(`${baseUrl}/sso/callback`);
      return {
        OIDC_ISSUER: provider.issuer,
        OIDC_CLIENT_ID: provider.clientId,
        OIDC_CLIENT_SECRET: provider.clientSecret,
        OIDC_REDIRECT_URI: `${baseUrl}/sso/callback`,
      };
    });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await provider?.close();
  }, 30_000);

  async function signInAtProvider(page: import('playwright-core').Page, login: string) {
    await page.waitForURL((url) => url.href.startsWith(provider.issuer));
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill('cualquiera');
    await page.locator('button[type="submit"]').click();
    await page.getByRole('button', { name: 'Continue' }).click();
  }

  it('signs a known user in at the provider and lands on the dashboard with our session', async () => {
    const page = await openPage(browser, server.baseUrl);
    await page.goto('/login');
    await signInAtProvider(page, DEMO_ADMIN.email);
    await waitForPath(page, '/dashboard', 30_000);
    const session = JSON.parse((await page.evaluate("localStorage.getItem('vigia.session')")) ?? 'null');
    expect(session?.email).toBe(DEMO_ADMIN.email);
    expect(typeof session?.token).toBe('string');
  });

  it("an unknown e-mail gets 'login failed. Error #KJN838' and returns to /login without starting again", async () => {
    const page = await openPage(browser, server.baseUrl);
    const alerts: string[] = [];
    page.on('dialog', (d) => {
      alerts.push(d.message());
      void d.accept();
    });
    await page.goto('/login');
    await signInAtProvider(page, 'desconocido@otra.test');
    await waitForPath(page, '/login', 30_000);
    await page.getByText('login failed. Error #KJN838').waitFor({ state: 'visible' });
    expect(alerts).toEqual(['login failed. Error #KJN838']);
    expect(await page.evaluate("localStorage.getItem('vigia.session')")).toBeNull();
    await page.getByRole('link', { name: 'Ingresar con correo y contraseña' }).click();
    await waitForPath(page, '/');
  });

  it('a callback the page did not start is refused', async () => {
    const page = await openPage(browser, server.baseUrl);
    page.on('dialog', (d) => void d.accept());
    await page.goto('/sso/callback?code=abc&state=ajeno');
    await waitForPath(page, '/login');
    await page.getByText('login failed. Error #KJN838').waitFor({ state: 'visible' });
  });

  it("an administrator marks a break-glass account in 'Seguridad'; only it keeps its password (issue 49)", async () => {
    const signInWithPassword = (email: string) =>
      fetch(`${server.baseUrl}/api/v1/sessions`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email, password: DEMO_ADMIN.password }),
      });
    const nurse = 'enfermeria@demo.vigia.co';
    const refused = await signInWithPassword(nurse);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { code: string }).code).toBe('sso_required');

    const page = await openPage(browser, server.baseUrl);
    await page.goto('/login');
    await signInAtProvider(page, DEMO_ADMIN.email);
    await waitForPath(page, '/dashboard', 30_000);
    await page.goto('/security');
    const card = page.locator('.ant-card').filter({ hasText: 'Cuentas de emergencia' });
    await card.getByText('Ninguna cuenta marcada').waitFor({ state: 'visible' });
    await expectAccessible(page);

    await card.getByRole('combobox', { name: 'Usuario para marcar como cuenta de emergencia' }).fill('enfermeria@demo');
    await page.locator('.ant-select-item-option').filter({ hasText: nurse }).click();
    await card.getByRole('button', { name: 'Marcar como cuenta de emergencia' }).click();
    await card.locator('.ant-list-item').filter({ hasText: nurse }).waitFor({ state: 'visible' });
    await expectAccessible(page);
    expect((await signInWithPassword(nurse)).status).toBe(201);

    // The password form says why a provider's user cannot enter with it.
    const login = await openPage(browser, server.baseUrl);
    await login.goto('/');
    await login.getByLabel('Correo electrónico').fill('medico@demo.vigia.co');
    await login.getByLabel('Contraseña', { exact: true }).fill(DEMO_ADMIN.password);
    await login.getByRole('button', { name: 'Iniciar sesión' }).click();
    await login
      .getByText('Su institución ingresa a Vigía con inicio de sesión único', { exact: false })
      .first()
      .waitFor({ state: 'visible' });
    await login.getByRole('link', { name: 'Ingresar con el proveedor de identidad' }).click();
    await login.waitForURL((url) => url.href.startsWith(provider.issuer));
  });
});
