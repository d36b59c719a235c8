import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { failReads, openPage, waitForPath } from './support/browser';
import { DEMO_ADMIN } from './support/api';
import { submitStaffLogin, useProductInBrowser } from './support/product';

/** Usuarios (03 §2): an administrator creates a user in the dialog, and that user can sign in. */
describe('Usuarios (/users)', () => {
  const product = useProductInBrowser();

  async function signIn(email: string, password: string, path = '/users'): Promise<Page> {
    const page = await openPage(product.browser(), product.server().baseUrl);
    await page.goto(path);
    await waitForPath(page, '/');
    await submitStaffLogin(page, { email, password });
    await waitForPath(page, path);
    return page;
  }

  async function pick(page: Page, label: string, search: string, option: string, title = 'Nuevo usuario') {
    const dialog = page.getByRole('dialog', { name: title });
    const input = dialog.getByLabel(label, { exact: true });
    await input.scrollIntoViewIfNeeded();
    // antd re-renders the select while its options load; the click itself needs no stable box.
    await input.click({ force: true });
    await input.fill(search);
    const choice = page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${option}"]`);
    await choice.waitFor({ state: 'visible' });
    await choice.click({ force: true });
    await dialog.locator('.ant-select-selection-item', { hasText: option }).waitFor({ state: 'visible' });
  }

  it('lets an administrator create a user who can then sign in', async () => {
    const page = await signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
    await page.getByRole('button', { name: 'Crear usuario' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nuevo usuario' });
    await dialog.waitFor({ state: 'visible' });
    await dialog.getByLabel('Nombres', { exact: true }).fill('Paula Andrea');
    await dialog.getByLabel('Apellidos', { exact: true }).fill('Restrepo Mejía');
    await dialog.getByLabel('Correo electrónico', { exact: true }).fill('paula.restrepo@demo.vigia.co');

    // The password rule of 03 §5 is checked before calling the server.
    await dialog.getByLabel('Contraseña', { exact: true }).fill('sinmayuscula1');
    await dialog.getByLabel('Confirmar contraseña').fill('otra');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await dialog.getByText('La contraseña debe contener al menos una letra mayúscula').waitFor({ state: 'visible' });
    await dialog.getByText('las contraseñas no coinciden').waitFor({ state: 'visible' });

    await dialog.getByLabel('Contraseña', { exact: true }).fill('Enfermera@2026');
    await dialog.getByLabel('Confirmar contraseña').fill('Enfermera@2026');
    await dialog.getByLabel('Teléfono (Whatsapp)').fill('3017654321');
    await pick(page, 'Ciudad', 'medell', 'Medellín');
    await pick(page, 'Rol', 'Enfer', 'Enfermería');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await page.getByRole('cell', { name: 'RESTREPO MEJÍA' }).waitFor({ state: 'visible' });
    await page.getByText('Usuario creado').first().waitFor({ state: 'visible' });

    const newcomer = await signIn('paula.restrepo@demo.vigia.co', 'Enfermera@2026', '/dashboard');
    await newcomer.getByText('Hola, Paula Andrea').waitFor({ state: 'visible' });
  });

  it("tells a user that does not exist from one that could not be read on 'Cerrar todas las sesiones'", async () => {
    const page = await signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
    await page.goto('/users/999999/sessions');
    await page.getByRole('main').getByText('El usuario no existe.').waitFor();
    expect(await page.locator('.ant-notification-notice', { hasText: 'El usuario no existe.' }).count()).toBe(0);
    // A server in trouble is not a missing user: its own message, and 'Reintentar' reads again.
    const me = /\/api\/v1\/users\/\d+$/;
    await failReads(page, me);
    // The signed-in administrator: the token's subject.
    const { token } = JSON.parse((await page.evaluate<string | null>("localStorage.getItem('vigia.session')"))!) as { token: string };
    const id = (JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as { sub: string }).sub;
    await page.goto(`/users/${id}/sessions`);
    await page.getByRole('main').getByText('No fue posible cargar el usuario.').waitFor();
    expect(await page.getByText('El usuario no existe.').count()).toBe(0);
    await page.unroute(me);
    await page.getByRole('button', { name: 'Reintentar' }).click();
    await page.getByRole('button', { name: 'Cerrar todas las sesiones' }).waitFor();
  });

  it('shows the create button disabled to a non-administrator', async () => {
    const page = await signIn('enfermeria@demo.vigia.co', DEMO_ADMIN.password);
    const create = page.getByRole('button', { name: 'Crear usuario' });
    await create.waitFor({ state: 'visible' });
    expect(await create.isDisabled()).toBe(true);
  });

  it('logs an administrator out 10 seconds after they change their own city, saying why', async () => {
    const page = await signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
    await page
      .getByRole('row', { name: /MEJÍA TORRES/ })
      .getByRole('button', { name: 'Editar' })
      .click({ force: true });
    const dialog = page.getByRole('dialog', { name: 'Editar usuario' });
    // The record and its city's options have loaded once the current city shows.
    await dialog.getByText('Bogotá, D.C.').waitFor({ state: 'visible' });
    await page.waitForLoadState('networkidle');
    await pick(page, 'Ciudad', 'cali', 'Cali', 'Editar usuario');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText('Para actualizar su zona horaria, la sesión se cerrará en 10 segundos.').first().waitFor({ state: 'visible' });
    const saved = Date.now();
    await waitForPath(page, '/', 25_000);
    expect(Date.now() - saved).toBeGreaterThanOrEqual(8_000);
  });
});
