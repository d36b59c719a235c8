import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { closeToasts, openPage, waitForPath } from './support/browser';
import { createStaffSession, DEMO_ADMIN } from './support/api';
import { submitStaffLogin, useProductInBrowser } from './support/product';

/** The demo's Prevenar 13 (NEUMOCOCO) batch of Clínica Demo holds 3 units (seeds/demo-inventory.ts). */
const SERIAL = 'C1PRV24E01000000';

describe('Atenciones desde la ficha del paciente', () => {
  const product = useProductInBrowser();

  async function api<T>(path: string): Promise<T> {
    const { token } = await createStaffSession(product.server().baseUrl);
    const res = await fetch(`${product.server().baseUrl}/api/v1${path}`, { headers: { Authorization: `Bearer ${token}` } });
    expect(res.status, path).toBe(200);
    return (await res.json()) as T;
  }
  const quantity = async () => (await api<Array<{ cuantity: number }>>(`/stocks?q=${SERIAL}`))[0].cuantity;

  /** Opens an antd Select of the dialog by its label and picks the option with that text. */
  async function choose(page: Page, dialog: Locator, label: string, option: string) {
    await dialog.getByLabel(label).click({ force: true });
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option }).first().click();
    await dialog.locator('.ant-select-selection-item', { hasText: option }).first().waitFor({ state: 'visible' });
  }

  it("'Nueva atención' → vacunación → guardada: Realizado, listed on the patient page, and the batch has one unit less", async () => {
    const [patient] = await api<Array<{ id: number; full_name: string }>>('/patients?_end=1');
    const before = await quantity();
    expect(before).toBe(3);

    const page = await openPage(product.browser(), product.server().baseUrl);
    const path = `/patients/${patient.id}`;
    await page.goto(path);
    await waitForPath(page, '/');
    await submitStaffLogin(page, DEMO_ADMIN);
    await waitForPath(page, path);

    await page.getByRole('button', { name: 'Nueva atención' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nueva atención' });
    await dialog.waitFor({ state: 'visible' });
    // Saving without the required data is refused in the dialog and opens nothing.
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await dialog.getByText('¡El campo es requerido!').first().waitFor({ state: 'visible' });

    await choose(page, dialog, 'Tipo de Biológico', 'NEUMOCOCO');
    await dialog.getByText('PREVENAR 13', { exact: true }).click();
    await choose(page, dialog, 'Dosis', 'Refuerzo');
    await choose(page, dialog, 'Lote', SERIAL);
    // Three notifications at once become the notifications dialog (03 §2), which would cover the
    // patient's link below: the toasts shown so far (the welcome) are closed before saving notifies.
    await closeToasts(page);
    await dialog.getByRole('button', { name: 'Guardar' }).click();

    await page.waitForURL(/\/encounters\/\d+$/);
    const encounterId = Number(new URL(page.url()).pathname.split('/').pop());
    await page.getByText('Realizado', { exact: true }).waitFor({ state: 'visible' });
    await page.getByRole('link', { name: SERIAL }).waitFor({ state: 'visible' });
    expect(await quantity()).toBe(before - 1);
    const saved = await api<{ status: string; dose: string; stock_id: number; responsible_name: string }>(`/encounters/${encounterId}`);
    expect(saved).toMatchObject({ status: 'Realizado', dose: 'Refuerzo' });

    // Back on the patient page, the encounter heads the list and opens again.
    await page.getByRole('link', { name: patient.full_name }).click();
    await waitForPath(page, path);
    const row = page.locator('.patient-encounter', { has: page.locator(`a[href="/encounters/${encounterId}"]`) }).first();
    await row.waitFor({ state: 'visible' });
    expect(await row.innerText()).toMatch(new RegExp(`Realizado[\\s\\S]*Vacunación[\\s\\S]*${saved.responsible_name}`));
    await row.getByRole('link', { name: 'Ver atención' }).click();
    await waitForPath(page, `/encounters/${encounterId}`);
  });
});
