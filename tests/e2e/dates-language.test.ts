import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPage, waitForPath } from './support/browser';
import { createStaffSession, DEMO_ADMIN, DEMO_PATIENT, findPatientByNid, readLatestCode, listSmsOutbox } from './support/api';
import { submitStaffLogin, useProductInBrowser } from './support/product';
import { formatCalendarDay, localParts } from '@vigia/contract/rules/dates';

/**
 * Issue 19: a browser set to English still sees Spanish and dd/mm/aaaa (01 §1), counts agree with
 * their noun, and the charts draw every range they should (read through the chart's description).
 */
const EN = { locale: 'en-US' };
const DAY = /^\d{2}\/\d{2}\/\d{4}$/;

describe('Fechas e idioma en un navegador en inglés', () => {
  const product = useProductInBrowser();
  const get = async <T>(path: string, token: string): Promise<T> =>
    (await (await fetch(`${product.server().baseUrl}/api/v1${path}`, { headers: { Authorization: `Bearer ${token}` } })).json()) as T;
  const send = (method: string, path: string, token: string, body: unknown) =>
    fetch(`${product.server().baseUrl}/api/v1${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });

  async function signedIn(path: string): Promise<Page> {
    const page = await openPage(product.browser(), product.server().baseUrl, EN);
    await page.goto(path);
    await waitForPath(page, '/');
    await submitStaffLogin(page, DEMO_ADMIN);
    await waitForPath(page, path);
    return page;
  }

  it("shows antd's empty tables in Spanish, the bulk order's date as dd/mm/aaaa, and '1 orden'", async () => {
    const session = await createStaffSession(product.server().baseUrl);
    const patients = (await get<Array<{ id: number; status: number }>>('/patients?_start=0&_end=100', session.token)).filter(
      (p) => p.status === 1,
    );
    let bare: { id: number } | undefined;
    for (const p of patients) {
      if ((await get<unknown[]>(`/patients/${p.id}/orders?filter=3`, session.token)).length === 0) {
        bare = p;
        break;
      }
    }
    expect(bare, 'a demo patient without order history').toBeDefined();
    const { time_zone } = await get<{ time_zone: string }>(`/patients/${bare!.id}`, session.token);
    const today = localParts(new Date(), time_zone).date;

    const page = await signedIn(`/patients/${bare!.id}?tab=orders`);
    await page.locator('.ant-table .ant-empty-description').first().waitFor({ state: 'visible' });
    expect(await page.locator('.ant-table .ant-empty-description').first().innerText()).toBe('No hay datos');
    expect(await page.getByText('No data', { exact: true }).count()).toBe(0);

    await page.getByRole('button', { name: 'Crear múltiples órdenes' }).click();
    const dialog = page.getByRole('dialog', { name: 'Crear múltiples órdenes' });
    await dialog.getByRole('checkbox', { name: 'Signos Vitales' }).click();
    const vitals = dialog.getByRole('region', { name: 'Órdenes de signos vitales' });
    const start = vitals.getByLabel('Fecha de inicio');
    await start.waitFor({ state: 'visible' });
    expect(await start.inputValue()).toMatch(DAY);
    expect(await start.inputValue()).toBe(formatCalendarDay(today));
    for (let attempt = 0; attempt < 3; attempt++) {
      await vitals.getByRole('combobox', { name: 'Signo vital' }).click();
      const option = page
        .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: 'Glucosa' })
        .first();
      await option.waitFor({ state: 'visible' });
      // Under load the list can close while the option still moves in: the next attempt opens it again.
      await option.click({ timeout: 5000 }).catch(() => undefined);
      if (await vitals.locator('.ant-select-selection-item', { hasText: 'Glucosa' }).count()) break;
    }
    await dialog.getByRole('button', { name: 'Crear 1 orden', exact: true }).waitFor({ state: 'visible' });
    await page.screenshot({ path: '/tmp/dates-shots/e2e-bulk-en.png' }).catch(() => {});
    await dialog.getByRole('button', { name: 'Crear 1 orden', exact: true }).click();
    await dialog.getByText(/^Se creó 1 orden con \d+ actividades exitosamente$/).waitFor({ state: 'visible' });
    await dialog.getByText('Esta ventana se cerrará en 1 segundo.').waitFor({ state: 'visible' });
  });

  it("shows 'Programar Actividades' and the activity's 'Fecha' as dd/mm/aaaa", async () => {
    const session = await createStaffSession(product.server().baseUrl);
    const patient = await findPatientByNid(product.server().baseUrl, session.token, DEMO_PATIENT.nid);
    const { time_zone } = await get<{ time_zone: string }>(`/patients/${patient.id}`, session.token);
    const [unmanaged] = await get<Array<{ id: number }>>(`/patients/${patient.id}/orders?filter=0`, session.token);
    expect(unmanaged, 'the demo patient has an order to schedule').toBeDefined();

    const page = await signedIn(`/patients/${patient.id}/orders/${unmanaged.id}`);
    await page.getByRole('button', { name: 'Programar Actividades' }).click();
    const schedule = page.getByRole('dialog', { name: 'Programar Actividades' });
    const date = schedule.getByLabel('Fecha de inicio');
    await date.waitFor({ state: 'visible' });
    expect(await date.inputValue()).toBe(formatCalendarDay(localParts(new Date(), time_zone).date));
    await schedule.getByRole('button', { name: 'Cerrar' }).click();

    const [running] = await get<Array<{ id: number }>>(`/patients/${patient.id}/orders?filter=3`, session.token);
    await page.goto(`/patients/${patient.id}/orders/${running.id}`);
    await page.locator('.fc-event').first().click();
    const activity = page.getByRole('dialog', { name: 'Actividad' });
    const day = activity.getByLabel('Fecha', { exact: true });
    await day.waitFor({ state: 'visible' });
    expect(await day.inputValue()).toMatch(DAY);
    await page.screenshot({ path: '/tmp/dates-shots/e2e-activity-en.png' }).catch(() => {});
  });

  it("draws both blood-pressure ranges, on staff and portal charts, and an alert's rule no longer assigned", async () => {
    const baseUrl = product.server().baseUrl;
    const session = await createStaffSession(baseUrl);
    const patient = await findPatientByNid(baseUrl, session.token, DEMO_PATIENT.nid);
    const rules = await get<Array<{ id: number; clinical_element: number; minimum_condition: number; maximum_condition: number }>>(
      `/patients/${patient.id}/alarms`,
      session.token,
    );
    const systolic = rules.find((r) => r.clinical_element === 3)!;
    const diastolic = rules.find((r) => r.clinical_element === 4)!;
    const caption = (name: string, r: typeof systolic) => `${name} ${r.minimum_condition}–${r.maximum_condition} mmHg`;

    const page = await signedIn(`/patients/${patient.id}?tab=measurements`);
    await page.locator('[role=img][aria-label*="Sistólica:"]').first().waitFor({ state: 'visible' });
    const staffSummary = await page.locator('[role=img][aria-label*="Sistólica:"]').first().getAttribute('aria-label');
    expect(staffSummary).toContain(caption('Sistólica', systolic));
    expect(staffSummary).toContain(caption('Diastólica', diastolic));

    // The alert's rule taken off the patient: its range still frames the alert's chart.
    const alerts = await get<Array<{ id: number; clinical_element: number | null; alarm: { id: number | null } | null }>>(
      `/patients/${patient.id}/alerts`,
      session.token,
    );
    const alert = alerts.find((a) => a.clinical_element === 3 && a.alarm?.id === systolic.id);
    expect(alert, 'a systolic alert of the demo patient').toBeDefined();
    const kept = rules.filter((r) => r.id !== systolic.id).map((r) => r.id);
    expect((await send('PATCH', `/patients/${patient.id}`, session.token, { alarm_ids: kept })).status).toBe(200);
    try {
      await page.goto(`/patients/${patient.id}/alerts/${alert!.id}`);
      const chart = page.locator('[role=img][aria-label*="Sistólica:"]').first();
      await chart.waitFor({ state: 'visible' });
      expect(await chart.getAttribute('aria-label')).toContain(caption('Sistólica', systolic));
      await page.screenshot({ path: '/tmp/dates-shots/e2e-alert.png', fullPage: true }).catch(() => {});
    } finally {
      await send('PATCH', `/patients/${patient.id}`, session.token, { alarm_ids: rules.map((r) => r.id) });
    }

    // The portal: the diastolic range too.
    const portal = await openPage(product.browser(), baseUrl, EN);
    await portal.goto('/login_patient');
    await portal.getByLabel('Número de documento').fill(DEMO_PATIENT.nid);
    const [last] = await listSmsOutbox(baseUrl, session.token, DEMO_PATIENT.cellphone);
    await portal.getByRole('button', { name: 'Continuar' }).click();
    const { code } = await readLatestCode(baseUrl, session.token, DEMO_PATIENT.cellphone, last?.id);
    await portal.getByLabel('Código de confirmación').fill(code);
    await portal.getByRole('button', { name: 'Iniciar sesión' }).click();
    await portal.getByRole('button', { name: /Presión Arterial/ }).click();
    const portalChart = portal.locator('[role=img][aria-label*="Sistólica:"]').first();
    await portalChart.waitFor({ state: 'visible' });
    const portalSummary = await portalChart.getAttribute('aria-label');
    expect(portalSummary).toContain(caption('Sistólica', systolic));
    expect(portalSummary).toContain(caption('Diastólica', diastolic));
  });
});
