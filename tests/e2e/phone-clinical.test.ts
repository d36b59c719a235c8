import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { expectAccessible } from './support/accessibility';
import { openPage, SCREENSHOT_DIR, waitForPath } from './support/browser';
import { cutTexts } from './support/cut-text';
import { apiCall, createStaffSession, DEMO_ADMIN, DEMO_PATIENT, findPatientByNid } from './support/api';
import { submitStaffLogin, useProductInBrowser } from './support/product';

const PHONE = { width: 390, height: 844 };
const DESK = { width: 1440, height: 900 };
const HOUR = 3_600_000;

/**
 * Issue 50, the clinical screens on a nurse's phone (390 × 844): Signos (titles whole, the normal
 * range never tinted as danger, deleting a reading behind its menu and a confirmation), Priorización
 * (one compact card per patient with the last reading's value, unit and age) and the calendar's week
 * (a list of days, titles whole, status in words); and at 1440 × 900 a Signos flag of Priorización
 * lands on its chart. Each screen is photographed, scanned by axe and checked for cut text.
 */
describe('El teléfono de la enfermera: Signos, Priorización y la semana (issue 50)', () => {
  const product = useProductInBrowser();
  const base = () => product.server().baseUrl;

  async function open(pathname: string, viewport = PHONE): Promise<Page> {
    const page = await openPage(product.browser(), base(), { viewport });
    await page.goto(pathname);
    await waitForPath(page, '/');
    await submitStaffLogin(page, DEMO_ADMIN);
    await waitForPath(page, pathname);
    // A phone has no pointer resting on the screen: the sign-in's click left Chromium's where the
    // page, scrolled to the tab it was opened on, now has a chart, whose hover tooltip then showed.
    await page.mouse.move(0, 0);
    return page;
  }

  async function shot(page: Page, name: string) {
    await mkdir(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, name), fullPage: true });
  }

  /** A new patient of the demo client with a Prioridad Alta heart-rate rule of 60–100 and readings over four days. */
  async function patientWithReadings(): Promise<number> {
    const { token } = await createStaffSession(base());
    await apiCall(base(), token, 'POST', '/alarms', {
      name: 'Frecuencia cardiaca del teléfono',
      clinical_element: 1,
      priority: 1,
      minimum_condition: 60,
      maximum_condition: 100,
      alarm_default_new_patients: true,
    });
    const patient = await apiCall<{ id: number }>(base(), token, 'POST', '/patients', {
      id_type: 1,
      nid: '52990050',
      first_name: 'Rosa',
      last_name: 'Telefonía Prada',
      country_id: 26,
      city_id: 2611001,
      birth_date: '1950-05-02',
      gender: 0,
      address: 'Calle 5 # 1-20',
      neighborhood: 'Centro',
      prefix: '+57',
      cellphone: '3157650050',
      email: 'rosa@example.co',
    });
    const now = Date.now();
    const values = [72, 110, 65, 95, 130, 80, 58, 88];
    await apiCall(base(), token, 'POST', `/patients/${patient.id}/measurements`, {
      measurements: values.map((value, i) => ({
        clinical_element: 1,
        value,
        when: new Date(now - (values.length - i) * 10 * HOUR).toISOString(),
      })),
    });
    await apiCall(base(), token, 'POST', `/patients/${patient.id}/measurements`, { clinical_element: 2, value: 96 });
    const alarms = await apiCall<Array<{ minimum_condition: number; maximum_condition: number; priority: number }>>(
      base(),
      token,
      'GET',
      `/patients/${patient.id}/alarms?clinical_element=1`,
    );
    expect(alarms).toContainEqual(expect.objectContaining({ minimum_condition: 60, maximum_condition: 100, priority: 1 }));
    return patient.id;
  }

  /** '60–100 En rango #389e0d; …' → each zone's ends, label and red, green and blue. */
  const zonesOf = (text: string) =>
    text
      .split('; ')
      .filter(Boolean)
      .map((z) => {
        const [, from, to, label, r, g, b] = /^([\d.]+)–([\d.]+) (.+) #([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(z)!;
        return { from: Number(from), to: Number(to), label, r: parseInt(r, 16), g: parseInt(g, 16), b: parseInt(b, 16) };
      });

  it('Signos at 390 × 844: titles whole, the normal range green and out of range red, deleting behind a menu and a confirmation', async () => {
    const id = await patientWithReadings();
    const page = await open(`/patients/${id}?tab=signs`);
    const card = page.locator('.vital-card', { hasText: 'Frecuencia Cardiaca (lpm)' });
    const chart = card.getByTestId('chart-heart_rate');
    await chart.locator('canvas').first().waitFor();
    await page.locator('[data-testid="chart-oximetry"] canvas').first().waitFor();

    const wide = await page.evaluate<string[]>(
      `[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > 391).slice(0, 12).map((e) => e.tagName + '.' + String(e.className).slice(0, 60) + ' ' + Math.round(e.getBoundingClientRect().right))`,
    );
    expect(
      await cutTexts(
        page,
        '.vital-card .ant-card-head-title, .vital-card .ant-card-extra, .vital-card .ant-list-item, .vital-card .ant-tag, .vital-card .ant-select-selection-item',
      ),
      wide.join(' | '),
    ).toEqual([]);

    // The band's fill: in range (60–100) green, never red; above and below it the colour of Prioridad Alta.
    const zones = zonesOf((await chart.locator('[role=img]').getAttribute('data-zones')) ?? '');
    const inRange = zones.find((z) => z.label === 'En rango');
    expect(inRange, JSON.stringify(zones)).toMatchObject({ from: 60, to: 100 });
    expect(inRange!.g).toBeGreaterThan(inRange!.r);
    const outside = zones.filter((z) => z !== inRange);
    expect(outside.map((z) => [z.label, z.r > z.g])).toEqual([
      ['Fuera de rango: Prioridad Alta', true],
      ['Fuera de rango: Prioridad Alta', true],
    ]);
    expect(outside[0].to).toBe(60);
    expect(outside[1].from).toBe(100);

    // A finger across the chart, edge to edge: each reading's tooltip stays on the screen (it ran
    // 28 px past a 390-px screen's right edge beside the chart's last readings).
    await chart.scrollIntoViewIfNeeded();
    const canvas = (await chart.locator('canvas').first().boundingBox())!;
    const tooltip = chart.locator('.g2-tooltip');
    const placed: string[] = [];
    for (let x = canvas.x + 4; x < canvas.x + canvas.width - 2; x += 24) {
      await page.mouse.move(x, canvas.y + canvas.height / 2);
      // Past the tooltip's own 60-ms pause between two placements.
      await page.waitForTimeout(120);
      await page.mouse.move(x + 1, canvas.y + canvas.height / 2);
      await page.waitForTimeout(120);
      if (!(await tooltip.isVisible())) continue;
      const box = (await tooltip.boundingBox())!;
      placed.push(`${Math.round(x)}: ${Math.round(box.x)}–${Math.round(box.x + box.width)}`);
      expect(box.x, placed.join(', ')).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, placed.join(', ')).toBeLessThanOrEqual(PHONE.width);
    }
    expect(placed.length, 'tooltips shown').toBeGreaterThan(5);
    await page.mouse.move(canvas.x + canvas.width / 2, canvas.y + canvas.height / 2);
    await tooltip.waitFor();
    await page.screenshot({
      path: path.join(SCREENSHOT_DIR, 'phone-signos-tooltip.png'),
      clip: { x: 0, y: canvas.y - 60, width: PHONE.width, height: canvas.height + 68 },
    });
    await page.mouse.move(0, 0);

    // No bin beside each reading: its menu, then a dialog naming the reading and its time.
    expect(await card.getByRole('button', { name: /Eliminar/ }).count()).toBe(0);
    const more = card.getByRole('button', { name: /^Más acciones: 88 lpm del \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/ });
    const when = (await more.getAttribute('aria-label'))!.replace(/^Más acciones: 88 lpm del /, '');
    await more.click();
    await page.getByRole('menuitem', { name: /Eliminar medición/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Eliminar medición' });
    await dialog.getByText(`Frecuencia Cardiaca: 88 lpm del ${when}`).waitFor();
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await card.getByText('88 lpm').waitFor();

    await page.evaluate('window.scrollTo(0, 0)');
    await expectAccessible(page);
    await shot(page, 'phone-signos.png');
  });

  it('Priorización at 390 × 844: one compact card per patient, with the last reading as value, unit and age', async () => {
    const { token } = await createStaffSession(base());
    const page = await open('/triage');
    const cards = page.locator('.triage-card');
    for (let i = 0; i < 20 && (await page.locator('.triage-card .triage-chip').count()) === 0; i++) {
      await page.waitForTimeout(1000);
      await page.reload();
    }
    await cards.first().waitFor();

    // The page's clock three hours after the first card's last reading: its age reads 'hace 3 horas'.
    const [first] = await apiCall<Array<{ id: number; last_reading: { when: string } | null }>>(
      base(),
      token,
      'GET',
      '/triage?_start=0&_end=1',
    );
    expect(first.last_reading).not.toBeNull();
    await page.clock.setFixedTime(new Date(Date.parse(first.last_reading!.when) + 3 * HOUR + 60_000));
    await page.reload();
    const last = cards.first().locator('.triage-card-last');
    await expect.poll(() => last.innerText()).toMatch(/^Última lectura: .+ \d+(,\d+)?(\/\d+)? (lpm|%|mmHg|mg\/dL|°C|kg) · hace 3 horas$/);

    await shot(page, 'phone-priorizacion.png');
    // At most four chips a card, the rest counted in its 'Ver cifras' (which lists every flag).
    for (const card of (await cards.all()).slice(0, 5)) expect(await card.locator('.triage-chip').count()).toBeLessThanOrEqual(4);
    // Well under half of the old 560 px, and nothing cut.
    const heights: number[] = [];
    for (const card of (await cards.all()).slice(0, 5)) heights.push((await card.boundingBox())!.height);
    expect(Math.max(...heights), heights.join(', ')).toBeLessThan(250);
    expect(heights.reduce((a, b) => a + b, 0) / heights.length, heights.join(', ')).toBeLessThan(230);
    expect(await cutTexts(page, '.triage-card, .triage-card-head > *, .triage-chip, .triage-card-last')).toEqual([]);

    await expectAccessible(page);
  });

  it("the calendar's week at 390 × 844 lists each day with its activities whole and their status in words", async () => {
    const { token } = await createStaffSession(base());
    const patient = await findPatientByNid(base(), token, DEMO_PATIENT.nid);
    const page = await open(`/patients/${patient.id}?tab=activities`);
    await page.locator('.fc').waitFor();
    await page.getByRole('button', { name: /^Semana$/ }).click();
    const agenda = page.getByRole('list', { name: 'Actividades de la semana' });
    await agenda.waitFor();
    expect(await agenda.locator('.activity-agenda-day').count()).toBe(7);
    const item = agenda.locator('.activity-agenda-item').first();
    await item.waitFor();
    // Time, whole title and the status in words beside its colour.
    expect((await item.innerText()).replace(/\s+/g, ' ')).toMatch(
      /^\d{2}:\d{2} .+ (Programada|En proceso|Completada|Cancelada|Fallida|Suspendida|No reportada)$/,
    );
    expect(await cutTexts(page, '.activity-agenda-item, .activity-agenda-day, .fc-toolbar-title, .order-legend > span')).toEqual([]);
    await expectAccessible(page);
    await shot(page, 'phone-calendario-semana.png');
    // The item opens the activity's dialog, as an event of the grid does.
    await item.click();
    await page.getByRole('dialog', { name: 'Actividad' }).waitFor();
  });

  it('at 1440 × 900 the week starts at the working day, with whole titles and each status in words', async () => {
    const { token } = await createStaffSession(base());
    const patient = await findPatientByNid(base(), token, DEMO_PATIENT.nid);
    const page = await open(`/patients/${patient.id}?tab=activities`, DESK);
    await page.locator('.fc').waitFor();
    await page.getByRole('button', { name: /^Semana$/ }).click();
    await page.locator('.fc-timegrid').waitFor();
    const event = page.locator('.fc-timegrid-event').first();
    await event.waitFor();
    const first = await page.locator('.fc-timegrid-slot-label[data-time]').first().getAttribute('data-time');
    expect(first).not.toBe('00:00:00');
    expect(Number(first!.slice(0, 2))).toBeLessThanOrEqual(7);
    expect((await event.innerText()).replace(/\s+/g, ' ')).toMatch(
      /(Programada|En proceso|Completada|Cancelada|Fallida|Suspendida|No reportada)$/,
    );
    expect(await cutTexts(page, '.fc-timegrid-event .activity-event-title, .fc-timegrid-event .activity-status')).toEqual([]);
    // Nor cut at the bottom of its hour ('Losartán Ta…' in a column shared with another activity).
    const clipped = await page.evaluate<string[]>(
      `[...document.querySelectorAll('.fc-timegrid-event .fc-event-main')].filter((e) => e.scrollHeight > e.clientHeight + 1).map((e) => e.innerText)`,
    );
    expect(clipped).toEqual([]);
    // And no activity drawn over another's title (FullCalendar overlaps the events of one hour by default).
    const overlapping = await page.evaluate<number>(
      `(() => { const boxes = [...document.querySelectorAll('.fc-timegrid-event')].map((e) => e.getBoundingClientRect()); let n = 0; for (const a of boxes) for (const b of boxes) if (a !== b && a.left < b.left && a.right > b.left + 1 && a.top < b.bottom && b.top < a.bottom) n++; return n; })()`,
    );
    expect(overlapping).toBe(0);
    await expectAccessible(page);
    await shot(page, 'desk-calendario-semana.png');
  });

  it('at 1440 × 900 a Signos flag of Priorización lands on its chart, scrolled into view and focused', async () => {
    const page = await open('/triage?size=100', DESK);
    const flag = page.locator('.triage-flags a[href*="chart="]').first();
    for (let i = 0; i < 20 && (await flag.count()) === 0; i++) {
      await page.waitForTimeout(1000);
      await page.reload();
    }
    await flag.waitFor();
    const chart = new URL((await flag.getAttribute('href'))!, 'http://x').searchParams.get('chart')!;
    await flag.click();
    await page.waitForURL(new RegExp(`/patients/\\d+\\?tab=signs&chart=${chart}$`), { waitUntil: 'commit' });
    const card = page.locator(`#vital-${chart}`);
    await card.locator('canvas').first().waitFor();
    await page.waitForTimeout(1500);
    const box = (await card.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(64);
    expect(box.y).toBeLessThan(DESK.height / 2);
    expect(await page.evaluate<string>('document.activeElement?.id ?? ""')).toBe(`vital-${chart}`);
    await shot(page, 'desk-priorizacion-signos.png');
  });
});
