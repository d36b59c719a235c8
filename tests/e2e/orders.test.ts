import { describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { openPage, waitForPath } from './support/browser';
import { createStaffSession, DEMO_ADMIN, DEMO_PATIENT, findPatientByNid } from './support/api';
import { submitStaffLogin, useProductInBrowser } from './support/product';
import { addDays, localParts } from '@vigia/contract/rules/activities';
import { formatCalendarDay } from '@vigia/contract/rules/dates';

/** 'Crear múltiples órdenes' (02 §2.4): one medication and one vital-sign order, summary and created activities. */
describe('Órdenes del paciente', () => {
  const product = useProductInBrowser();

  it('creates a bulk order of one medication and one vital sign; the summary matches what the server creates', async () => {
    const baseUrl = product.server().baseUrl;
    const session = await createStaffSession(baseUrl);
    const summary = await findPatientByNid(baseUrl, session.token, DEMO_PATIENT.nid);
    const patient = (await (
      await fetch(`${baseUrl}/api/v1/patients/${summary.id}`, { headers: { Authorization: `Bearer ${session.token}` } })
    ).json()) as { time_zone: string };
    const tomorrow = addDays(localParts(new Date(), patient.time_zone).date, 1);

    const page = await openPage(product.browser(), baseUrl);
    await page.goto(`/patients/${summary.id}?tab=orders`);
    await waitForPath(page, '/');
    await submitStaffLogin(page, DEMO_ADMIN);
    await page.getByRole('button', { name: 'Crear múltiples órdenes' }).click();
    const dialog = page.getByRole('dialog', { name: 'Crear múltiples órdenes' });
    await dialog.waitFor({ state: 'visible' });
    const create = dialog.getByRole('button', { name: 'Completar formulario' });
    expect(await create.isDisabled()).toBe(true);

    await dialog.getByRole('checkbox', { name: 'Medicamentos' }).click();
    await dialog.getByRole('checkbox', { name: 'Signos Vitales' }).click();

    const meds = dialog.getByRole('region', { name: 'Órdenes de medicamentos' });
    await meds.getByRole('combobox', { name: 'Medicamento' }).fill('losart');
    await page.locator('.ant-select-item-option', { hasText: 'Losartán Tableta 50 mg' }).first().click();
    await meds.getByRole('spinbutton').first().fill('8');
    await meds.getByLabel('Fecha de inicio').fill(formatCalendarDay(tomorrow));
    await meds.getByLabel('Fecha de inicio').press('Enter');

    const vitals = dialog.getByRole('region', { name: 'Órdenes de signos vitales' });
    // The option list animates in; a click that lands before it settles is lost, so check and retry.
    for (let attempt = 0; attempt < 3; attempt++) {
      await vitals.getByRole('combobox', { name: 'Signo vital' }).click();
      const option = page
        .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: 'Glucosa' })
        .first();
      await option.waitFor({ state: 'visible' });
      await option.click();
      if (await vitals.locator('.ant-select-selection-item', { hasText: 'Glucosa' }).count()) break;
    }
    await vitals.locator('.ant-select-selection-item', { hasText: 'Glucosa' }).waitFor({ state: 'visible' });
    await vitals.getByLabel('Fecha de inicio').fill(formatCalendarDay(tomorrow));
    await vitals.getByLabel('Fecha de inicio').press('Enter');

    // Every 8 hours for 7 days = floor(24 / 8 × 7) = 21; glucose daily at 08:00 for 7 days = 7.
    const stat = (title: string) => dialog.locator('.ant-statistic').filter({ hasText: title }).locator('.ant-statistic-content');
    await dialog.getByRole('button', { name: 'Crear 2 órdenes' }).waitFor({ state: 'visible' });
    expect(await stat('Órdenes').innerText()).toBe('2');
    expect(await stat('Actividades').innerText()).toBe('28');
    expect(await stat('Duración estimada').innerText()).toContain('7');
    expect(await stat('Promedio por día').innerText()).toBe('4');
    await dialog.getByText('+1 más').first().waitFor({ state: 'visible' });
    await page.screenshot({ path: '/tmp/h4/bulk-dialog.png', fullPage: true }).catch(() => {});

    await dialog.getByRole('button', { name: 'Crear 2 órdenes' }).click();
    await page.getByText('Se crearon 2 órdenes con 28 actividades exitosamente').first().waitFor({ state: 'visible' });
    await dialog.waitFor({ state: 'hidden', timeout: 8000 });

    const orders = (await (
      await fetch(`${baseUrl}/api/v1/patients/${summary.id}/orders?filter=3&_start=0&_end=2&_sort=id&_order=desc`, {
        headers: { Authorization: `Bearer ${session.token}` },
      })
    ).json()) as Array<{ activities_count: number; status: number }>;
    expect(orders.map((o: { activities_count: number }) => o.activities_count).sort((a: number, b: number) => a - b)).toEqual([7, 21]);
    expect(orders.every((o: { status: number }) => o.status === 1)).toBe(true);
    await page.getByRole('cell', { name: 'Glucosa' }).first().waitFor({ state: 'visible' });
    await page.screenshot({ path: '/tmp/h4/orders-tab.png', fullPage: true }).catch(() => {});
  });

  // Issue 41: month cells cut a medicine's name ('Losartán Table…'); the whole title wraps instead.
  it.each([
    [1440, 900],
    [390, 844],
  ])('shows every calendar event title whole at %s px', async (width, height) => {
    const baseUrl = product.server().baseUrl;
    const session = await createStaffSession(baseUrl);
    const summary = await findPatientByNid(baseUrl, session.token, DEMO_PATIENT.nid);
    const page = await openPage(product.browser(), baseUrl, { viewport: { width, height } });
    await page.goto(`/patients/${summary.id}?tab=activities`);
    await waitForPath(page, '/');
    await submitStaffLogin(page, DEMO_ADMIN);
    const titles = page.locator('.activity-calendar .fc-event-title');
    await titles.first().waitFor({ state: 'visible' });
    // A phone opens on the day; its month view must keep the titles whole too.
    if (width < 576) {
      await expectWhole(titles);
      await page.locator('.activity-calendar').screenshot({ path: `tests/e2e/.screenshots/activity-calendar-${width}-day.png` });
      await page.getByRole('button', { name: 'Mes' }).click();
      await page.locator('.activity-calendar .fc-dayGridMonth-view').waitFor();
      await titles.first().waitFor({ state: 'visible' });
    }
    await expectWhole(titles);
    await page.locator('.activity-calendar').screenshot({ path: `tests/e2e/.screenshots/activity-calendar-${width}.png` });
  });
});

/** What the check reads of an element in the page (the tests are compiled without the DOM's types). */
interface Box {
  offsetParent: unknown;
  textContent: string | null;
  scrollWidth: number;
  clientWidth: number;
  scrollHeight: number;
  clientHeight: number;
  closest(selector: string): Box | null;
}

/** Every event title on screen fits its box: no text cut by the cell, across or down. */
async function expectWhole(titles: Locator): Promise<void> {
  const cut = await titles.evaluateAll((els) =>
    (els as unknown as Box[])
      .filter((box) => box.offsetParent !== null)
      .map((box) => {
        const event = box.closest('.fc-event') ?? box;
        return {
          text: box.textContent ?? '',
          cut:
            box.scrollWidth > box.clientWidth + 1 || box.scrollHeight > box.clientHeight + 1 || event.scrollWidth > event.clientWidth + 1,
        };
      }),
  );
  expect(cut.length).toBeGreaterThan(0);
  expect(cut.some((t) => t.text.startsWith('Losartán Tableta 50 mg'))).toBe(true);
  expect(cut.filter((t) => t.cut)).toEqual([]);
}
