import { describe, expect, it } from 'vitest';
import { openPage, pathOf, waitForPath } from './support/browser';
import { EMAIL_LABEL } from './support/labels';
import { DEMO_ADMIN } from './support/api';
import { submitStaffLogin, useProductInBrowser } from './support/product';

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
});
