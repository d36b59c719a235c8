import { mkdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { selectTab } from './support/browser';
import type { Page } from 'playwright-core';
import { createStaffSession, DEMO_PATIENT, findPatientByNid } from './support/api';
import { openSignedIn, useProductInBrowser } from './support/product';

/**
 * Issue 19: what the screens say and show. The dashboard says what each figure counts; the
 * activities calendar has its legend's colours without the Órdenes tab, whole event names and the
 * week's dates; the admin tables at 1440 px show every column beside 'Acciones'; a bulk
 * medication says its doses and asks before many; the chat says when no assistant answers and
 * shows a staff message's author at once; 'Descargar CSV' opens no tab; the Antecedentes search
 * shows no 'none' line under its results.
 */
const SHOTS = '/tmp/controls-shots';
/** The browser's getComputedStyle (the tests' TypeScript has no DOM library). */
type StyleOf = (el: unknown, pseudo?: string) => { display: string; backgroundColor: string };
const WIDE = { viewport: { width: 1440, height: 900 } };

describe('Pantallas: lo que dicen y muestran', () => {
  const product = useProductInBrowser();

  async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
    const { token } = await createStaffSession(product.server().baseUrl);
    const res = await fetch(`${product.server().baseUrl}/api/v1${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
    return JSON.parse(text) as T;
  }
  async function demoPatientId(): Promise<number> {
    const { token } = await createStaffSession(product.server().baseUrl);
    return (await findPatientByNid(product.server().baseUrl, token, DEMO_PATIENT.nid)).id;
  }
  let fresh: number | null = null;
  /** A patient with no conditions and no messages, made once for the file. */
  async function freshPatient(): Promise<number> {
    fresh ??= (
      await api<{ id: number }>('POST', '/patients', {
        id_type: 1,
        nid: '5566778899',
        first_name: 'Rosalba',
        last_name: 'Prueba Pantallas',
        country_id: 26,
        city_id: 2611001,
        birth_date: '1950-05-06',
        gender: 0,
        address: 'Calle 9 # 8-7',
        neighborhood: 'Centro',
        prefix: '+57',
        cellphone: '3004445566',
        email: 'rosalba@example.co',
      })
    ).id;
    return fresh;
  }
  const shot = async (page: Page, name: string) => {
    await mkdir(SHOTS, { recursive: true });
    await page.screenshot({ path: `${SHOTS}/${name}.png` });
  };

  it('says what the dashboard figures count', async () => {
    const page = await openSignedIn(product, '/dashboard');
    await page.getByText(/^\d+ alertas generadas en los últimos 30 días, abiertas o ya cerradas\.$/).waitFor();
    await page.getByText('Sin cerrar hoy, de cualquier fecha.').waitFor();
    await page.getByText('Hoy', { exact: true }).click();
    await page.getByText(/generadas? hoy, abiertas o ya cerradas\.$/).waitFor();
    await shot(page, 'dashboard');
  });

  it('loads the legend colours with the Actividades tab, shows whole event names and the week as dates', async () => {
    const id = await demoPatientId();
    // Straight to the tab: the Órdenes tab (which used to bring the styles) is never opened.
    const page = await openSignedIn(product, `/patients/${id}?tab=activities`);
    const legend = page.getByLabel('Estados de las actividades');
    await legend.waitFor();
    expect(await legend.evaluate((el) => (globalThis as unknown as { getComputedStyle: StyleOf }).getComputedStyle(el).display)).toBe(
      'flex',
    );
    const swatch = await legend
      .locator('span')
      .first()
      .evaluate((el) => (globalThis as unknown as { getComputedStyle: StyleOf }).getComputedStyle(el, '::before').backgroundColor);
    expect(swatch).not.toBe('rgba(0, 0, 0, 0)');

    await page.getByRole('button', { name: 'Semana' }).click();
    await expect
      .poll(() => page.locator('.fc-toolbar-title').textContent(), { timeout: 10_000 })
      .toMatch(/^\d{2}\/\d{2}\/\d{4} – \d{2}\/\d{2}\/\d{4}$/);
    await page.getByRole('button', { name: 'Mes' }).click();
    await page.locator('.fc-event').first().waitFor();
    const title = await page.locator('.fc-event').first().getAttribute('title');
    expect(title).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}.* · .+ · .+$/);
    await shot(page, 'activities-tab');
  });

  it.each([
    ['/orders', 'Notificar', 'orders-1440'],
    ['/inventory', 'Cantidad (unidades)', 'inventory-1440'],
    ['/moves', 'Notas', 'moves-1440'],
  ])("shows every column of %s beside 'Acciones' at 1440 px", async (path, column, name) => {
    const page = await openSignedIn(product, path);
    await page.setViewportSize(WIDE.viewport);
    const header = page.getByRole('columnheader', { name: column, exact: true });
    const actions = page.getByRole('columnheader', { name: 'Acciones' });
    await actions.waitFor();
    await page.locator('.ant-table-row').first().waitFor();
    const [h, a] = [await header.boundingBox(), await actions.boundingBox()];
    expect(h && a).toBeTruthy();
    expect(h!.x + h!.width).toBeLessThanOrEqual(a!.x + 0.5);
    // Nothing past the page's right edge either.
    expect(a!.x + a!.width).toBeLessThanOrEqual(1440);
    await shot(page, name);
  });

  it('says the doses of a bulk medication and asks before creating many', async () => {
    const id = await demoPatientId();
    const page = await openSignedIn(product, `/patients/${id}?tab=orders`);
    await page.getByRole('button', { name: 'Crear múltiples órdenes' }).click();
    const dialog = page.getByRole('dialog', { name: 'Crear múltiples órdenes' });
    await dialog.getByRole('checkbox', { name: 'Medicamentos' }).click();
    const meds = dialog.getByRole('region', { name: 'Órdenes de medicamentos' });
    // The default: every 1 hour for 7 days from now, so the total counts the doses left today (at
    // most 168, whatever the hour this runs).
    const hourly = /^24 dosis al día · (1[0-5]\d|16[0-8]) en total$/;
    await meds.getByText(hourly).waitFor();
    await meds.getByRole('combobox', { name: 'Medicamento' }).fill('losart');
    await page.locator('.ant-select-item-option', { hasText: 'Losartán Tableta 50 mg' }).first().click();
    await shot(page, 'bulk-medication');
    await dialog.getByRole('button', { name: 'Crear 1 orden' }).click();
    const confirm = page.getByRole('dialog', { name: '¿Crear órdenes con muchas dosis?' });
    await confirm.getByText(/Losartán.*: cada 1 horas durante 7 días, 24 dosis al día · (1[0-5]\d|16[0-8]) en total\./).waitFor();
    await shot(page, 'bulk-medication-confirm');
    await confirm.getByRole('button', { name: 'Revisar' }).click();
    await confirm.waitFor({ state: 'hidden' });
    // Nothing was created: the dialog is still open with its card.
    await meds.getByText(hourly).waitFor();

    // Every 8 hours: 3 a day, no question.
    await meds.getByRole('spinbutton').first().fill('8');
    await meds.getByText(/^3 dosis al día · (19|2[01]) en total$/).waitFor();
  });

  it('says on the Chat tab and in the start-up log that no assistant answers, and shows a sent message with its author', async () => {
    expect(product.server().output()).toContain('Asistente IA desactivado (sin AI_BASE_URL)');
    const id = await freshPatient();
    const page = await openSignedIn(product, `/patients/${id}?tab=chat`);
    await page.getByText('El asistente IA está desactivado').waitFor();
    await page.getByRole('textbox', { name: 'Mensaje para el paciente' }).fill('Buenos días, ¿cómo sigue?');
    await page.getByRole('button', { name: /Enviar$/ }).click();
    // The author at once, before any poll could bring it.
    await page
      .getByTestId('chat-list')
      .getByText(/ana lucía mejía torres/i)
      .waitFor({ timeout: 3_000 });
    await shot(page, 'chat-assistant-off');
  });

  it("downloads the CSV without leaving an empty tab, and hides 'Sin otros antecedentes registrados' under search results", async () => {
    const id = await freshPatient();
    const page = await openSignedIn(product, `/patients/${id}?tab=reports`);
    const tabs: Page[] = [];
    page.context().on('page', (p) => tabs.push(p));
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Descargar CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    await page.waitForTimeout(500);
    expect(tabs).toHaveLength(0);

    await selectTab(page, 'Antecedentes');
    await page.getByText('Sin otros antecedentes registrados').waitFor();
    const cards = page.locator('.condition-card');
    const before = await cards.count();
    await page.getByRole('textbox', { name: 'Buscar antecedentes' }).fill('dia');
    await expect.poll(() => cards.count(), { timeout: 10_000 }).toBeGreaterThan(before);
    expect(await page.getByText('Sin otros antecedentes registrados').count()).toBe(0);
    await shot(page, 'conditions-search');
  });
});
