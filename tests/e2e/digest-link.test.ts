import { describe, expect, it } from 'vitest';
import { createStaffSession, apiCall } from './support/api';
import { SCREENSHOT_DIR } from './support/browser';
import { openSignedIn, useProductInBrowser } from './support/product';
import { alertsManagerLink } from '../../api/src/modules/notifications/notifications.rules';
import { expectAccessible } from './support/accessibility';

/**
 * Issue 41: a notification digest links the alerts manager filtered to exactly its alerts
 * (`/alerts_management?id=…`, built by the digest's own alertsManagerLink; tests/api/notifications
 * shows the digest carries it). Opening it shows those alerts, open and closed, with a banner
 * that says so and a button back to every alert.
 */
describe('Enlace de un resumen de notificaciones', () => {
  const product = useProductInBrowser();

  const api = <T>(token: string, method: string, path: string, body?: unknown) =>
    apiCall<T>(product.server().baseUrl, token, method, path, body);

  it("shows just the digest's alerts, open and closed, with 'Mostrando las 3 alertas del resumen' and a way back, at 1440 and 390 px", async () => {
    const { token } = await createStaffSession(product.server().baseUrl);
    const rule = await api<{ id: number }>(token, 'POST', '/alarms?owner=client', {
      name: 'Taquicardia del resumen',
      clinical_element: 1,
      priority: 1,
      minimum_condition: 50,
      maximum_condition: 110,
    });
    // Four patients, one alert of this rule each; the link names the first three.
    const names = ['Uno', 'Dos', 'Tres', 'Fuera'];
    const alerts: Array<{ patient: number; alert: number }> = [];
    for (const [i, name] of names.entries()) {
      const patient = await api<{ id: number }>(token, 'POST', '/patients', {
        id_type: 1,
        nid: `77441100${i}`,
        first_name: 'Resumen',
        last_name: `Paciente ${name}`,
        country_id: 26,
        city_id: 2611001,
        birth_date: '1950-02-03',
        gender: 0,
        address: 'Calle 1 # 2-3',
        neighborhood: 'Centro',
        prefix: '+57',
        cellphone: `300777110${i}`,
        email: `resumen${i}@example.co`,
      });
      await api(token, 'PUT', `/patients/${patient.id}`, { alarm_ids: [rule.id] });
      await api(token, 'POST', `/patients/${patient.id}/measurements`, { clinical_element: 1, value: 150 + i });
      const [alert] = (
        await api<Array<{ id: number; alarm: { id: number } | null }>>(token, 'GET', `/patients/${patient.id}/alerts?status=1`)
      ).filter((a) => a.alarm?.id === rule.id);
      alerts.push({ patient: patient.id, alert: alert.id });
    }
    // The third was handled meanwhile: the digest still links it, now under 'Cerradas'.
    await api(token, 'PUT', `/patients/${alerts[2].patient}/alerts/${alerts[2].alert}`, {
      status: 2,
      close_type: 'true_alert',
      description: 'Se llamó al paciente, ya en urgencias.',
    });

    const link = alertsManagerLink(
      'https://vigia.example.co',
      alerts.slice(0, 3).map((a) => a.alert),
    );
    const url = new URL(link);
    expect(url.pathname).toBe('/alerts_management');
    const page = await openSignedIn(product, `${url.pathname}${url.search}`);
    await page.setViewportSize({ width: 1440, height: 900 });

    const banner = page.getByRole('status').filter({ hasText: 'Mostrando las 3 alertas del resumen' });
    await banner.getByText('2 abiertas y 1 cerrada.').waitFor();
    const cards = page.locator('.alert-grid').getByRole('link');
    await expect.poll(() => cards.count()).toBe(2);
    const cardText = (await cards.allInnerTexts()).join('\n');
    expect(cardText).toContain('RESUMEN PACIENTE UNO');
    expect(cardText).toContain('RESUMEN PACIENTE DOS');
    expect(cardText).not.toContain('FUERA');
    expect(await page.getByRole('tab', { name: 'Abiertas (2)' }).count()).toBe(1);
    await expectAccessible(page);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/digest-link-1440.png`, fullPage: true });

    await page.getByRole('tab', { name: 'Cerradas (1)' }).click();
    const rows = page.locator('.ant-tabs-tabpane-active tbody tr.ant-table-row');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().innerText()).toContain('RESUMEN PACIENTE TRES');

    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('tab', { name: 'Abiertas (2)' }).click();
    await expect.poll(() => cards.count()).toBe(2);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    const box = (await banner.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/digest-link-390.png`, fullPage: true });

    // Back to every alert: the banner goes, the address loses its ids, the fourth patient's alert is there.
    await banner.getByRole('button', { name: 'Ver todas las alertas' }).click();
    await page.waitForURL((u) => u.pathname === '/alerts_management' && u.search === '');
    await expect.poll(() => page.getByText(/^Mostrando .* del resumen$/).count()).toBe(0);
    await page.getByPlaceholder('Buscar por nombre o documento del paciente').fill('774411003');
    await page.getByPlaceholder('Buscar por nombre o documento del paciente').press('Enter');
    await page
      .getByRole('link', { name: /RESUMEN PACIENTE FUERA/ })
      .first()
      .waitFor();
  });
});
