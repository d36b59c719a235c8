import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import path from 'node:path';
import { mkdir } from 'node:fs/promises';
import { authenticator } from 'otplib';
import type { Browser, Page } from 'playwright-core';
import { createStaffSession, DEMO_ADMIN } from './support/api';
import { closeToasts, launchBrowser, openPage, SCREENSHOT_DIR, waitForPath } from './support/browser';
import { submitStaffLogin } from './support/product';
import { startServer, type RunningServer } from './support/server';
import { expectAccessible } from './support/accessibility';

/** Kept for a person to look at (tests/e2e/.screenshots/second-factor-*.png). */
async function snapshot(page: Page, name: string) {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `second-factor-${name}.png`), fullPage: true });
}

const PASSWORD = 'Clave@Segura2026';
/** Names take letters only. */
const LAST_NAMES = ['Cero', 'Uno', 'Dos', 'Tres', 'Cuatro', 'Cinco', 'Seis', 'Siete'];
const VIEWPORTS = [
  { name: '1440 × 900', tag: 'wide', viewport: { width: 1440, height: 900 } },
  { name: '390 × 844', tag: 'phone', viewport: { width: 390, height: 844 } },
];

/** The code the authenticator app shows `steps` periods of 30 s from now (the server accepts ±1). */
function codeAt(secret: string, steps = 0): string {
  return authenticator.clone({ epoch: Date.now() + steps * 30_000 }).generate(secret);
}

/** A code that is none of the three the server would accept now. */
function wrongCode(secret: string): string {
  const near = new Set([-1, 0, 1].map((s) => codeAt(secret, s)));
  for (let n = 0; ; n++) {
    const candidate = String(n).padStart(6, '0');
    if (!near.has(candidate)) return candidate;
  }
}

/**
 * Issue 38 in the staff app with Chromium: the authenticator app enrolled from the QR screen (its
 * key read from the page, the codes computed here with otplib), sign-in with a code and with a
 * recovery code; a passkey registered and used through Chromium's virtual authenticator (DevTools
 * protocol); the organisation's policy sending a role to enrolment before anything else; an
 * administrator's reset. The browser opens the app at PUBLIC_URL's origin, http://localhost:port,
 * the relying party of the passkeys (a secure context for WebAuthn, unlike 127.0.0.1 as an RP id).
 */
describe('second factor', () => {
  let server: RunningServer;
  let browser: Browser;
  let origin: string;
  let adminToken: string;
  let clientId: number;
  let nextUser = 0;

  beforeAll(async () => {
    server = await startServer((baseUrl) => ({ PUBLIC_URL: baseUrl.replace('127.0.0.1', 'localhost') }));
    origin = server.baseUrl.replace('127.0.0.1', 'localhost');
    browser = await launchBrowser();
    ({ token: adminToken, client_id: clientId } = await createStaffSession(server.baseUrl, DEMO_ADMIN));
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  }, 30_000);

  async function api<T>(method: string, url: string, body?: unknown, token = adminToken): Promise<{ status: number; body: T }> {
    const response = await fetch(`${server.baseUrl}/api/v1${url}`, {
      method,
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', Authorization: `Bearer ${token}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
  }

  /** A user of the demo organisation with a password only, so each test starts from nothing. */
  async function newUser(role: 'consulta' | 'enfermeria' | 'medico'): Promise<{ id: number; email: string; password: string }> {
    const email = `segundo.factor${++nextUser}@demo.vigia.co`;
    const { status, body } = await api<{ id: number }>('POST', '/users', {
      first_name: 'Lucía',
      last_name: `Prueba ${LAST_NAMES[nextUser % LAST_NAMES.length]}`,
      email,
      password: PASSWORD,
      password_confirmation: PASSWORD,
      cellphone: '3001234567',
      prefix: '+57',
      country_id: 26,
      city_id: 2611001,
      role_name: role,
    });
    if (status !== 201) throw new Error(`POST /users answered ${status}: ${JSON.stringify(body)}`);
    return { id: body.id, email, password: PASSWORD };
  }

  async function open(viewport: { width: number; height: number }): Promise<Page> {
    const page = await openPage(browser, origin, { viewport });
    await page.goto('/');
    return page;
  }

  async function openUserMenuItem(page: Page, item: string, target: string) {
    for (let attempt = 0; ; attempt++) {
      await page.locator('.vigia-user-menu').click();
      await page
        .getByRole('menuitem', { name: item })
        .click({ timeout: 5000 })
        .catch(() => undefined);
      const reached = await waitForPath(page, target, 5000).then(
        () => true,
        () => false,
      );
      if (reached) return;
      if (attempt === 2) await waitForPath(page, target);
    }
  }

  async function logout(page: Page) {
    await page.getByRole('button', { name: /^(Cerrar sesión|Salir)$/ }).click();
    await waitForPath(page, '/');
    await page.getByRole('heading', { name: 'Iniciar sesión' }).waitFor();
    // The screen left behind must not tell the user their session is invalid (its query refetched without a token).
    await page.waitForTimeout(1000);
    expect(await page.getByText('Su sesión no es válida o ha expirado').count()).toBe(0);
  }

  /** The ten codes of the 'shown once' panel, then 'Ya los guardé…'. */
  async function keepRecoveryCodes(page: Page, done: RegExp = /^Ya los guardé$/): Promise<string[]> {
    const list = page.getByRole('list', { name: 'Códigos de recuperación' });
    await list.waitFor({ state: 'visible' });
    const codes = (await list.locator('code').allTextContents()).map((c) => c.trim());
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    await expectAccessible(page);
    await page.getByRole('button', { name: done }).click();
    await list.waitFor({ state: 'detached' });
    // The factor's toast closed: on a phone it spans the screen's width over the list of factors,
    // and a click aimed beneath it keeps it open (antd pauses a hovered toast).
    await closeToasts(page);
    return codes;
  }

  /** Reads the key the page shows beside the QR code (grouped by four; the copy button has it whole). */
  async function readTotpKey(page: Page): Promise<string> {
    const key = page.locator('.vigia-totp-secret');
    await key.waitFor({ state: 'visible' });
    await expect
      .poll(() => page.locator('.vigia-totp-qr img').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth))
      .toBeGreaterThan(0);
    const secret = ((await key.textContent()) ?? '').replace(/\s+/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    return secret;
  }

  for (const v of VIEWPORTS) {
    it(`enrols the authenticator app from the QR screen, then signs in with a code and with a recovery code (${v.name})`, async () => {
      const user = await newUser('consulta');
      const page = await open(v.viewport);
      await submitStaffLogin(page, user);
      await waitForPath(page, '/dashboard');

      await openUserMenuItem(page, 'Seguridad', '/security');
      await page.getByRole('heading', { name: 'Seguridad', level: 1 }).waitFor();
      await page.getByText('La verificación en dos pasos está desactivada.').waitFor();
      await expectAccessible(page);
      await snapshot(page, `${v.tag}-security-empty`);

      await page.getByRole('button', { name: 'Configurar aplicación' }).click();
      const dialog = page.getByRole('dialog', { name: 'Configurar la aplicación de autenticación' });
      await dialog.waitFor({ state: 'visible' });
      const secret = await readTotpKey(page);
      await expectAccessible(page);
      await snapshot(page, `${v.tag}-totp-qr`);
      // A wrong first code is refused in Spanish and nothing is enrolled.
      await dialog.getByLabel(/código de 6 dígitos/).fill(wrongCode(secret));
      await dialog.getByRole('button', { name: 'Confirmar' }).click();
      await dialog.locator('.ant-form-item-explain-error').waitFor({ state: 'visible' });
      await dialog.getByLabel(/código de 6 dígitos/).fill(codeAt(secret));
      await dialog.getByRole('button', { name: 'Confirmar' }).click();
      await snapshot(page, `${v.tag}-recovery-codes`);
      const codes = await keepRecoveryCodes(page);
      await page.getByText('La verificación en dos pasos está activa.').waitFor();
      await page.getByText('Le quedan 10 códigos de recuperación sin usar.').waitFor();
      await snapshot(page, `${v.tag}-security-active`);

      // Sign in again: the password, then the code (the next period's: this one's was spent enrolling).
      await logout(page);
      await submitStaffLogin(page, user);
      await page.getByRole('heading', { name: 'Verificación en dos pasos' }).waitFor();
      const codeField = page.getByLabel('Código de verificación');
      await expect.poll(() => codeField.getAttribute('autocomplete')).toBe('one-time-code');
      expect(await codeField.getAttribute('inputmode')).toBe('numeric');
      await expectAccessible(page);
      await snapshot(page, `${v.tag}-login-code`);
      await codeField.fill('12ab56');
      await page.getByRole('button', { name: 'Verificar' }).click();
      await page.getByText('El código tiene 6 dígitos.').waitFor();
      await codeField.fill(wrongCode(secret));
      await page.getByRole('button', { name: 'Verificar' }).click();
      await page.locator('.ant-form-item-explain-error').waitFor({ state: 'visible' });
      await codeField.fill(codeAt(secret, 1));
      await page.getByRole('button', { name: 'Verificar' }).click();
      await waitForPath(page, '/dashboard');

      // A recovery code signs in once; the same one again is refused and 'Volver' returns to the password.
      await logout(page);
      await submitStaffLogin(page, user);
      await page.getByRole('button', { name: 'Usar un código de recuperación' }).click();
      await page.getByLabel('Código de recuperación').fill(codes[0].toUpperCase());
      await expectAccessible(page);
      await snapshot(page, `${v.tag}-login-recovery`);
      await page.getByRole('button', { name: 'Verificar' }).click();
      await waitForPath(page, '/dashboard');
      await logout(page);
      await submitStaffLogin(page, user);
      await page.getByRole('button', { name: 'Usar un código de recuperación' }).click();
      await page.getByLabel('Código de recuperación').fill(codes[0]);
      await page.getByRole('button', { name: 'Verificar' }).click();
      await page.locator('.ant-form-item-explain-error').waitFor({ state: 'visible' });
      await page.getByRole('button', { name: 'Volver' }).click();
      await page.getByRole('heading', { name: 'Iniciar sesión' }).waitFor();
      await submitStaffLogin(page, user);
      await page.getByRole('button', { name: 'Usar un código de recuperación' }).click();
      await page.getByLabel('Código de recuperación').fill(codes[1]);
      await page.getByRole('button', { name: 'Verificar' }).click();
      await waitForPath(page, '/dashboard');
      await openUserMenuItem(page, 'Seguridad', '/security');
      await page.getByText('Le quedan 8 códigos de recuperación sin usar.').waitFor();
    });

    it(`registers a passkey with Chromium's virtual authenticator and signs in with it (${v.name})`, async () => {
      const user = await newUser('consulta');
      const page = await open(v.viewport);
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('WebAuthn.enable');
      await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
      });

      await submitStaffLogin(page, user);
      await waitForPath(page, '/dashboard');
      await openUserMenuItem(page, 'Seguridad', '/security');
      await page.getByRole('button', { name: 'Agregar llave de acceso' }).click();
      const dialog = page.getByRole('dialog', { name: 'Agregar llave de acceso' });
      await dialog.getByLabel('Nombre de la llave').fill('Portátil de prueba');
      await expectAccessible(page);
      await dialog.getByRole('button', { name: 'Continuar' }).click();
      // The first factor: its recovery codes come with it.
      await keepRecoveryCodes(page);
      await page.getByText('Portátil de prueba').waitFor();
      await page.getByText('Último uso: nunca').waitFor();

      // Rename it.
      await page.getByRole('button', { name: 'Cambiar nombre: Portátil de prueba' }).click();
      const rename = page.getByRole('dialog', { name: 'Cambiar el nombre de la llave' });
      await rename.getByLabel('Nombre de la llave').fill('Llave de la oficina');
      await rename.getByRole('button', { name: 'Guardar' }).click();
      await page.getByText('Llave de la oficina').waitFor();
      await expectAccessible(page);
      await snapshot(page, `${v.tag}-security-passkey`);

      // Sign in with it: the password, then the browser's prompt answered by the virtual authenticator.
      await logout(page);
      await submitStaffLogin(page, user);
      await page.getByRole('heading', { name: 'Verificación en dos pasos' }).waitFor();
      await expectAccessible(page);
      await snapshot(page, `${v.tag}-login-passkey`);
      await page.getByRole('button', { name: 'Usar una llave de acceso' }).click();
      await waitForPath(page, '/dashboard');
      await openUserMenuItem(page, 'Seguridad', '/security');
      await page.getByText('Llave de la oficina').waitFor();
      await expect(page.getByText('Último uso: nunca').count()).resolves.toBe(0);
    });
  }

  it("sends a role the organisation requires to enrolment first, and an administrator resets that user's factor", async () => {
    const viewport = { width: 1440, height: 900 };
    const user = await newUser('medico');

    // The administrator ticks 'Médico' in the policy of 'Seguridad'.
    const admin = await open(viewport);
    await submitStaffLogin(admin, DEMO_ADMIN);
    await waitForPath(admin, '/dashboard');
    await openUserMenuItem(admin, 'Seguridad', '/security');
    // Once the page's own cards have loaded: they appear above the policy and push it down, and a
    // click aimed before that landed beside the box (CI: 'Clicking the checkbox did not change its state').
    await expect.poll(() => admin.locator('.vigia-security .ant-skeleton').count(), { timeout: 15_000 }).toBe(0);
    // Even then a whole-file run saw the click land during a re-render: the tick is tried again
    // (at most 5 times) until the box reads as checked, and the saved policy is checked below.
    const medico = admin.getByRole('checkbox', { name: 'Médico' });
    for (let attempt = 1; !(await medico.isChecked()); attempt++) {
      await medico.check({ timeout: 3_000 }).catch((err: unknown) => {
        if (attempt >= 5) throw err;
      });
      if (!(await medico.isChecked())) await admin.waitForTimeout(500);
    }
    expect(await medico.isChecked()).toBe(true);
    await admin.getByRole('button', { name: 'Guardar política' }).click();
    await admin.getByText('Política de segundo factor guardada').first().waitFor();
    await expectAccessible(admin);
    await snapshot(admin, 'wide-security-policy');

    try {
      // The doctor: after the password, enrolment and nothing else.
      const page = await open(viewport);
      await submitStaffLogin(page, user);
      await page.getByRole('heading', { name: 'Active la verificación en dos pasos' }).waitFor();
      await expectAccessible(page);
      await snapshot(page, 'wide-enrolment-choose');
      await page.getByRole('button', { name: /Aplicación de autenticación/ }).click();
      const secret = await readTotpKey(page);
      await expectAccessible(page);
      await snapshot(page, 'wide-enrolment-totp');
      await page.getByLabel(/código de 6 dígitos/).fill(codeAt(secret));
      await page.getByRole('button', { name: 'Confirmar' }).click();
      await keepRecoveryCodes(page, /^Ya los guardé, entrar$/);
      await waitForPath(page, '/dashboard');

      // The administrator resets it from Usuarios; the doctor's session ends and enrolment is due again.
      await admin.goto('/users');
      const rowOf = (email: string) => admin.getByRole('row', { name: new RegExp(email.replace(/[.]/g, '\\.')) });
      await rowOf(user.email).getByText('Segundo factor', { exact: true }).click();
      await waitForPath(admin, `/users/${user.id}/factors`);
      await expectAccessible(admin);
      await admin.getByRole('button', { name: 'Restablecer segundo factor' }).click();
      await admin.locator('.ant-popover:visible').getByRole('button', { name: 'Restablecer' }).click();
      await waitForPath(admin, '/users');
      // Not offered on oneself.
      await rowOf(DEMO_ADMIN.email).waitFor();
      expect(await rowOf(DEMO_ADMIN.email).getByText('Segundo factor', { exact: true }).count()).toBe(0);
      expect(await rowOf(user.email).getByText('Segundo factor', { exact: true }).count()).toBe(1);

      await page.reload();
      await waitForPath(page, '/');
      await submitStaffLogin(page, user);
      await page.getByRole('heading', { name: 'Active la verificación en dos pasos' }).waitFor();
    } finally {
      const { status } = await api('PUT', `/clients/${clientId}`, { second_factor_roles: [] });
      expect(status).toBe(200);
    }
  });
});
