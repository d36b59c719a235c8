import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPage, waitForPath } from './support/browser';
import { DEMO_ADMIN } from './support/api';
import { submitStaffLogin, useProductInBrowser } from './support/product';

/** The generic CRUD screens, through their first declared resource (02 §2.11). */
describe('Etiquetas (/tags)', () => {
  const product = useProductInBrowser();

  async function signIn(email: string, password: string): Promise<Page> {
    const page = await openPage(product.browser(), product.server().baseUrl);
    await page.goto('/tags');
    await waitForPath(page, '/');
    await submitStaffLogin(page, { email, password });
    await waitForPath(page, '/tags');
    return page;
  }

  it('lets an administrator create a tag in the dialog and shows it in the table', async () => {
    const page = await signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
    await page.getByRole('button', { name: 'Crear etiqueta' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nueva etiqueta' });
    await dialog.waitFor({ state: 'visible' });
    await dialog.getByLabel('Nombre').fill('cuidados paliativos');
    await dialog.getByRole('radio', { name: 'Morado' }).click();
    await dialog.getByRole('button', { name: /Guardar|Crear/ }).click();
    await page.getByRole('cell', { name: 'CUIDADOS PALIATIVOS' }).waitFor({ state: 'visible' });
  });

  it('refuses a name that is too short with the contract message, before calling the server', async () => {
    const page = await signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
    await page.getByRole('button', { name: 'Crear etiqueta' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nueva etiqueta' });
    await dialog.getByLabel('Nombre').fill('ab');
    await dialog.getByRole('button', { name: /Guardar|Crear/ }).click();
    await dialog.getByText('Debe tener mínimo 3 caracteres y máximo 50').waitFor({ state: 'visible' });
  });

  it('shows the create button disabled to a read-only user', async () => {
    const page = await signIn('consulta@demo.vigia.co', DEMO_ADMIN.password);
    const create = page.getByRole('button', { name: 'Crear etiqueta' });
    await create.waitFor({ state: 'visible' });
    expect(await create.isDisabled()).toBe(true);
  });
});
