import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO_ADMIN } from './support/api';
import { useProductInBrowser, openSignedIn } from './support/product';
import { selectTab } from './support/browser';

/** AI instructions (01 §2, §4): creating a second one leaves the first inactive. */
describe('Instrucciones IA', () => {
  const product = useProductInBrowser();

  const row = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text });

  async function createInstruction(page: Page, dialogTitle: string, text: string) {
    await page.getByRole('button', { name: 'Crear instrucción' }).click();
    const dialog = page.getByRole('dialog', { name: dialogTitle });
    await dialog.waitFor({ state: 'visible' });
    const save = dialog.getByRole('button', { name: 'Guardar' });
    await dialog.getByLabel('Instrucción para IA').fill('ab');
    expect(await save.isDisabled()).toBe(true);
    await dialog.getByText('La instrucción debe tener más de 2 caracteres').waitFor({ state: 'visible' });
    await dialog.getByLabel('Instrucción para IA').fill(text);
    await save.click();
    await dialog.waitFor({ state: 'hidden' });
  }

  it('on the patient page: a second instruction becomes the active one and the first turns inactive', async () => {
    const page = await openSignedIn(product, '/patients/4');
    await selectTab(page, 'Instrucciones IA');
    await createInstruction(page, 'Nueva instrucción de paciente', 'Primera instrucción: pregunte por el sueño.');
    await row(page, 'Primera instrucción').getByText('Activo', { exact: true }).waitFor({ state: 'visible' });
    await createInstruction(page, 'Nueva instrucción de paciente', 'Segunda instrucción: pregunte por la dieta.');
    await row(page, 'Segunda instrucción').getByText('Activo', { exact: true }).waitFor({ state: 'visible' });
    await row(page, 'Primera instrucción').getByText('Inactivo', { exact: true }).waitFor({ state: 'visible' });
    expect(await row(page, 'Primera instrucción').getByRole('button', { name: 'Editar instrucción' }).isDisabled()).toBe(true);
  });

  it('global instructions (/client_prompts): read-only for a consulta user', async () => {
    const page = await openSignedIn(product, '/client_prompts', { email: 'consulta@demo.vigia.co', password: DEMO_ADMIN.password });
    const create = page.getByRole('button', { name: 'Crear instrucción' });
    await create.waitFor({ state: 'visible' });
    expect(await create.isDisabled()).toBe(true);
    await page.getByText('Eres Glady, asistente de seguimiento', { exact: false }).waitFor({ state: 'visible' });
  });
});
