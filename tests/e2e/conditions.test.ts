import { describe, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPage, waitForPath } from './support/browser';
import { DEMO_ADMIN } from './support/api';
import { submitStaffLogin, useProductInBrowser } from './support/product';

/** Antecedentes (01 §2, §4): add a condition found by the search, then remove it. */
describe('Antecedentes tab', () => {
  const product = useProductInBrowser();

  async function openTab(path: string, tab: string): Promise<Page> {
    const page = await openPage(product.browser(), product.server().baseUrl);
    await page.goto(path);
    await waitForPath(page, '/');
    await submitStaffLogin(page, DEMO_ADMIN);
    await waitForPath(page, path);
    await page.getByRole('tab', { name: tab }).click();
    return page;
  }

  it('adds a condition from the search with notes, then removes it from the list', async () => {
    const page = await openTab('/patients/2', 'Antecedentes');
    await page.getByRole('heading', { name: 'Antecedentes Prioritarios' }).waitFor({ state: 'visible' });
    await page.getByRole('textbox', { name: 'Buscar antecedentes' }).fill('gota');
    await page.getByRole('button', { name: 'Gota: NO' }).click();
    const add = page.getByRole('dialog', { name: 'Agregar Gota' });
    await add.waitFor({ state: 'visible' });
    await add.getByLabel('Notas').fill('Crisis en rodilla derecha, 2025');
    await add.getByRole('button', { name: 'Guardar' }).click();
    await add.waitFor({ state: 'hidden' });
    const card = page.getByRole('button', { name: 'Gota: SI' });
    await card.waitFor({ state: 'visible' });
    await card.getByText('Crisis en rodilla derecha, 2025').waitFor({ state: 'visible' });

    await card.click();
    const edit = page.getByRole('dialog', { name: 'Editar Gota' });
    await edit.waitFor({ state: 'visible' });
    await edit.getByRole('button', { name: 'Eliminar Antecedente' }).click();
    await edit.waitFor({ state: 'hidden' });
    await card.waitFor({ state: 'detached' });
  });

  it('activates a priority condition in place: NO becomes SI', async () => {
    const page = await openTab('/patients/3', 'Antecedentes');
    const no = page.getByRole('button', { name: 'Demencia: NO' });
    await no.click();
    const dialog = page.getByRole('dialog', { name: 'Activar Demencia' });
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await page.getByRole('button', { name: 'Demencia: SI' }).waitFor({ state: 'visible' });
  });
});
