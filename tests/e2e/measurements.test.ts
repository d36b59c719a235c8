import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPage, waitForPath } from './support/browser';
import { createStaffSession, DEMO_ADMIN } from './support/api';
import { submitStaffLogin, useProductInBrowser } from './support/product';

/** Tab 'Signos' and tab 'Reportes' of the patient page (01 §2, §4, §5). */
describe('Signos y Reportes del paciente', () => {
  const product = useProductInBrowser();

  /** A fresh active patient of the demo client, so the charts start empty. */
  async function newPatient(nid: string): Promise<number> {
    const { token } = await createStaffSession(product.server().baseUrl);
    const res = await fetch(`${product.server().baseUrl}/api/v1/patients`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({
        id_type: 1,
        nid,
        first_name: 'Lucía',
        last_name: 'Mejía Rojas',
        country_id: 26,
        city_id: 2611001,
        birth_date: '1948-03-02',
        gender: 0,
        address: 'Calle 10 # 5-20',
        neighborhood: 'Centro',
        prefix: '+57',
        cellphone: '3157654321',
        email: 'lucia@example.co',
      }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: number }).id;
  }

  async function openTab(patientId: number, tab: string, email = 'enfermeria@demo.vigia.co'): Promise<Page> {
    const page = await openPage(product.browser(), product.server().baseUrl);
    await page.goto(`/patients/${patientId}?tab=${tab}`);
    await waitForPath(page, '/');
    await submitStaffLogin(page, { email, password: DEMO_ADMIN.password });
    await waitForPath(page, `/patients/${patientId}?tab=${tab}`);
    return page;
  }

  it('records a temperature and shows it on the chart and in the latest readings', async () => {
    const id = await newPatient('52998877');
    const page = await openTab(id, 'signs');
    const card = page.locator('.vital-card', { hasText: 'Temperatura (°C)' });
    await card.getByText('No existen datos que mostrar').waitFor();

    await page.getByRole('button', { name: 'Registrar medición' }).click();
    const dialog = page.getByRole('dialog', { name: 'Registrar medición' });
    await dialog.locator('label.ant-radio-button-wrapper', { hasText: 'Temperatura' }).click();
    expect(await dialog.getByRole('radio', { name: 'Temperatura' }).isChecked()).toBe(true);
    await dialog.getByLabel('Valor (°C)').fill('46');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await dialog.getByText('El valor debe estar entre 30 y 45 °C').waitFor();
    await dialog.getByLabel('Valor (°C)').fill('38.5');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText('Medición registrada correctamente').waitFor();

    await card.getByText('38.5 °C').waitFor();
    const chart = card.getByTestId('chart-temperature');
    await chart.locator('canvas').first().waitFor();
    expect(await chart.getAttribute('data-points')).toBe('1');
  });

  it('deletes a reading only with a reason of at least 15 characters', async () => {
    const id = await newPatient('52998878');
    const { token } = await createStaffSession(product.server().baseUrl);
    const res = await fetch(`${product.server().baseUrl}/api/v1/patients/${id}/measurements`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({ clinical_element: 1, value: 88 }),
    });
    expect(res.status).toBe(201);
    const page = await openTab(id, 'signs');
    const card = page.locator('.vital-card', { hasText: 'Frecuencia Cardiaca (lpm)' });
    await card.getByText('88 lpm').waitFor();
    // Behind the reading's own menu (issue 50), no bin beside each reading.
    expect(await card.getByRole('button', { name: /Eliminar/ }).count()).toBe(0);
    await card.getByRole('button', { name: /^Más acciones: 88 lpm del / }).click();
    await page.getByRole('menuitem', { name: /Eliminar medición/ }).click();

    const dialog = page.getByRole('dialog', { name: 'Eliminar medición' });
    const reason = dialog.getByLabel('Motivo de la eliminación');
    const remove = dialog.getByRole('button', { name: 'Eliminar' });
    await reason.fill('Error de toma.');
    expect('Error de toma.').toHaveLength(14);
    await dialog.getByText('Debe tener mínimo 15 caracteres y máximo 140').waitFor();
    expect(await remove.isDisabled()).toBe(true);
    await reason.fill('Error de toma.x');
    expect(await remove.isDisabled()).toBe(false);
    await remove.click();
    await page.getByText('Medición eliminada').waitFor();
    await card.getByText('No existen datos que mostrar').waitFor();
  });

  it('downloads the PDF report of the period in a new tab', async () => {
    const id = await newPatient('52998879');
    const page = await openTab(id, 'reports', 'consulta@demo.vigia.co');
    const [tab] = await Promise.all([page.context().waitForEvent('page'), page.getByRole('button', { name: 'Descargar PDF' }).click()]);
    await tab.waitForURL(/\/api\/v1\/downloads\//, { waitUntil: 'commit' });
    const file = await page.request.get(tab.url());
    expect(file.status()).toBe(200);
    expect(file.headers()['content-type']).toBe('application/pdf');
    expect((await file.body()).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });
});
