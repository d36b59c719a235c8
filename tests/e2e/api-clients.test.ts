import { generateKeyPairSync } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apiCall, createStaffSession, DEMO_ADMIN } from './support/api';
import { closeToasts, SCREENSHOT_DIR, waitForPath } from './support/browser';
import { openSignedIn, useProductInBrowser } from './support/product';
import { expectAccessible } from './support/accessibility';

/** Kept for a person to look at (tests/e2e/.screenshots/api-clients-*.png). */
async function snapshot(page: Page, name: string) {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `api-clients-${name}.png`), fullPage: true });
}

const VIEWPORTS = [
  { name: '1440 × 900', tag: 'wide', viewport: { width: 1440, height: 900 } },
  { name: '390 × 844', tag: 'phone', viewport: { width: 390, height: 844 } },
];

type ApiClient = { id: number; client_id: string; name: string; jwks: unknown; scopes: string[]; status: string };

/** A system's public key as its integrator would hand it over (ES384, issue 37). */
function keyPair() {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-384' });
  return { publicJwk: publicKey.export({ format: 'jwk' }), privateJwk: privateKey.export({ format: 'jwk' }) };
}

/** 'Clientes de API' (issue 37): registered, suspended and deleted from 'Integraciones' by an administrator. */
describe('Clientes de API (/api_clients)', () => {
  const product = useProductInBrowser();
  let attempts = 0;

  for (const { name, tag, viewport } of VIEWPORTS) {
    it(`registers a client with a pasted JWKS, suspends it and deletes it at ${name}`, { timeout: 180_000 }, async () => {
      const base = product.server().baseUrl;
      const token = (await createStaffSession(base)).token;
      // A name of its own per attempt: CI runs a failed browser test once more, after this one saved its client.
      const system = `Historia clínica Hospital Central ${tag} ${++attempts}`;
      const { publicJwk, privateJwk } = keyPair();

      const page = await openSignedIn(product, '/integrations');
      await page.setViewportSize(viewport);
      const link = page.getByRole('link', { name: 'Ver clientes de API' });
      await link.waitFor({ state: 'visible' });
      await snapshot(page, `${tag}-integrations`);
      await link.click();
      await waitForPath(page, '/api_clients');
      await page.getByText('¿Qué es un cliente de API?').waitFor({ state: 'visible' });
      await expectAccessible(page);
      await snapshot(page, `${tag}-empty`);

      await page.getByRole('button', { name: 'Registrar cliente' }).click();
      const dialog = page.getByRole('dialog', { name: 'Nuevo cliente de API' });
      await dialog.waitFor({ state: 'visible' });
      await dialog.getByLabel('Nombre del sistema').fill(system);
      const jwks = dialog.getByLabel('JWKS (JSON)');
      // Not JSON: refused in the browser, in Spanish, under the field.
      await jwks.fill('{"keys": [{"kty": "EC"');
      await page.getByRole('combobox', { name: 'Datos que puede leer (scopes)' }).click();
      await page.locator('.ant-select-item-option[title="Pacientes (Patient)"]').click();
      await page.locator('.ant-select-item-option[title="Mediciones (Observation)"]').click();
      await page.keyboard.press('Escape');
      await dialog.getByRole('button', { name: 'Guardar' }).click();
      await dialog.getByText('El JWKS no es un JSON válido', { exact: false }).waitFor({ state: 'visible' });
      await expectAccessible(page);
      await snapshot(page, `${tag}-not-json`);

      // A private key is JSON: the server refuses it, and its message shows under the field.
      await jwks.fill(JSON.stringify({ keys: [privateJwk] }));
      await dialog.getByRole('button', { name: 'Guardar' }).click();
      await dialog.getByText('El JWKS contiene una clave privada: pegue solo las claves públicas.').waitFor({ state: 'visible' });
      expect(await apiCall<ApiClient[]>(base, token, 'GET', `/api_clients?q=${encodeURIComponent(system)}`)).toEqual([]);
      // Its notification and the welcome one closed: a third at once would open the notifications dialog over the list.
      await closeToasts(page);

      await jwks.fill(JSON.stringify({ keys: [publicJwk] }, null, 2));
      await snapshot(page, `${tag}-form`);
      await dialog.getByRole('button', { name: 'Guardar' }).click();
      await dialog.waitFor({ state: 'hidden' });

      const [saved] = await apiCall<ApiClient[]>(base, token, 'GET', `/api_clients?q=${encodeURIComponent(system)}`);
      expect(saved).toMatchObject({ name: system, jwks: { keys: [publicJwk] }, status: 'active' });
      expect([...saved.scopes].sort()).toEqual(['system/Observation.rs', 'system/Patient.rs']);
      // A table row, or on a phone its card (issue 50).
      const row = page.locator('.ant-table-row, .phone-card').filter({ hasText: system });
      await row.getByText(saved.client_id, { exact: true }).waitFor({ state: 'visible' });
      await row.getByText('Activo', { exact: true }).waitFor({ state: 'visible' });
      await row.getByText('Nunca', { exact: true }).waitFor({ state: 'visible' });
      for (const scope of ['Pacientes', 'Mediciones']) await row.getByText(scope, { exact: true }).waitFor({ state: 'visible' });
      await expectAccessible(page);
      await snapshot(page, `${tag}-listed`);

      // Suspended from the edit dialog: the chip changes, and so does the record.
      await row.getByRole('button', { name: 'Editar' }).click();
      const edit = page.getByRole('dialog', { name: 'Editar cliente de API' });
      await edit.waitFor({ state: 'visible' });
      // The record loads into the dialog: its JWK Set as text, to be edited or left as it is.
      const loaded = edit.getByLabel('JWKS (JSON)');
      await expect.poll(() => loaded.inputValue()).not.toBe('');
      expect(JSON.parse(await loaded.inputValue())).toEqual({ keys: [publicJwk] });
      const suspended = edit.getByRole('switch', { name: 'Suspendido' });
      expect(await suspended.getAttribute('aria-checked')).toBe('false');
      await suspended.click();
      await expectAccessible(page);
      await snapshot(page, `${tag}-edit`);
      await edit.getByRole('button', { name: 'Guardar' }).click();
      await edit.waitFor({ state: 'hidden' });
      await row.getByText('Suspendido', { exact: true }).waitFor({ state: 'visible' });
      await closeToasts(page);
      expect(await apiCall<ApiClient>(base, token, 'GET', `/api_clients/${saved.id}`)).toMatchObject({
        status: 'suspended',
        jwks: { keys: [publicJwk] },
      });

      // Deleted after a confirmation that says the system loses its access at once.
      await row.getByRole('button', { name: 'Eliminar' }).click();
      const confirm = page.getByRole('dialog', { name: '¿Eliminar el cliente de API?' });
      await confirm.getByText('pierde el acceso a la API de inmediato', { exact: false }).waitFor({ state: 'visible' });
      await snapshot(page, `${tag}-delete`);
      await confirm.getByRole('button', { name: 'Eliminar cliente' }).click();
      await confirm.waitFor({ state: 'hidden' });
      await row.waitFor({ state: 'detached' });
      expect(await apiCall<ApiClient[]>(base, token, 'GET', `/api_clients?q=${encodeURIComponent(system)}`)).toEqual([]);
    });
  }

  it('edits a client on its own page (a direct link): the stored JWKS shown, a refused URL explained under its field', async () => {
    const base = product.server().baseUrl;
    const token = (await createStaffSession(base)).token;
    const { publicJwk } = keyPair();
    const client = await apiCall<ApiClient>(base, token, 'POST', '/api_clients', {
      name: 'Plataforma del asegurador',
      jwks: { keys: [publicJwk] },
      scopes: ['system/*.rs'],
    });
    const page = await openSignedIn(product, `/api_clients/edit/${client.id}`);
    const jwks = page.getByLabel('JWKS (JSON)');
    await expect.poll(() => jwks.inputValue()).not.toBe('');
    expect(JSON.parse(await jwks.inputValue())).toEqual({ keys: [publicJwk] });
    await page.locator('.ant-select-selection-item[title="Todas (system/*.rs)"]').waitFor({ state: 'visible' });

    // A loopback URL passes the contract's pattern; the server refuses it and says why under the field.
    await page.locator('label.ant-radio-button-wrapper', { hasText: 'URL de JWKS' }).click();
    expect(await page.getByRole('radio', { name: 'URL de JWKS' }).isChecked()).toBe(true);
    await page.getByLabel('Dirección del JWKS').fill('http://127.0.0.1/jwks.json');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page
      .locator('.ant-form-item-explain')
      .getByText('La URL del JWKS debe empezar por https:// y no apuntar a una red privada.')
      .waitFor({ state: 'visible' });
    expect(await apiCall<ApiClient>(base, token, 'GET', `/api_clients/${client.id}`)).toMatchObject({ jwks: { keys: [publicJwk] } });
  });

  it('leaves the screen out of the menu and the card off "Integraciones" for a nurse', async () => {
    const page = await openSignedIn(product, '/integrations', { email: 'enfermeria@demo.vigia.co', password: DEMO_ADMIN.password });
    await page.getByText('Gestión de residencias (ResiPlus)').waitFor({ state: 'visible' });
    expect(await page.getByRole('link', { name: 'Ver clientes de API' }).count()).toBe(0);
    const menu = page.locator('.vigia-sider-content .ant-menu');
    await menu.locator('.ant-menu-title-content').getByText('Integraciones', { exact: true }).waitFor({ state: 'attached' });
    expect(await menu.locator('.ant-menu-title-content').getByText('Clientes de API', { exact: true }).count()).toBe(0);
  });
});
