import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPage, pathOf, waitForPath } from './support/browser';
import { useProductInBrowser } from './support/product';
import { DEMO_PATIENT, createStaffSession, findPatientByNid, listSmsOutbox, readLatestCode } from './support/api';

describe('patient login (/login_patient) and portal', () => {
  const product = useProductInBrowser();
  let adminToken: string;

  beforeAll(async () => {
    adminToken = (await createStaffSession(product.server().baseUrl)).token;
  });

  /** Step 1: the document number; returns the code the SMS carried. */
  async function requestCode(page: Page): Promise<string> {
    const [previous] = await listSmsOutbox(product.server().baseUrl, adminToken, DEMO_PATIENT.cellphone);
    await page.goto('/login_patient');
    await page.getByText('Por favor ingrese el número de documento del paciente').waitFor({ state: 'visible' });
    await page.getByLabel('Número de documento').fill(DEMO_PATIENT.nid);
    await page.getByRole('button', { name: 'Continuar' }).click();
    await page.getByLabel('Código de confirmación').waitFor({ state: 'visible' });
    const { code } = await readLatestCode(product.server().baseUrl, adminToken, DEMO_PATIENT.cellphone, previous?.id);
    return code;
  }

  it('refuses a wrong code', async () => {
    const page = await openPage(product.browser(), product.server().baseUrl);
    const code = await requestCode(page);
    const wrong = code.slice(0, -1) + String((Number(code.at(-1)) + 1) % 10);

    await page.getByLabel('Código de confirmación').fill(wrong);
    await page.getByRole('button', { name: 'Iniciar sesión' }).click();

    await page.getByText('Número de documento o código erróneos').waitFor({ state: 'visible' });
    expect(pathOf(page)).toBe('/login_patient');
  });

  it('lets the patient in with the code sent by SMS, shows their data, and lets them out', async () => {
    const patient = await findPatientByNid(product.server().baseUrl, adminToken, DEMO_PATIENT.nid);
    const page = await openPage(product.browser(), product.server().baseUrl);
    const code = await requestCode(page);

    await page.getByLabel('Código de confirmación').fill(code);
    await page.getByRole('button', { name: 'Iniciar sesión' }).click();

    await waitForPath(page, '/portal_patient');
    await page.getByText('PORTAL DE PACIENTE').waitFor({ state: 'visible' });
    await page.getByText(patient.full_name).first().waitFor({ state: 'visible' });

    await page.getByRole('button', { name: 'Cerrar sesión' }).click();
    await waitForPath(page, '/login_patient');
    await page.goto('/portal_patient');
    await waitForPath(page, '/login_patient');
    await page.getByText('Por favor ingrese el número de documento del paciente').waitFor({ state: 'visible' });
  });

  it('shows adherence and opens the glucose chart with its latest readings', async () => {
    const page = await openPage(product.browser(), product.server().baseUrl);
    const code = await requestCode(page);
    await page.getByLabel('Código de confirmación').fill(code);
    await page.getByRole('button', { name: 'Iniciar sesión' }).click();
    await waitForPath(page, '/portal_patient');

    await page.getByText('Su cumplimiento').waitFor({ state: 'visible' });
    // Charts load only when opened: nothing is drawn before the click.
    expect(await page.locator('canvas').count()).toBe(0);
    await page.getByRole('button', { name: /Glucosa/ }).click();
    await page.getByRole('img', { name: 'Gráfica de Glucosa' }).locator('canvas').first().waitFor({ state: 'visible' });
    const readings = page.locator('table.readings').filter({ hasText: 'Últimas lecturas' });
    await readings.waitFor({ state: 'visible' });
    const rows = await readings.locator('tbody tr').count();
    expect(rows).toBeGreaterThan(0);
    expect(rows).toBeLessThanOrEqual(10);
    await expect(readings.locator('tbody tr').first().textContent()).resolves.toMatch(/mg\/dL/);
    await page.getByText('Prioridad Alta').first().waitFor({ state: 'visible' });
    await page.getByRole('button', { name: 'Descargar PDF' }).waitFor({ state: 'visible' });
  });

  it('sends a patient whose session is no longer valid back to the login', async () => {
    const page = await openPage(product.browser(), product.server().baseUrl);
    const staleSession = JSON.stringify({ token: 'revocado', patient_id: 1 });
    await page.addInitScript({ content: `localStorage.setItem('vigia.patient', ${JSON.stringify(staleSession)});` });

    await page.goto('/portal_patient');

    await waitForPath(page, '/login_patient');
    await page.getByText('Por favor ingrese el número de documento del paciente').waitFor({ state: 'visible' });
  });
});
