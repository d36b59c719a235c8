import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startServer, type RunningServer } from './support/server';
import { launchBrowser, openPage, waitForPath } from './support/browser';
import { EMAIL_LABEL, PASSWORD_LABEL } from './support/labels';
import { DEMO_ADMIN } from './support/api';

/** The generic CRUD screens, through their first declared resource (02 §2.11). */
describe('Etiquetas (/tags)', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  }, 30_000);

  async function signIn(email: string, password: string): Promise<Page> {
    const page = await openPage(browser, server.baseUrl);
    await page.goto('/tags');
    await waitForPath(page, '/');
    await page.getByLabel(EMAIL_LABEL).fill(email);
    await page.getByLabel(PASSWORD_LABEL).fill(password);
    await page.getByRole('button', { name: 'Iniciar sesión' }).click();
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
