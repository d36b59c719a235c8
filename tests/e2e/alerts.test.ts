import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPage, waitForPath } from './support/browser';
import { createStaffSession, DEMO_ADMIN, apiCall } from './support/api';
import { submitStaffLogin, useProductInBrowser } from './support/product';

/** Alarm rule → reading → alert in the manager without reloading → Evolución → closed as false (02 §2.7–2.9). */
describe('Alertas', () => {
  const product = useProductInBrowser();

  const api = <T>(token: string, method: string, path: string, body?: unknown) =>
    apiCall<T>(product.server().baseUrl, token, method, path, body);

  async function signIn(path: string): Promise<Page> {
    const page = await openPage(product.browser(), product.server().baseUrl);
    await page.goto(path);
    await waitForPath(page, '/');
    await submitStaffLogin(page, DEMO_ADMIN);
    await page.waitForURL((url) => url.pathname + url.search === path);
    return page;
  }

  it('assigns a rule, raises an alert from a reading, shows it live in the manager, and closes it as a false alert', async () => {
    const { token } = await createStaffSession(product.server().baseUrl);
    const rule = await api<{ id: number }>(token, 'POST', '/alarms?owner=client', {
      name: 'Bradicardia de prueba',
      clinical_element: 1,
      priority: 1,
      minimum_condition: 55,
      maximum_condition: 105,
    });
    const patient = await api<{ id: number }>(token, 'POST', '/patients', {
      id_type: 1,
      nid: '4455667788',
      first_name: 'Eulalia',
      last_name: 'Prueba Alertas',
      country_id: 26,
      city_id: 2611001,
      birth_date: '1948-02-03',
      gender: 0,
      address: 'Calle 1 # 2-3',
      neighborhood: 'Centro',
      prefix: '+57',
      cellphone: '3009998877',
      email: 'eulalia@example.co',
    });

    // Assignment in the patient's 'Alertas' tab: Guardar stays disabled until a rule is added.
    const page = await signIn(`/patients/${patient.id}?tab=alerts`);
    await page.getByRole('button', { name: 'Asignar alertas' }).click();
    const dialog = page.getByRole('dialog', { name: 'Asignar alertas' });
    const save = dialog.getByRole('button', { name: 'Guardar' });
    expect(await save.isDisabled()).toBe(true);
    await dialog.getByRole('combobox', { name: 'Alertas configuradas' }).fill('Bradicardia');
    await page.locator('.ant-select-item-option', { hasText: 'Bradicardia de prueba' }).click();
    await dialog.getByText('Bradicardia de prueba').waitFor();
    await save.click();
    await page.getByText('valores entre: 55 y 105 lpm').waitFor();
    const assigned = await api<Array<{ id: number }>>(token, 'GET', `/patients/${patient.id}/alarms`);
    expect(assigned.map((a) => a.id)).toEqual(expect.arrayContaining([rule.id]));

    // The manager is open before the reading arrives; the new alert appears without a reload.
    await page.goto('/alerts_management');
    await page.getByRole('tab', { name: /Abiertas/ }).waitFor();
    await page.waitForTimeout(1500);
    await page.evaluate(() => ((globalThis as unknown as { __noReload: boolean }).__noReload = true));
    await api(token, 'POST', `/patients/${patient.id}/measurements`, { clinical_element: 1, value: 38 });
    // The demo's rules for new patients raise their own alert too: pick the one of this rule.
    const card = page.getByRole('link', { name: /EULALIA PRUEBA ALERTAS/ }).filter({ hasText: 'Bradicardia de prueba' });
    await card.waitFor({ timeout: 20_000 });
    expect(await page.evaluate(() => (globalThis as unknown as { __noReload?: boolean }).__noReload)).toBe(true);

    // Detail: an 'Evolución' entry, then close as 'Alerta falsa'.
    await card.click();
    await page.waitForURL(/\/patients\/\d+\/alerts\/\d+/);
    await page.getByText('38 lpm').first().waitFor();
    const entry = page.getByLabel('Nueva entrada');
    await entry.fill('corto');
    expect(await page.getByRole('button', { name: 'Evolución' }).isDisabled()).toBe(true);
    await entry.fill('Se llama a la paciente, refiere mareo leve.');
    await page.getByRole('button', { name: 'Evolución' }).click();
    await page.getByText('Se llama a la paciente, refiere mareo leve.').waitFor();
    // The saved entry empties the box; typing before that would be wiped.
    await expect.poll(() => entry.inputValue()).toBe('');
    await entry.fill('Reloj mal colocado, se repite la medición: 72 lpm.');
    await page.getByRole('button', { name: 'Cerrar Alerta' }).click();
    const close = page.getByRole('dialog', { name: 'Cerrar alerta' });
    await close.getByText('Alerta falsa').click();
    await close.getByRole('button', { name: 'Guardar y Finalizar' }).click();
    await page.waitForURL((url) => url.pathname === '/alerts_management');

    // Closed table with its history.
    await page.getByRole('tab', { name: 'Cerradas' }).click();
    await page.getByPlaceholder('Buscar por nombre o documento del paciente').fill('Eulalia');
    await page.getByPlaceholder('Buscar por nombre o documento del paciente').press('Enter');
    const row = page.getByRole('row', { name: /EULALIA PRUEBA ALERTAS/ }).filter({ hasText: 'Bradicardia de prueba' });
    await row.waitFor();
    await row.getByText('Alerta falsa').waitFor();
    await row.getByRole('button', { name: 'Ver historial' }).click();
    const history = page.getByRole('dialog', { name: 'Historial de la Alerta' });
    await history.getByText('Se llama a la paciente, refiere mareo leve.').waitFor();
    await history.getByText('Reloj mal colocado, se repite la medición: 72 lpm.').waitFor();
    await history.getByText(/Alerta cerrada por/).waitFor();
  });
});
