import { describe, it, expect } from 'vitest';
import { createStaffSession, DEMO_ADMIN } from './support/api';
import { useProductInBrowser, openSignedIn } from './support/product';
import { selectTab } from './support/browser';

const DEMO_MEDICO = { email: 'medico@demo.vigia.co', password: 'Vigia@2026' } as const;

/** 'Auditoría' (issue 8): the patient tab and the page, for administrators only. */
describe('Auditoría', () => {
  const product = useProductInBrowser();

  async function editAsMedico(patientId: number, body: Record<string, unknown>) {
    const { token } = await createStaffSession(product.server().baseUrl, DEMO_MEDICO);
    const res = await fetch(`${product.server().baseUrl}/api/v1/patients/${patientId}`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
  }

  it("shows the patient's changes in the admin's 'Auditoría' tab, with the fields sent on expanding", async () => {
    await editAsMedico(2, { neighborhood: 'Teusaquillo' });
    const page = await openSignedIn(product, '/patients/2', DEMO_ADMIN);
    await selectTab(page, 'Auditoría');
    const row = page.locator('.audit-table .ant-table-row', { hasText: 'Actualizó el paciente: neighborhood' }).first();
    await row.waitFor({ state: 'visible' });
    expect(await row.innerText()).toContain('Modificación');
    await row.locator('.ant-table-row-expand-icon').click();
    await page.getByText('Cambios enviados').waitFor({ state: 'visible' });
    await page.locator('.audit-changes', { hasText: 'Teusaquillo' }).waitFor({ state: 'visible' });
  });

  it("lists the institution's trail on /audit and filters it by resource", async () => {
    const page = await openSignedIn(product, '/audit', DEMO_ADMIN);
    await page.getByRole('heading', { name: 'Auditoría' }).waitFor();
    await page.locator('.audit-table .ant-table-row').first().waitFor({ state: 'visible' });
    await page.getByLabel('Recurso').click();
    await page.keyboard.type('Paciente');
    await page.locator('.ant-select-item-option[title="Paciente"]').click();
    await page.locator('.audit-table .ant-table-row', { hasText: 'Actualizó el paciente' }).first().waitFor({ state: 'visible' });
    await expect.poll(async () => page.locator('.audit-table .ant-table-row', { hasText: 'Inició sesión' }).count()).toBe(0);
  });

  it('gives other roles no audit tab and no audit data', async () => {
    const page = await openSignedIn(product, '/patients/2', DEMO_MEDICO);
    await page.getByRole('tab', { name: 'Anotaciones' }).waitFor();
    expect(await page.getByRole('tab', { name: 'Auditoría' }).count()).toBe(0);
    await page.goto('/audit');
    await page.getByText('Solo un administrador puede consultar la auditoría.').waitFor({ state: 'visible' });
  });
});
