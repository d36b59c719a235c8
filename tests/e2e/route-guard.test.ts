import { describe, expect, it } from 'vitest';
import { openPage, pathOf, waitForPath } from './support/browser';
import { EMAIL_LABEL } from './support/labels';
import { DEMO_ADMIN } from './support/api';
import { openSignedIn, submitStaffLogin, useProductInBrowser } from './support/product';

describe('route guard', () => {
  const product = useProductInBrowser();

  it('sends a visitor without a session from /tags?x=1 to the login page', async () => {
    const page = await openPage(product.browser(), product.server().baseUrl);

    await page.goto('/tags?x=1');

    await waitForPath(page, '/');
    await page.getByLabel(EMAIL_LABEL).waitFor({ state: 'visible' });
  });

  it('brings the user to /tags?x=1 after logging in', async () => {
    const page = await openPage(product.browser(), product.server().baseUrl);
    await page.goto('/tags?x=1');
    await waitForPath(page, '/');

    await submitStaffLogin(page, DEMO_ADMIN);

    await waitForPath(page, '/tags?x=1');
    await page.getByLabel(EMAIL_LABEL).waitFor({ state: 'detached' });
    expect(pathOf(page)).toBe('/tags?x=1');
  });

  // Issue 41: 'Notificaciones' was in every role's menu and answered 403 to all but administrators. Issue 37 adds
  // 'Clientes de API' and 'Exportaciones FHIR', whose API answers administrators only too.
  it.each([
    ['enfermeria@demo.vigia.co', false],
    ['medico@demo.vigia.co', false],
    ['admin@demo.vigia.co', true],
  ] as const)('shows %s the administrators-only screens in the menu: %s', async (email, shown) => {
    const page = await openSignedIn(product, '/dashboard', { email, password: DEMO_ADMIN.password });
    const menu = page.locator('.vigia-sider-content .ant-menu');
    const entry = (label: string) => menu.locator('.ant-menu-title-content').getByText(label, { exact: true });
    // The sidebar scrolls: entries below its fold are in the menu, not on screen.
    await entry('Reportes').waitFor({ state: 'attached' });
    await entry('Pacientes').waitFor({ state: 'attached' });
    for (const label of ['Clientes de API', 'Exportaciones FHIR', 'Notificaciones', 'Números desconocidos', 'Auditoría']) {
      expect(await entry(label).count(), label).toBe(shown ? 1 : 0);
    }
  });

  // Issue 40: the 'Opinión' dialog is a screen of its own (pages/feedbacks) that the shell is handed.
  it("opens the 'Opinión' dialog from the menu", async () => {
    const page = await openSignedIn(product, '/dashboard', { email: 'consulta@demo.vigia.co', password: DEMO_ADMIN.password });
    await page.locator('.vigia-sider-content .ant-menu-title-content').getByText('Opinión', { exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Su opinión nos ayuda a mejorar' });
    await dialog.waitFor({ state: 'visible' });
    await dialog.getByRole('button', { name: 'Enviar' }).waitFor();
  });
});
