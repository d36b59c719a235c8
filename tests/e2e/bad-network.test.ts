import { describe, expect, it } from 'vitest';
import type { Page, Route } from 'playwright-core';
import { apiCall, createStaffSession, DEMO_ADMIN } from './support/api';
import { closeToasts, selectTab } from './support/browser';
import { openSignedIn, useProductInBrowser } from './support/product';
import { expectAccessible } from './support/accessibility';

/**
 * Issue 50: a nurse on a phone whose network drops and crawls. Offline, the staff app says so once,
 * refuses a write with a clear message and keeps what was typed, and reads again by itself when the
 * network is back. On a slow 3G profile (Chromium's network emulation over the DevTools protocol),
 * a write whose answer is lost on the way back is sent again by the nurse with the same
 * Idempotency-Key, and the API stores it once: one entry, one close, one reading, checked through the API.
 */
describe('Una enfermera con mala señal', () => {
  const product = useProductInBrowser();
  const NURSE = { email: 'enfermeria@demo.vigia.co', password: DEMO_ADMIN.password };
  const OFFLINE_WRITE = 'Sin conexión: no se guardó. Lo que escribió se conserva; vuelva a intentarlo cuando tenga conexión.';
  const NETWORK_ERROR = 'No fue posible comunicarse con el servidor. Verifique su conexión e intente de nuevo.';

  type AlertDetail = { status: number; entries: Array<{ description: string }> };
  type Measurement = { value: number; clinical_element: number };

  async function patientWithAlert(token: string) {
    const api = <T>(method: string, path: string, body?: unknown) => apiCall<T>(product.server().baseUrl, token, method, path, body);
    const rule = await api<{ id: number }>('POST', '/alarms?owner=client', {
      name: 'Taquicardia en ruta',
      clinical_element: 1,
      priority: 1,
      minimum_condition: 50,
      maximum_condition: 110,
    });
    const patient = await api<{ id: number }>('POST', '/patients', {
      id_type: 1,
      nid: '7744225050',
      first_name: 'Rosalba',
      last_name: 'Quintero Señal',
      country_id: 26,
      city_id: 2611001,
      birth_date: '1947-06-12',
      gender: 0,
      address: 'Carrera 7 # 12-30',
      neighborhood: 'La Candelaria',
      prefix: '+57',
      cellphone: '3007775050',
      email: 'rosalba@example.co',
    });
    await api('PUT', `/patients/${patient.id}`, { alarm_ids: [rule.id] });
    await api('POST', `/patients/${patient.id}/measurements`, { clinical_element: 1, value: 158 });
    const [alert] = (
      await api<Array<{ id: number; alarm: { id: number } | null }>>('GET', `/patients/${patient.id}/alerts?status=1`)
    ).filter((a) => a.alarm?.id === rule.id);
    return { patientId: patient.id, alertId: alert.id, api };
  }

  /**
   * The next write of `method` to `path` reaches the API, which stores it, and its answer is lost
   * on the way back (the connection reset); the writes after it go through. Answers the
   * Idempotency-Key each try carried.
   */
  async function loseFirstAnswer(page: Page, method: string, path: string): Promise<string[]> {
    const keys: string[] = [];
    let lost = false;
    await page.route(
      (url) => url.pathname === `/api/v1${path}`,
      async (route: Route) => {
        if (route.request().method() !== method) return route.fallback();
        keys.push(route.request().headers()['idempotency-key'] ?? '');
        if (lost) return route.fallback();
        lost = true;
        const stored = await route.fetch();
        expect(stored.status()).toBeLessThan(300);
        await route.abort('connectionreset');
      },
    );
    return keys;
  }

  const answerTo = (page: Page, method: string, path: string) =>
    page.waitForResponse((r) => r.request().method() === method && new URL(r.url()).pathname === `/api/v1${path}`);

  it('refuses a write offline keeping the text, recovers by itself, and stores each write once on slow 3G when its answer is lost', async () => {
    const { token } = await createStaffSession(product.server().baseUrl);
    const { patientId, alertId, api } = await patientWithAlert(token);
    const alertPath = `/patients/${patientId}/alerts/${alertId}`;
    const detail = () => api<AlertDetail>('GET', alertPath);

    // Sign in and open the patient, on a phone.
    const page = await openSignedIn(product, `/patients/${patientId}`, NURSE);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByText('Rosalba', { exact: false }).first().waitFor();
    await page.goto(`${alertPath}?source=patient`);
    const entryBox = page.getByLabel('Nueva entrada');
    await entryBox.waitFor();
    await closeToasts(page);

    // The network goes: the banner says so, once.
    await page.context().setOffline(true);
    const banner = page.locator('.vigia-offline-banner');
    await banner.getByText('Sin conexión: los datos pueden no estar al día', { exact: false }).waitFor();
    expect(await banner.count()).toBe(1);
    await expectAccessible(page);

    // A write now is refused at once, in Spanish, and what was typed stays.
    const firstText = 'Paciente sin respuesta al teléfono, se intenta de nuevo';
    await entryBox.fill(firstText);
    await page.getByRole('button', { name: 'Evolución' }).click();
    await page.getByText(OFFLINE_WRITE).waitFor();
    expect(await entryBox.inputValue()).toBe(firstText);
    expect((await detail()).entries).toHaveLength(0);

    // Meanwhile a colleague writes from another device: the page shows it by itself once the network is back.
    await api('POST', `${alertPath}/alert_entries`, { description: 'Entrada de la jefe de turno desde la central' });
    await page.context().setOffline(false);
    await banner.waitFor({ state: 'detached' });
    await page.getByText('Entrada de la jefe de turno desde la central').waitFor();
    expect(await entryBox.inputValue()).toBe(firstText);
    await closeToasts(page);
    await page.getByRole('button', { name: 'Evolución' }).click();
    await page.locator('.alert-entries').getByText(firstText).waitFor();
    expect(await entryBox.inputValue()).toBe('');
    expect((await detail()).entries.map((e) => e.description)).toEqual(['Entrada de la jefe de turno desde la central', firstText]);
    await closeToasts(page);

    // A slow 3G profile: 400 ms of latency, 400 kbit/s down, 300 kbit/s up.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 400,
      downloadThroughput: (400 * 1024) / 8,
      uploadThroughput: (300 * 1024) / 8,
    });

    // An entry whose answer is lost: the nurse presses again, and one entry is stored.
    const entryKeys = await loseFirstAnswer(page, 'POST', `${alertPath}/alert_entries`);
    const secondText = 'Se reprograma visita domiciliaria para mañana';
    await entryBox.fill(secondText);
    await page.getByRole('button', { name: 'Evolución' }).click();
    await page.getByText(NETWORK_ERROR).waitFor();
    expect(await entryBox.inputValue()).toBe(secondText);
    await closeToasts(page);
    const replayedEntry = answerTo(page, 'POST', `${alertPath}/alert_entries`);
    await page.getByRole('button', { name: 'Evolución' }).click();
    expect((await replayedEntry).headers()['idempotent-replayed']).toBe('true');
    await page.locator('.alert-entries').getByText(secondText).waitFor();
    expect(entryKeys).toHaveLength(2);
    expect(entryKeys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(entryKeys[1]).toBe(entryKeys[0]);
    expect((await detail()).entries.filter((e) => e.description === secondText)).toHaveLength(1);
    await closeToasts(page);

    // Closing whose answer is lost: pressed again, the alert is closed once with one final entry.
    const closeKeys = await loseFirstAnswer(page, 'PUT', alertPath);
    const closingText = 'Paciente estable, se cierra tras la visita';
    await entryBox.fill(closingText);
    await page.getByRole('button', { name: 'Cerrar Alerta' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cerrar alerta' });
    await dialog.getByRole('button', { name: 'Guardar y Finalizar' }).click();
    await page.getByText(NETWORK_ERROR).waitFor();
    await closeToasts(page);
    const replayedClose = answerTo(page, 'PUT', alertPath);
    await dialog.getByRole('button', { name: 'Guardar y Finalizar' }).click();
    expect((await replayedClose).headers()['idempotent-replayed']).toBe('true');
    await page.waitForURL((url) => url.pathname === `/patients/${patientId}` && url.search === '?tab=alerts', { waitUntil: 'commit' });
    expect(closeKeys).toHaveLength(2);
    expect(closeKeys[1]).toBe(closeKeys[0]);
    const closed = await detail();
    expect(closed.status).toBe(2);
    expect(closed.entries.filter((e) => e.description === closingText)).toHaveLength(1);
    await closeToasts(page);

    // A reading typed by hand whose answer is lost: saved again, stored once.
    await selectTab(page, 'Signos');
    await page.getByRole('button', { name: 'Registrar medición' }).click();
    const record = page.getByRole('dialog', { name: 'Registrar medición' });
    await record.locator('label.ant-radio-button-wrapper', { hasText: 'Temperatura' }).click();
    await record.getByLabel('Valor (°C)').fill('37.8');
    const readingKeys = await loseFirstAnswer(page, 'POST', `/patients/${patientId}/measurements`);
    await record.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText(NETWORK_ERROR).waitFor();
    expect(await record.getByLabel('Valor (°C)').inputValue()).toBe('37.8');
    await closeToasts(page);
    const replayedReading = answerTo(page, 'POST', `/patients/${patientId}/measurements`);
    await record.getByRole('button', { name: 'Guardar' }).click();
    expect((await replayedReading).headers()['idempotent-replayed']).toBe('true');
    await page.getByText('Medición registrada correctamente').waitFor();
    expect(readingKeys).toHaveLength(2);
    expect(readingKeys[1]).toBe(readingKeys[0]);
    const readings = await api<Measurement[]>('GET', `/patients/${patientId}/measurements?per_page=100`);
    expect(readings.filter((m) => m.value === 37.8)).toHaveLength(1);
  });
});
