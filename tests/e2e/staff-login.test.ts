import { describe, expect, it } from 'vitest';
import { openPage, pathOf, waitForPath } from './support/browser';
import { DEMO_ADMIN, createStaffSession, rejectedLoginMessage } from './support/api';
import { submitStaffLogin, useProductInBrowser } from './support/product';

describe('staff login (/)', () => {
  const product = useProductInBrowser();

  it('takes the administrator to the dashboard, which shows their name', async () => {
    const { first_name } = await createStaffSession(product.server().baseUrl);
    const page = await openPage(product.browser(), product.server().baseUrl);

    await page.goto('/');
    await submitStaffLogin(page, DEMO_ADMIN);

    await waitForPath(page, '/dashboard');
    await page.getByText(first_name).first().waitFor({ state: 'visible' });
  });

  it("refuses a wrong password with the server's message and stays on the login page", async () => {
    const wrong = { email: DEMO_ADMIN.email, password: 'Incorrecta@2026' };
    const message = await rejectedLoginMessage(product.server().baseUrl, wrong);
    const page = await openPage(product.browser(), product.server().baseUrl);

    await page.goto('/');
    await submitStaffLogin(page, wrong);

    await page.getByText(message).first().waitFor({ state: 'visible' });
    expect(pathOf(page)).toBe('/');
  });
});
