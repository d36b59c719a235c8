import { describe, it, expect } from 'vitest';
import type { Page } from 'playwright-core';
import type { components } from '@vigia/contract/openapi';
import { createStaffSession, DEMO_ADMIN } from './support/api';
import { failReads, SCREENSHOT_DIR, waitForPath } from './support/browser';
import { useProductInBrowser, openSignedIn } from './support/product';
import { expectAccessible } from './support/accessibility';

type NotificationRecord = components['schemas']['NotificationRecord'];

/** Moves within the app as its links do (history and the router), so what it holds in memory stays. */
async function goInApp(page: Page, path: string): Promise<void> {
  await page.evaluate(`window.history.pushState({}, '', ${JSON.stringify(path)}); window.dispatchEvent(new PopStateEvent('popstate'))`);
}

/** Issue 20: 'Mis notificaciones' from the toolbar's user menu, and the 'Notificaciones' record. */
describe('Notificaciones', () => {
  const product = useProductInBrowser();

  /** An API call as the demo admin; answers the JSON body (typed by the caller). */
  async function api<T = { id: number }>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
    const { token } = await createStaffSession(product.server().baseUrl, DEMO_ADMIN);
    const res = await fetch(`${product.server().baseUrl}/api/v1${path}`, {
      method: init.method ?? 'GET',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    expect(res.status, `${init.method ?? 'GET'} ${path}`).toBeLessThan(300);
    return (await res.json()) as T;
  }

  it("lets the user switch their own channels and priorities in 'Mis notificaciones', from the user menu", async () => {
    const page = await openSignedIn(product, '/dashboard', DEMO_ADMIN);
    // The menu opens with an animation; under load a click during it can be lost, so try again.
    for (let attempt = 0; ; attempt++) {
      await page.locator('.vigia-user-menu').click();
      await page
        .getByRole('menuitem', { name: 'Mis notificaciones' })
        .click({ timeout: 5000 })
        .catch(() => undefined);
      const reached = await waitForPath(page, '/my_notifications', 5000).then(
        () => true,
        () => false,
      );
      if (reached) break;
      if (attempt === 2) await waitForPath(page, '/my_notifications');
    }
    await page.getByRole('heading', { name: 'Mis notificaciones' }).waitFor();
    const whatsapp = page.getByRole('switch', { name: 'WhatsApp' });
    const low = page.getByRole('switch', { name: 'Prioridad Baja' });
    expect(await whatsapp.getAttribute('aria-checked')).toBe('false');
    await whatsapp.click();
    await low.click();
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText('Preferencias de notificación guardadas').waitFor({ state: 'visible' });
    expect(await api('/my_notifications')).toMatchObject({
      media_whatsapp: true,
      priority_low: true,
      media_email: true,
      priority_high: true,
    });
    await page.screenshot({ path: `${SCREENSHOT_DIR}/my-notifications.png`, fullPage: true });
    await expectAccessible(page);
  });

  it('gathers more than two messages in one dialog that reads as a list (no heading of its own); a list that failed to load says so', async () => {
    const page = await openSignedIn(product, '/dashboard', DEMO_ADMIN);
    // A server in trouble: three screens' reads fail, each with its message.
    await failReads(page, /\/api\/v1\/(my_notifications|sessions\/mine|fhir_exports)(\?.*)?$/);
    const notices = page.locator('.ant-notification-notice');
    const dialog = page.getByRole('dialog', { name: /^Notificaciones \(\d+\)$/ });
    for (const path of ['/my_notifications', '/sessions', '/fhir_exports']) {
      const before = await notices.filter({ hasText: 'Error interno' }).count();
      await goInApp(page, path);
      // Each failure says so (after react-query's one retry): one more message, or the dialog
      // once there are more than two. The pointer resting on the messages keeps them open (antd
      // pauses their 4 s while hovered), as a reader's would.
      await expect
        .poll(async () => (await dialog.isVisible()) || (await notices.filter({ hasText: 'Error interno' }).count()) > before, {
          timeout: 10_000,
        })
        .toBe(true);
      if (await dialog.isVisible()) break;
      const box = (await notices.last().boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    }
    await dialog.waitFor({ state: 'visible' });
    const count = Number((await dialog.locator('.ant-modal-title').innerText()).match(/\d+/)![0]);
    expect(count).toBeGreaterThan(2);
    expect(await dialog.getByRole('button', { name: 'Descartar' }).count()).toBe(count);
    // An item's title is text, not an h4 under the screen's h1 (axe heading-order).
    expect(await dialog.locator('h1, h2, h3, h4, h5, h6').count()).toBe(0);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/notifications-dialog.png` });
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Descartar' }).first().click();
    await page.getByRole('dialog', { name: `Notificaciones (${count - 1})` }).waitFor({ state: 'visible' });
    await page.getByRole('button', { name: 'Entendido' }).click();
    await page.locator('.ant-modal-wrap').first().waitFor({ state: 'hidden' });
    // A list that could not be read says so, not that it is empty ('Aún no hay exportaciones').
    await goInApp(page, '/fhir_exports');
    await page.getByRole('heading', { name: 'Exportaciones FHIR' }).waitFor();
    await page.getByText('No fue posible cargar la lista. Pulse «Actualizar» para intentarlo de nuevo.').waitFor();
    expect(await page.getByText('Aún no hay exportaciones').count()).toBe(0);
  });

  it('lists what was sent for a new high-priority alert, filters it and links to the alert', async () => {
    // A rule of its own on a new patient, so the reading surely opens a new high-priority alert.
    const rule = await api('/alarms', {
      method: 'POST',
      body: { name: 'Fiebre alta', clinical_element: 7, priority: 1, minimum_condition: 35, maximum_condition: 38 },
    });
    const patient = await api('/patients', {
      method: 'POST',
      body: {
        id_type: 1,
        nid: '1098765432',
        first_name: 'rosa elena',
        last_name: 'vargas pinto',
        country_id: 26,
        city_id: 2611001,
        birth_date: '1948-02-11',
        gender: 0,
        address: 'carrera 7 # 45-10',
        neighborhood: 'chapinero',
        prefix: '+57',
        cellphone: '3009876543',
        email: 'rosa.vargas@example.co',
      },
    });
    await api(`/patients/${patient.id}`, { method: 'PUT', body: { alarm_ids: [rule.id] } });
    await api(`/patients/${patient.id}/measurements`, { method: 'POST', body: { clinical_element: 7, value: 39.6 } });
    // The server's job runner sends through the local e-mail outbox within seconds.
    let sent: NotificationRecord[] = [];
    await expect
      .poll(
        async () => {
          sent = (await api<NotificationRecord[]>('/notifications?reason=alert&state=sent&channel=email')).filter(
            (n) => n.patient_id === patient.id,
          );
          return sent.length;
        },
        { timeout: 60_000, interval: 1000 },
      )
      .toBeGreaterThan(0);

    // Alerts the demo's own jobs open at start may share the minute: then the message is a digest whose worst alert is this one.
    const alertId = sent[0].alert_id!;
    const page = await openSignedIn(product, '/notifications', DEMO_ADMIN);
    await page.getByRole('heading', { name: 'Notificaciones' }).waitFor();
    const rowOf = (channel: string) =>
      page.locator('.ant-table-row', { hasText: channel, has: page.getByRole('link', { name: `Ver alerta #${alertId}` }) }).first();
    await rowOf('Correo electrónico').waitFor({ state: 'visible' });
    expect(await rowOf('Correo electrónico').innerText()).toContain('Enviado');
    const chooseChannel = async (label: string) => {
      await page.locator('.ant-select', { has: page.getByRole('combobox', { name: 'Canal' }) }).click();
      await page.locator(`.ant-select-item-option[title="${label}"]`).click();
    };
    await chooseChannel('WhatsApp');
    await expect.poll(async () => page.locator('.ant-table-row', { hasText: 'Correo electrónico' }).count()).toBe(0);
    await chooseChannel('Correo electrónico');
    const mailRow = rowOf('Correo electrónico');
    await mailRow.waitFor({ state: 'visible' });
    expect(await mailRow.innerText()).toMatch(/\*\*\*@/);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/notifications.png`, fullPage: true });
    await expectAccessible(page);
    await mailRow.getByRole('link', { name: `Ver alerta #${alertId}` }).click();
    await waitForPath(page, `/patients/${patient.id}/alerts/${alertId}`);
  });
  it("keeps the escalation time typed in 'Notificaciones' while the client's settings answer late, and saves it", async () => {
    const page = await openSignedIn(product, '/dashboard', DEMO_ADMIN);
    await page.route(/\/api\/v1\/clients\/\d+$/, async (route) => {
      if (route.request().method() === 'GET') await new Promise((resolve) => setTimeout(resolve, 800));
      await route.continue();
    });
    await page.goto('/notifications');
    const field = page.getByLabel('Minutos sin gestión antes de escalar');
    await field.waitFor();
    // The field appears with the stored value, never empty and then overwritten.
    expect(Number(await field.inputValue())).toBeGreaterThanOrEqual(5);
    await field.fill('45');
    const saved = page.waitForResponse((r) => /\/api\/v1\/clients\/\d+$/.test(r.url()) && r.request().method() === 'PUT');
    await page.getByRole('button', { name: 'Guardar' }).click();
    expect(((await (await saved).json()) as { escalation_minutes: number }).escalation_minutes).toBe(45);
    await page.reload();
    await expect.poll(() => page.getByLabel('Minutos sin gestión antes de escalar').inputValue()).toBe('45');
  });

  it('at 390 × 844 fits the screen: messages as cards, the escalation field whole, an out-of-range delay refused with its message', async () => {
    const page = await openSignedIn(product, '/notifications', DEMO_ADMIN);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('heading', { name: 'Notificaciones' }).waitFor();
    await page.locator('.vigia-notification-card').first().waitFor({ state: 'visible' });
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    const field = page.getByLabel('Minutos sin gestión antes de escalar');
    const box = (await field.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await page.getByText('Se aplica también a las alertas abiertas, contado desde su apertura.').waitFor();
    // 0 is neither clamped to 5 nor sent: the contract's message, and no request.
    let puts = 0;
    page.on('request', (r) => {
      if (/\/api\/v1\/clients\/\d+$/.test(r.url()) && r.method() === 'PUT') puts++;
    });
    await field.fill('0');
    await field.blur();
    expect(await field.inputValue()).toBe('0');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText('Debe estar entre 5 y 1440 minutos').waitFor();
    expect(await field.inputValue()).toBe('0');
    expect(puts).toBe(0);
    // What the messages show: the organisation chooses the full name (issue 41).
    await field.fill('30');
    await page.getByRole('switch', { name: 'Nombre completo del paciente en los avisos' }).click();
    const saved = page.waitForResponse((r) => /\/api\/v1\/clients\/\d+$/.test(r.url()) && r.request().method() === 'PUT');
    await page.getByRole('button', { name: 'Guardar' }).click();
    expect(await (await saved).json()).toMatchObject({ escalation_minutes: 30, message_full_name: true, message_rule_name: false });
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/notifications-390.png`, fullPage: true });
    await expectAccessible(page);
  });
});
