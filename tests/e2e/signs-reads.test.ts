import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createStaffSession, DEMO_PATIENT, findPatientByNid } from './support/api';
import { openSignedIn, useProductInBrowser } from './support/product';

/**
 * Issue 52: the patient page opened on Signos reads each API URL once. A read started early (the
 * tab's prefetch) and the card that shows it must share one cache entry and its freshness, and the
 * signed-in user's profile (/me) is read once however many screens ask for it: a second read of
 * the same URL is a wait the charts need not have.
 */
describe('Signos: each read once on opening', () => {
  const product = useProductInBrowser();

  /** Every API request the page sends, by method and URL, with how many times. */
  function countReads(page: Page): Map<string, number> {
    const reads = new Map<string, number>();
    page.on('request', (request) => {
      if (!new URL(request.url()).pathname.startsWith('/api/')) return;
      const key = `${request.method()} ${request.url().replace(product.server().baseUrl, '')}`;
      reads.set(key, (reads.get(key) ?? 0) + 1);
    });
    return reads;
  }

  /** Until the charts are drawn and the network has been quiet a while (a refetch on mount or focus comes after the answers). */
  async function settle(page: Page): Promise<void> {
    await page.locator('.vital-card canvas').first().waitFor();
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(1_500);
    await page.waitForLoadState('networkidle');
  }

  it('reads no URL twice, signed in from the link or opened again from a bookmark', async () => {
    const { baseUrl } = product.server();
    const { token } = await createStaffSession(baseUrl);
    const patient = await findPatientByNid(baseUrl, token, DEMO_PATIENT.nid);
    const path = `/patients/${patient.id}?tab=signs`;

    const signedIn = await openSignedIn(product, path);
    const afterSignIn = countReads(signedIn);
    await settle(signedIn);

    const bookmark = await signedIn.context().newPage();
    const opened = countReads(bookmark);
    await bookmark.goto(path);
    await settle(bookmark);

    for (const reads of [afterSignIn, opened]) {
      expect([...reads].filter(([, times]) => times > 1)).toEqual([]);
    }
    const keys = [...opened.keys()];
    expect(keys.filter((k) => k.includes(`/patients/${patient.id}/measurements?`)).length).toBeGreaterThan(0);
    expect(keys.filter((k) => k.includes(`/patients/${patient.id}/alarms?`)).length).toBeGreaterThan(0);
    expect(keys).toContain('GET /api/v1/me');
  });
});
