import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Page } from 'playwright-core';
import { createStaffSession } from './support/api';
import { openPage, waitForPath } from './support/browser';
import { openSignedIn, submitStaffLogin, useProductInBrowser } from './support/product';
import { startSmtpPeer, type SmtpPeer } from '../support/smtp-peer';
import { expectAccessible } from './support/accessibility';

const OLD_PASSWORD = 'Vigia@2026';
/** Each size recovers one user's password and ends another user's sessions, so the tests do not depend on each other. */
const VIEWPORTS = [
  {
    name: '1440 × 900',
    viewport: { width: 1440, height: 900 },
    recovers: { email: 'medico@demo.vigia.co', password: 'Medico@Nueva2026' },
    sessions: 'admin@demo.vigia.co',
  },
  {
    name: '390 × 844',
    viewport: { width: 390, height: 844 },
    recovers: { email: 'enfermeria@demo.vigia.co', password: 'Enfermera@Nueva2026' },
    sessions: 'consulta@demo.vigia.co',
  },
];

/**
 * Issue 38 in the staff app: '¿Olvidó su contraseña?' with the link read from the e-mail that
 * reached a real SMTP server, the new password, then 'Sesiones activas' (ending a session, and
 * the ended session's screen told why on the login).
 */
describe('account security', () => {
  let smtp: SmtpPeer;
  // Filled before the server starts (the product's beforeAll runs after this one).
  const env: Record<string, string> = {};
  beforeAll(async () => {
    smtp = await startSmtpPeer();
    env.SMTP_URL = smtp.url;
    env.SMTP_FROM = 'Vigía <cuentas@vigia.example.co>';
  });
  afterAll(() => smtp?.close());
  const product = useProductInBrowser(env);

  async function linkFor(email: string): Promise<string> {
    for (let i = 0; i < 100; i++) {
      const mail = smtp.received.filter((m) => m.to.includes(email)).at(-1);
      const m = mail?.text.match(/(\/password_resets#[A-Za-z0-9_-]{43})\b/);
      if (m) return m[1];
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no recovery e-mail reached ${email}`);
  }

  async function openUserMenuItem(page: Page, item: string, path: string) {
    for (let attempt = 0; ; attempt++) {
      await page.locator('.vigia-user-menu').click();
      await page
        .getByRole('menuitem', { name: item })
        .click({ timeout: 5000 })
        .catch(() => undefined);
      const reached = await waitForPath(page, path, 5000).then(
        () => true,
        () => false,
      );
      if (reached) return;
      if (attempt === 2) await waitForPath(page, path);
    }
  }

  for (const v of VIEWPORTS) {
    it(`recovers a forgotten password through the e-mailed link (${v.name})`, async () => {
      const page = await openPage(product.browser(), product.server().baseUrl, { viewport: v.viewport });
      await page.goto('/');
      await page.getByRole('button', { name: '¿Olvidó su contraseña?' }).click();
      const dialog = page.getByRole('dialog', { name: '¿Olvidó su contraseña?' });
      await dialog.waitFor({ state: 'visible' });
      await dialog.getByLabel('Correo electrónico').fill(v.recovers.email);
      await expectAccessible(page);
      await dialog.getByRole('button', { name: 'Enviar enlace' }).click();
      await dialog.getByText(/^Si el correo corresponde a una cuenta activa/).waitFor({ state: 'visible' });
      await dialog.getByRole('button', { name: 'Entendido' }).click();

      const link = await linkFor(v.recovers.email);
      await page.goto(link);
      await page.getByRole('heading', { name: 'Nueva contraseña' }).waitFor();
      // The token left the address bar as soon as the page read it.
      expect(page.url()).not.toContain('#');
      await expectAccessible(page);
      await page.getByLabel('Contraseña nueva').fill('sinmayuscula1@');
      await page.getByLabel('Confirmar contraseña').fill('sinmayuscula1@');
      await page.getByRole('button', { name: 'Guardar contraseña' }).click();
      await page.getByText('La contraseña debe contener al menos una letra mayúscula').waitFor({ state: 'visible' });
      await page.getByLabel('Contraseña nueva').fill(v.recovers.password);
      await page.getByLabel('Confirmar contraseña').fill(v.recovers.password);
      await page.getByRole('button', { name: 'Guardar contraseña' }).click();
      await page.getByText('Su contraseña fue cambiada. Inicie sesión con la contraseña nueva.').waitFor({ state: 'visible' });
      await page.getByRole('button', { name: 'Iniciar sesión' }).click();
      await waitForPath(page, '/');
      await submitStaffLogin(page, { email: v.recovers.email, password: v.recovers.password });
      await waitForPath(page, '/dashboard');

      // The same link again: refused, in Spanish, and the old password no longer signs in.
      await page.goto(link);
      await page.getByRole('heading', { name: 'Nueva contraseña' }).waitFor();
      await page.getByLabel('Contraseña nueva').fill('Otra@Clave2026');
      await page.getByLabel('Confirmar contraseña').fill('Otra@Clave2026');
      await page.getByRole('button', { name: 'Guardar contraseña' }).click();
      await page.getByText(/^Este enlace ya se usó/).waitFor({ state: 'visible' });
      const old = await fetch(`${product.server().baseUrl}/api/v1/sessions`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: v.recovers.email, password: OLD_PASSWORD }),
      });
      expect(old.status).toBe(401);
    });

    it(`lists the active sessions and ends another one, whose screen is told why (${v.name})`, async () => {
      const credentials = { email: v.sessions, password: OLD_PASSWORD };
      const page = await openSignedIn(product, '/dashboard', credentials);
      await page.setViewportSize(v.viewport);
      // A second browser, signed in as the same user.
      const other = await openSignedIn(product, '/dashboard', credentials);
      const spare = await createStaffSession(product.server().baseUrl, credentials);

      await openUserMenuItem(page, 'Sesiones activas', '/sessions');
      await page.getByRole('heading', { name: 'Sesiones activas' }).waitFor();
      await page.getByText('Esta sesión').waitFor({ state: 'visible' });
      const endButtons = page.getByRole('button', { name: /^Cerrar la sesión de / });
      await endButtons.first().waitFor({ state: 'visible' });
      expect(await endButtons.count()).toBe(2);
      await expectAccessible(page);

      // End one: the API session made with fetch (the last started after this one's browser).
      await endButtons.first().click();
      await page.locator('.ant-popover:visible').getByRole('button', { name: 'Cerrar sesión', exact: true }).click();
      await page.getByText('Se cerró 1 sesión.').first().waitFor({ state: 'visible' });
      await expect.poll(() => endButtons.count()).toBe(1);
      const refused = await fetch(`${product.server().baseUrl}/api/v1/me`, { headers: { Authorization: `Bearer ${spare.token}` } });
      expect(refused.status).toBe(401);
      expect(((await refused.json()) as { code: string }).code).toBe('session_ended');

      // Every other: the second browser's next request takes it to the login, saying why.
      await page.getByRole('button', { name: 'Cerrar las demás sesiones' }).click();
      await page.locator('.ant-popover:visible').getByRole('button', { name: 'Cerrar las demás', exact: true }).click();
      await expect.poll(() => endButtons.count()).toBe(0);
      await other.goto('/patients');
      await waitForPath(other, '/');
      await other.getByText('Su sesión fue cerrada desde otra sesión de su cuenta. Inicie sesión de nuevo.').waitFor({ state: 'visible' });
      await expectAccessible(other);
    });
  }

  it('lets an administrator end all sessions of a user from Usuarios (1440 × 900)', async () => {
    const { token } = await createStaffSession(product.server().baseUrl, { email: 'consulta@demo.vigia.co', password: OLD_PASSWORD });
    const page = await openSignedIn(product, '/users');
    await page.setViewportSize({ width: 1440, height: 900 });
    await page
      .getByRole('row', { name: /VARGAS LEÓN/ })
      .getByText('Sesiones', { exact: true })
      .click();
    await page.getByRole('heading', { name: 'Cerrar todas las sesiones' }).waitFor();
    await page.getByText('consulta@demo.vigia.co').waitFor({ state: 'visible' });
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Cerrar todas las sesiones' }).click();
    await page.locator('.ant-popover:visible').getByRole('button', { name: 'Cerrar todas', exact: true }).click();
    await waitForPath(page, '/users');
    const refused = await fetch(`${product.server().baseUrl}/api/v1/me`, { headers: { Authorization: `Bearer ${token}` } });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({
      code: 'session_ended',
      message: 'Su sesión fue cerrada por un administrador de su institución. Inicie sesión de nuevo.',
    });
  });
});
