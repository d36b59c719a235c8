import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPage, SCREENSHOT_DIR, waitForPath } from './support/browser';
import { createStaffSession, DEMO_ADMIN } from './support/api';
import { submitStaffLogin, useProductInBrowser } from './support/product';

/**
 * Stored script payloads render as text in the admin (issue 8; the API, CSV and PDF halves are
 * tests/security/injection.test.ts). Notes keep their case; tag names and addresses are stored
 * upper-cased (P11), so besides "no dialog fired" the page is checked for any element the payload
 * would have created (an onerror/onload attribute, a script that is not the app's own).
 */
const NOTE_PAYLOADS = ['<img src=x onerror=alert(1)>', '<script>alert("xss")</script>'];
const TAG_PAYLOAD = '<svg onload=alert(1)>';
const ADDRESS_PAYLOAD = '"><img src=x onerror=alert(1)>';

describe('stored script payloads in the admin', () => {
  const product = useProductInBrowser();

  async function api(token: string, method: string, path: string, body?: unknown): Promise<{ id: number }> {
    const res = await fetch(`${product.server().baseUrl}/api/v1${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as { id: number };
  }

  /** Whatever a payload would have created if it had been parsed as HTML. */
  const injected = async (page: Page) => ({
    handlers: await page.locator('[onerror],[onload],[onclick]').count(),
    foreignImages: await page.locator('img[src="x" i]').count(),
    inlineScripts: (await page.evaluate(
      "[...document.scripts].filter((s) => !s.src && /alert/i.test(s.textContent || '')).length",
    )) as number,
  });

  it("renders a patient's notes, tag and address with script payloads as text, and no dialog fires", async () => {
    const { token } = await createStaffSession(product.server().baseUrl);
    const tag = await api(token, 'POST', '/tags', { name: TAG_PAYLOAD, color: 'red' });
    const patient = await api(token, 'POST', '/patients', {
      id_type: 1,
      nid: '75123456',
      country_id: 26,
      first_name: 'Inés',
      last_name: 'Prueba Segura',
      birth_date: '1950-01-01',
      gender: 0,
      city_id: 2611001,
      address: ADDRESS_PAYLOAD,
      neighborhood: 'Centro',
      prefix: '+57',
      cellphone: '3151112233',
      email: 'ines@example.co',
      tag_ids: [tag.id],
    });
    for (const text of NOTE_PAYLOADS)
      await api(token, 'POST', `/patients/${patient.id}/observations`, { observation_type: 0, value_text: text });

    const page = await openPage(product.browser(), product.server().baseUrl);
    const dialogs: string[] = [];
    page.on('dialog', async (d) => {
      dialogs.push(d.message());
      await d.dismiss();
    });
    await page.goto(`/patients/${patient.id}`);
    await waitForPath(page, '/');
    await submitStaffLogin(page, DEMO_ADMIN);
    await waitForPath(page, `/patients/${patient.id}`);

    // The tag and the address, upper-cased as stored, appear as literal text.
    await page.getByText(TAG_PAYLOAD.toUpperCase()).first().waitFor({ state: 'visible' });
    await page.getByText(ADDRESS_PAYLOAD.toUpperCase()).first().waitFor({ state: 'visible' });
    expect(await injected(page)).toEqual({ handlers: 0, foreignImages: 0, inlineScripts: 0 });

    // The notes tab shows both notes verbatim.
    await page.goto(`/patients/${patient.id}?tab=observations`);
    for (const text of NOTE_PAYLOADS) await page.getByText(text).first().waitFor({ state: 'visible' });
    expect(await injected(page)).toEqual({ handlers: 0, foreignImages: 0, inlineScripts: 0 });
    await page.screenshot({ path: `${SCREENSHOT_DIR}/injection-notes.png`, fullPage: true });

    // The tags screen lists the tag name as text too.
    await page.goto('/tags');
    await page.getByText(TAG_PAYLOAD.toUpperCase()).first().waitFor({ state: 'visible' });
    expect(await injected(page)).toEqual({ handlers: 0, foreignImages: 0, inlineScripts: 0 });

    await page.waitForTimeout(500); // an onerror would have fired by now
    expect(dialogs).toEqual([]);
  });
});
