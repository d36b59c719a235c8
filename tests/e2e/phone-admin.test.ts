import { generateKeyPairSync } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { components } from '@vigia/contract/openapi';
import { apiCall, createStaffSession, DEMO_ADMIN } from './support/api';
import { openPage, SCREENSHOT_DIR } from './support/browser';
import { submitStaffLogin, useProductInBrowser } from './support/product';
import { expectAccessible } from './support/accessibility';
import { cutTexts } from './support/cut-text';

type FhirExport = components['schemas']['FhirExport'];
type Alert = components['schemas']['Alert'];

/**
 * Issue 50: the staff app on a nurse's or an administrator's phone (390 × 844). The lists whose
 * tables cut their key columns (closed alerts, 'Exportaciones FHIR' and its files, 'Clientes de
 * API' with the Client ID) show each row as a card with every key field whole; the welcome toast
 * leaves the header's controls free; the recovery dialog does not mark the login's fields. Each
 * screen is kept as a PNG for a person to look at, and scanned with axe.
 */

const PHONE = { width: 390, height: 844 };
/** The cards' titles, labels and values: none may be cut (axe cannot see it). */
const CARD_TEXT = '.phone-card-title, .phone-card-field dt, .phone-card-field dd, .phone-card-actions .ant-btn';

async function snapshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

type Box = { x: number; y: number; width: number; height: number };
const intersects = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('El personal en un teléfono (issue 50, 390 × 844)', () => {
  const product = useProductInBrowser();
  let exportId = 0;
  let session = '';

  /** A phone's page with the administrator's session in its storage (as a sign-in leaves it). */
  async function signedInPhone(): Promise<Page> {
    const page = await openPage(product.browser(), product.server().baseUrl, { viewport: PHONE });
    await page.addInitScript({ content: `localStorage.setItem('vigia.session', ${JSON.stringify(session)});` });
    return page;
  }

  beforeAll(async () => {
    const base = product.server().baseUrl;
    const staff = await createStaffSession(base);
    const { token } = staff;
    session = JSON.stringify(staff);
    const publicJwk = generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey.export({ format: 'jwk' });
    await apiCall(base, token, 'POST', '/api_clients', {
      name: 'Historia clínica del Hospital Universitario San Vicente',
      jwks: { keys: [publicJwk] },
      scopes: ['system/Patient.rs', 'system/Observation.rs'],
    });
    // Every type: one of them (at least) has no resources in the demo data, so no file of its own.
    const started = await apiCall<FhirExport>(base, token, 'POST', '/fhir_exports', {});
    exportId = started.id;
    const deadline = Date.now() + 90_000;
    for (;;) {
      const done = await apiCall<FhirExport>(base, token, 'GET', `/fhir_exports/${exportId}`);
      if (done.status === 'completed') break;
      if (Date.now() > deadline || done.status === 'failed') throw new Error(`The export did not complete: ${done.status}`);
      await new Promise((r) => setTimeout(r, 500));
    }
    const closed = await apiCall<Alert[]>(base, token, 'GET', '/reports/client_alerts_list?status=closed&per_page=1');
    expect(closed.length, 'the demo data has closed alerts').toBeGreaterThan(0);
  }, 150_000);

  it("the recovery dialog leaves the login's fields unmarked; the welcome toast leaves the header's controls free", async () => {
    const page = await openPage(product.browser(), product.server().baseUrl, { viewport: PHONE });
    await page.goto('/');
    const email = page.getByLabel('Correo electrónico');
    await email.click();
    await page.getByRole('button', { name: '¿Olvidó su contraseña?' }).click();
    const dialog = page.getByRole('dialog', { name: '¿Olvidó su contraseña?' });
    await dialog.waitFor({ state: 'visible' });
    await page.waitForTimeout(300);
    // Behind the dialog, the login form says nothing: the user went to recover, not to sign in.
    expect(await page.locator('.login-card .ant-form-item-has-error').count()).toBe(0);
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.locator('.login-card .ant-form-item-has-error').count()).toBe(0);

    await submitStaffLogin(page, DEMO_ADMIN);
    const toast = page.locator('.ant-notification-notice').filter({ hasText: 'Bienvenid' });
    await toast.waitFor({ state: 'visible' });
    await page.locator('.vigia-header').waitFor({ state: 'visible' });
    await page.waitForTimeout(300);
    const toastBox = (await toast.boundingBox())!;
    const controls = page.locator('.vigia-header button, .vigia-header a');
    const covered: string[] = [];
    for (let i = 0; i < (await controls.count()); i++) {
      const control = controls.nth(i);
      const box = await control.boundingBox();
      if (box && intersects(toastBox, box))
        covered.push((await control.innerText()) || ((await control.getAttribute('aria-label')) ?? '?'));
    }
    expect(covered, 'header controls under the welcome toast').toEqual([]);
    await snapshot(page, 'phone-bienvenida');
  });

  it("shows the alert manager's closed alerts as cards, every key field whole", async () => {
    const page = await signedInPhone();
    await page.goto('/alerts_management');
    await page.getByRole('tab', { name: /^Cerradas/ }).click();
    const cards = page.getByRole('list', { name: 'Alertas cerradas' }).locator('.phone-card');
    await cards.first().waitFor({ state: 'visible' });
    await expect.poll(() => cards.first().innerText()).toMatch(/Estado[\s\S]*Fecha[\s\S]*Ver historial/);
    expect(await page.locator('.ant-table').count()).toBe(0);
    expect(await cutTexts(page, CARD_TEXT)).toEqual([]);
    await snapshot(page, 'phone-alertas-cerradas');
    await expectAccessible(page);
  });

  it("shows 'Exportaciones FHIR' as cards with their actions, and lists a file line for every type asked", async () => {
    const page = await signedInPhone();
    await page.goto('/fhir_exports');
    const card = page.getByRole('list', { name: 'Exportaciones' }).locator('.phone-card').first();
    await card.waitFor({ state: 'visible' });
    await card.getByText('Todos (10)').waitFor({ state: 'visible' });
    await card.getByRole('button', { name: /Ver archivos/ }).click();
    const files = card.getByRole('list', { name: `Archivos de la exportación ${exportId}` }).locator('.phone-card');
    await files.first().waitFor({ state: 'visible' });
    // 'Todos (10)' and ten lines: a type without resources says so instead of missing.
    expect(await files.count()).toBeGreaterThanOrEqual(10);
    await card
      .getByRole('button', { name: /^Descargar / })
      .first()
      .waitFor({ state: 'visible' });
    expect(await cutTexts(page, CARD_TEXT)).toEqual([]);
    await snapshot(page, 'phone-exportaciones-fhir');
    await expectAccessible(page);
  });

  it("shows 'Clientes de API' as cards with the Client ID whole, and keeps 'Todas' apart from single scopes", async () => {
    const page = await signedInPhone();
    await page.goto('/api_clients');
    const card = page.getByRole('list', { name: 'Clientes de API' }).locator('.phone-card').first();
    await card.waitFor({ state: 'visible' });
    await card.getByText('Client ID', { exact: true }).waitFor({ state: 'visible' });
    await card.getByRole('button', { name: 'Editar' }).waitFor({ state: 'visible' });
    expect(await cutTexts(page, `${CARD_TEXT}, .api-client-id`)).toEqual([]);
    await snapshot(page, 'phone-clientes-api');
    await expectAccessible(page);

    // The form: 'Todas' chosen after single types stays alone; a single type after 'Todas' takes its place.
    await page.getByRole('button', { name: 'Registrar cliente' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nuevo cliente de API' });
    const scopes = dialog.getByRole('combobox', { name: 'Datos que puede leer (scopes)' });
    const chosen = () => dialog.locator('.ant-select-selection-item-content').allInnerTexts();
    await scopes.click();
    await page.locator('.ant-select-item-option', { hasText: 'Pacientes (Patient)' }).click();
    await page.locator('.ant-select-item-option', { hasText: 'Todas (system/*.rs)' }).click();
    await expect.poll(chosen).toEqual(['Todas (system/*.rs)']);
    await page.locator('.ant-select-item-option', { hasText: 'Etiquetas y sus pacientes (Group)' }).click();
    await expect.poll(chosen).toEqual(['Etiquetas y sus pacientes (Group)']);
    await page.keyboard.press('Escape');
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
  });
});
