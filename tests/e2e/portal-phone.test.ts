import { mkdir, readFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import lighthouse from 'lighthouse';
import { chromium, type Page } from 'playwright-core';
import { expectAccessible } from './support/accessibility';
import { DEMO_PATIENT, createStaffSession, listSmsOutbox, readLatestCode } from './support/api';
import { openPage, SCREENSHOT_DIR, waitForPath } from './support/browser';
import { cutTexts } from './support/cut-text';
import { chromiumLaunchOptions } from '../support/chromium';
import { useProductInBrowser } from './support/product';

/**
 * Issue 50, 'The portal, on the patient's phone': at 390 × 844 the portal opens on what the patient
 * comes for, saves the PDF report with its name, installs as an app, and opens without network with
 * the last data it read, marked as such, which signing out removes.
 */

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } as const;
/** The cards in the order a patient reads them; the demographics last. */
const CARD_ORDER = ['card-latest', 'card-next', 'card-adherence', 'card-charts', 'card-downloads', 'card-basic'];
/** Titles and values a phone must show whole. */
const TEXTS =
  '.card__title, .latest__title, .latest__value, .latest__status, .latest__meta, .next__what, .next__when, .downloads__actions .button';

describe('el portal en el teléfono del paciente (issue 50)', () => {
  const product = useProductInBrowser();
  let adminToken: string;

  beforeAll(async () => {
    adminToken = (await createStaffSession(product.server().baseUrl)).token;
    await mkdir(SCREENSHOT_DIR, { recursive: true });
  });

  /** Signs the demo patient in through the portal's own screens, on a phone. */
  async function signIn(): Promise<Page> {
    const page = await openPage(product.browser(), product.server().baseUrl, PHONE);
    const [previous] = await listSmsOutbox(product.server().baseUrl, adminToken, DEMO_PATIENT.cellphone);
    await page.goto('/login_patient');
    await page.getByLabel('Número de documento').fill(DEMO_PATIENT.nid);
    await page.getByRole('button', { name: 'Continuar' }).click();
    await page.getByLabel('Código de confirmación').waitFor({ state: 'visible' });
    const { code } = await readLatestCode(product.server().baseUrl, adminToken, DEMO_PATIENT.cellphone, previous?.id);
    await page.getByLabel('Código de confirmación').fill(code);
    await page.getByRole('button', { name: 'Iniciar sesión' }).click();
    await waitForPath(page, '/portal_patient');
    await page.locator('.latest__item').first().waitFor({ state: 'visible' });
    return page;
  }

  const topOf = async (page: Page, id: string) => (await page.locator(`[aria-labelledby="${id}"]`).boundingBox())?.y ?? NaN;

  it('abre en las últimas mediciones con su rango, luego lo que sigue; los datos personales al final', async () => {
    const page = await signIn();

    const tops = [];
    for (const id of CARD_ORDER) tops.push(await topOf(page, id));
    expect(tops).toEqual([...tops].sort((a, b) => a - b));
    // The readings start on the first screen, under the greeting.
    expect(tops[0]).toBeLessThan(PHONE.viewport.height / 2);

    const first = page.locator('.latest__item').first();
    // Value with its unit, when, the range, and the status in words (not only a colour).
    await expect(first.innerText()).resolves.toMatch(/\d+(,\d)?(\/\d+)? (lpm|%|mmHg|mg\/dL|°C|kg)/);
    await expect(first.innerText()).resolves.toMatch(/\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);
    await expect(first.innerText()).resolves.toMatch(/Dentro del rango|Fuera del rango|Sin rango asignado/);
    await expect(first.innerText()).resolves.toMatch(/Rango: |Sin rango asignado/);

    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'portal-primera-pantalla.png') });
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'portal-telefono-completo.png'), fullPage: true });
    expect(await cutTexts(page, TEXTS)).toEqual([]);
    await expectAccessible(page);
  });

  it('descarga el reporte PDF con su nombre, y «Abrir PDF» lo abre aparte', async () => {
    const page = await signIn();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Descargar PDF' }).click()]);
    expect(download.suggestedFilename()).toBe(`signos-vitales-${DEMO_PATIENT.nid}.pdf`);
    const file = await download.path();
    expect((await readFile(file)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // The page stays where it was.
    expect(new URL(page.url()).pathname).toBe('/portal_patient');

    const [tab] = await Promise.all([page.context().waitForEvent('page'), page.getByRole('button', { name: 'Abrir PDF' }).click()]);
    await tab.waitForURL(/\/api\/v1\/downloads\//, { waitUntil: 'commit' });
  });

  it('se puede instalar: pasa la auditoría «installable-manifest» de Lighthouse 11', async () => {
    const port = await freePort();
    const browser = await chromium.launch(chromiumLaunchOptions([`--remote-debugging-port=${port}`]));
    try {
      const result = await lighthouse(`${product.server().baseUrl}/portal_patient`, {
        port,
        logLevel: 'error',
        output: 'json',
        onlyCategories: ['pwa'],
        formFactor: 'mobile',
        throttlingMethod: 'provided',
      });
      const lhr = result!.lhr;
      const audit = lhr.audits['installable-manifest'];
      console.info(
        `[e2e] Lighthouse ${lhr.lighthouseVersion} PWA: ${JSON.stringify({
          score: lhr.categories.pwa?.score,
          'installable-manifest': audit.score,
          'maskable-icon': lhr.audits['maskable-icon']?.score,
          'themed-omnibox': lhr.audits['themed-omnibox']?.score,
          'splash-screen': lhr.audits['splash-screen']?.score,
          viewport: lhr.audits.viewport?.score,
        })}`,
      );
      expect(audit.score, JSON.stringify(audit.details)).toBe(1);
      expect(lhr.audits['maskable-icon']?.score).toBe(1);
    } finally {
      await browser.close();
    }
  }, 180_000);

  it('sin conexión abre igual, con las últimas mediciones marcadas y el aviso; al salir no queda copia', async () => {
    const page = await signIn();
    const readings = await page.locator('.latest__list').innerText();
    // The worker is in place (it installs after the first load).
    await page.evaluate(`(async () => {
      for (;;) {
        const registration = await navigator.serviceWorker.getRegistration('/portal_patient');
        if (registration && registration.active && registration.active.state === 'activated') return;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    })()`);

    await page.context().setOffline(true);
    await page.reload();
    await page.getByText('PORTAL DE PACIENTE').waitFor({ state: 'visible' });
    await page.getByText(/^Sin conexión: los datos pueden no estar al día\. Última lectura correcta: \d{2}:\d{2}\.$/).waitFor();
    const marks = page.locator('.read-notice--stale .read-notice__text');
    await marks.first().waitFor({ state: 'visible' });
    await expect(marks.first().innerText()).resolves.toMatch(/^Datos de las \d{2}:\d{2}; sin conexión, no fue posible actualizarlos\.$/);
    await expect(page.locator('.latest__list').innerText()).resolves.toBe(readings);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'portal-sin-conexion.png') });
    expect(await cutTexts(page, `${TEXTS}, .offline-banner, .read-notice__text`)).toEqual([]);
    await expectAccessible(page);

    // Back online: read again by itself; the banner and the marks go.
    await page.context().setOffline(false);
    await page.locator('.offline-banner').waitFor({ state: 'detached' });
    await page.locator('.read-notice--stale').first().waitFor({ state: 'detached' });
    await expect(page.locator('.latest__list').innerText()).resolves.toBe(readings);

    await page.getByRole('button', { name: 'Cerrar sesión' }).click();
    await waitForPath(page, '/login_patient');
    const left = await page.evaluate<{ storage: string[]; cached: string[] }>(`(async () => {
      const cached = [];
      for (const name of await caches.keys()) {
        for (const request of await (await caches.open(name)).keys()) cached.push(request.url);
      }
      return { storage: Object.keys(localStorage), cached };
    })()`);
    expect(left.storage.filter((k) => k.startsWith('vigia.patient'))).toEqual([]);
    // The worker's cache holds the shell only: no answer of the API, no health data.
    expect(left.cached.length).toBeGreaterThan(0);
    expect(left.cached.filter((url) => url.includes('/api/'))).toEqual([]);
  });
});

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
