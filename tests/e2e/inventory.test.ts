import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPage, waitForPath } from './support/browser';
import { createStaffSession, DEMO_ADMIN } from './support/api';
import { submitStaffLogin, useProductInBrowser } from './support/product';

/** The demo's Prevenar 13 batch of Clínica Demo holds 3 units (seeds/demo-inventory.ts). */
const SERIAL = 'C1PRV24E01000000';

describe('Inventario: movimientos (/moves)', () => {
  const product = useProductInBrowser();

  async function signIn(path: string): Promise<Page> {
    const page = await openPage(product.browser(), product.server().baseUrl);
    await page.goto(path);
    await waitForPath(page, '/');
    await submitStaffLogin(page, DEMO_ADMIN);
    await waitForPath(page, path);
    return page;
  }

  async function quantity(): Promise<number> {
    const { token } = await createStaffSession(product.server().baseUrl);
    const res = await fetch(`${product.server().baseUrl}/api/v1/stocks?q=${SERIAL}`, { headers: { Authorization: `Bearer ${token}` } });
    const [stock] = (await res.json()) as Array<{ cuantity: number }>;
    return stock.cuantity;
  }

  it('refuses an exit that would leave the batch below zero, with a clear message, and keeps the quantity', async () => {
    expect(await quantity()).toBe(3);
    const page = await signIn('/moves');
    await page.getByRole('button', { name: 'Crear Movimiento' }).click();
    const dialog = page.getByRole('dialog', { name: 'Crear Movimiento' });
    await dialog.waitFor({ state: 'visible' });
    await dialog.getByText('Salida', { exact: true }).click();
    const batch = dialog.getByLabel('Lote');
    await batch.click({ force: true });
    await batch.fill(SERIAL.slice(0, 8));
    const choice = page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title^="${SERIAL}"]`);
    await choice.waitFor({ state: 'visible' });
    await choice.click({ force: true });
    await dialog.locator('.ant-select-selection-item', { hasText: SERIAL }).waitFor({ state: 'visible' });
    await dialog.getByLabel('Cantidad (unidades)').fill('5');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    const message = `No hay unidades suficientes en el lote ${SERIAL}: hay 3 disponible(s) y se pidieron 5. El stock no puede quedar en negativo.`;
    await page.getByText(message).first().waitFor({ state: 'visible' });
    expect(await quantity()).toBe(3);

    // An exit the batch can cover goes through and the table shows it.
    await dialog.getByLabel('Cantidad (unidades)').fill('2');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText('Movimiento registrado').first().waitFor({ state: 'visible' });
    expect(await quantity()).toBe(1);
  });

  it('opens the batch view from the inventory list', async () => {
    const page = await signIn('/inventory');
    await page
      .getByRole('row', { name: new RegExp(SERIAL) })
      .getByRole('link', { name: 'Ver lote' })
      .click();
    await page.waitForURL(/\/stocks\/\d+$/);
    await page.getByText('Ver Lote').first().waitFor({ state: 'visible' });
    await page.getByText(SERIAL).waitFor({ state: 'visible' });
  });
});
