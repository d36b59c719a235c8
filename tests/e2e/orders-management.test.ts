import { describe, expect, it } from 'vitest';
import { openPage, pathOf, waitForPath } from './support/browser';
import { createStaffSession, DEMO_ADMIN } from './support/api';
import { submitStaffLogin, useProductInBrowser } from './support/product';
import { addDays, localParts } from '@vigia/contract/rules/activities';

/** 'Gestión de órdenes' (02 §2.6, D7) as a declarative resource with tabs, and the 'Actividades' worklist (P69). */
describe('Gestión de órdenes y Actividades', () => {
  const product = useProductInBrowser();

  it('switches the three tabs, keeps the tab in the URL, shows the type toggle only where it belongs and opens an order', async () => {
    const baseUrl = product.server().baseUrl;
    const session = await createStaffSession(baseUrl);
    const api = async (path: string) => {
      const res = await fetch(`${baseUrl}/api/v1${path}`, { headers: { Authorization: `Bearer ${session.token}` } });
      return { body: await res.json(), total: Number(res.headers.get('x-total-count')) };
    };
    const scheduled = await api('/orders?filter=1&_start=0&_end=1');
    expect(scheduled.total).toBeGreaterThan(0);

    const page = await openPage(product.browser(), baseUrl);
    await page.goto('/orders');
    await waitForPath(page, '/');
    await submitStaffLogin(page, DEMO_ADMIN);
    await page.getByRole('heading', { name: 'Gestión de órdenes' }).waitFor({ state: 'visible' });
    const tab = (name: string) => page.getByRole('tab', { name });
    await tab('No Gestionadas').waitFor({ state: 'visible' });
    expect(await tab('No Gestionadas').getAttribute('aria-selected')).toBe('true');
    const toggle = page.getByRole('radiogroup', { name: 'Tipo de orden' });
    expect(await toggle.count()).toBe(0);

    await tab('Programadas').click();
    await waitForPath(page, '/orders?tab=1');
    await toggle.waitFor({ state: 'visible' });
    await page.getByText(`de ${scheduled.total}`).waitFor({ state: 'visible' });
    // A reload keeps the tab.
    await page.reload();
    await tab('Programadas').waitFor({ state: 'visible' });
    expect(await tab('Programadas').getAttribute('aria-selected')).toBe('true');
    await page.getByText(`de ${scheduled.total}`).waitFor({ state: 'visible' });

    const meds = await api('/orders?filter=1&type=1&_start=0&_end=1');
    await toggle.locator('label', { hasText: 'Medicamentos' }).click();
    await page.getByText(meds.total ? `de ${meds.total}` : 'Sin resultados').waitFor({ state: 'visible' });

    await tab('Cerradas').click();
    await waitForPath(page, '/orders?tab=2');
    await tab('No Gestionadas').click();
    await waitForPath(page, '/orders?tab=0');
    await toggle.waitFor({ state: 'detached' });

    await tab('Programadas').click();
    await page.getByRole('link', { name: 'Gestionar' }).first().click();
    await page.waitForURL((url) => /^\/patients\/\d+\/orders\/\d+$/.test(url.pathname));
    await page.getByText('Descripción de la orden').first().waitFor({ state: 'visible' });
  });

  it("lists today's activities of the client and moves to the next day", async () => {
    const baseUrl = product.server().baseUrl;
    const session = await createStaffSession(baseUrl);
    const client = (await (
      await fetch(`${baseUrl}/api/v1/clients/${session.client_id}`, { headers: { Authorization: `Bearer ${session.token}` } })
    ).json()) as { time_zone: string };
    const today = localParts(new Date(), client.time_zone).date;
    const tomorrow = addDays(today, 1);
    const res = await fetch(`${baseUrl}/api/v1/activities?date=${tomorrow}&_start=0&_end=1`, {
      headers: { Authorization: `Bearer ${session.token}` },
    });
    const expected = Number(res.headers.get('x-total-count'));

    const page = await openPage(product.browser(), baseUrl);
    await page.goto('/activities');
    await waitForPath(page, '/');
    await submitStaffLogin(page, DEMO_ADMIN);
    await page.getByRole('heading', { name: 'Actividades' }).first().waitFor({ state: 'visible' });
    await page.getByText(/ · Hoy$/).waitFor({ state: 'visible' });
    await page.getByRole('button', { name: 'Día siguiente' }).click();
    await page.waitForURL((url) => url.searchParams.get('date') === tomorrow);
    await page.getByText(/ · Mañana$/).waitFor({ state: 'visible' });
    await page.getByText(expected ? `de ${expected}` : 'Sin resultados').waitFor({ state: 'visible' });
    if (expected) {
      const patient = page.locator('.ant-table-row a[href^="/patients/"]').first();
      await patient.waitFor({ state: 'visible' });
    }
    expect(pathOf(page)).toBe(`/activities?date=${tomorrow}`);
  });
});
