import { describe, expect, it } from 'vitest';
import { createStaffSession, DEMO_ADMIN, DEMO_PATIENT, findPatientByNid } from './support/api';
import { openSignedIn, useProductInBrowser } from './support/product';
import { SCREENSHOT_DIR } from './support/browser';

/**
 * Issue 52: antd's styles for the app's theme come in the build's CSS (admin/antd-styles.ts), and
 * antd builds none of them again in the browser. antd marks each <style> it inserts with
 * data-css-hash; with the build's map read, the patient page (cards, tabs, tables, charts'
 * controls, buttons, tags) must insert none of those of components the file holds. A map that
 * stopped matching (an antd upgrade, a theme set elsewhere) puts them all back, and this fails.
 *
 * The file holds the theme a browser gets by default. One that asks for reduced motion gets the
 * theme without motion, whose styles antd builds in the browser as before (the other tests' pages
 * ask for it: tests/e2e/support/browser.ts); this page does not.
 */
describe("antd's styles from the build (issue 52)", () => {
  const product = useProductInBrowser();

  it('the patient page and the dashboard insert no antd style the build already holds', async () => {
    const baseUrl = product.server().baseUrl;
    const session = await createStaffSession(baseUrl);
    const patient = await findPatientByNid(baseUrl, session.token, DEMO_PATIENT.nid);
    const page = await openSignedIn(product, `/patients/${patient.id}?tab=signs`, DEMO_ADMIN, { reducedMotion: 'no-preference' });
    await page.locator('h1.patient-name').waitFor();
    await page.locator('canvas').first().waitFor({ state: 'visible', timeout: 30_000 });
    await page.goto('/dashboard');
    await page.getByText('Indicadores').first().waitFor();
    // What antd inserted itself (the start of each rule, to name them when this fails).
    const inserted = await page.evaluate<string[]>(
      `[...document.querySelectorAll('style[data-css-hash]')].map((s) => (s.textContent ?? '').slice(0, 80))`,
    );
    // The build's map itself is in the page's CSS (its rule names what the file holds).
    const mapped = await page.evaluate<number>(`(() => {
      const probe = document.createElement('div');
      probe.className = 'data-ant-cssinjs-cache-path';
      document.body.appendChild(probe);
      const content = getComputedStyle(probe).content;
      probe.remove();
      return content.split(';').length;
    })()`);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/antd-styles-dashboard.png`, fullPage: true });
    expect(mapped).toBeGreaterThan(50);
    expect(inserted).toEqual([]);
  }, 120_000);
});
