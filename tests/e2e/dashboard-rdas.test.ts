import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apiCall, createStaffSession } from './support/api';
import { failReadsWhere, SCREENSHOT_DIR, waitForPath } from './support/browser';
import { openSignedIn, useProductInBrowser } from './support/product';
import { expectAccessible } from './support/accessibility';

/** Kept for a person to look at (tests/e2e/.screenshots/dashboard-rdas-*.png). */
async function snapshot(page: Page, name: string) {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `dashboard-rdas-${name}.png`), fullPage: true });
}

type Summary = Record<'sin_enviar' | 'pendiente' | 'enviado' | 'rechazado' | 'corregido', number>;

const WIDE = { width: 1440, height: 900 };
/** A count's link as read aloud: its status, the number (es-CO) and 'RDA'. */
const countName = (label: string, n: number) =>
  new RegExp(`^${label}\\s*${new Intl.NumberFormat('es-CO').format(n).replace('.', '\\.')}\\s*RDA$`);
const PHONE = { width: 390, height: 844 };

/**
 * The dashboard's 'RDA por enviar al Ministerio' (issue 51): the demo's RDA (written 'sin enviar'
 * at the first start) counted by status as GET /rdas/summary answers, each count leading to the
 * RDA list filtered by it in its address; a failed read said as failed, never as 0.
 */
describe('Dashboard: RDA por estado', () => {
  const product = useProductInBrowser();

  async function checkCard(page: Page, summary: Summary, size: typeof WIDE) {
    await page.setViewportSize(size);
    const card = page.locator('.ant-card').filter({ hasText: 'RDA por enviar al Ministerio' });
    await card.waitFor({ state: 'visible' });
    for (const [status, label] of [
      ['rechazado', 'Rechazado'],
      ['pendiente', 'Pendiente'],
      ['sin_enviar', 'Sin enviar'],
    ] as const) {
      const link = card.getByRole('link', { name: countName(label, summary[status]) });
      await link.waitFor({ state: 'visible' });
      expect(await link.getAttribute('href')).toBe(`/rdas?status=${status}`);
    }
    await card.scrollIntoViewIfNeeded();
    await expectAccessible(page);
  }

  it('counts the demo RDA by status and leads to the list filtered by one, at 1440 × 900 and 390 × 844', { timeout: 240_000 }, async () => {
    const base = product.server().baseUrl;
    const { token } = await createStaffSession(base);
    const summary = await apiCall<Summary>(base, token, 'GET', '/rdas/summary');
    // The demo writes its RDA at the first start, without IHCE settings.
    expect(summary.sin_enviar).toBeGreaterThan(0);

    const page = await openSignedIn(product, '/dashboard');
    await checkCard(page, summary, WIDE);
    await snapshot(page, 'wide');
    await checkCard(page, summary, PHONE);
    await snapshot(page, 'phone');

    await page.setViewportSize(WIDE);
    const card = page.locator('.ant-card').filter({ hasText: 'RDA por enviar al Ministerio' });
    await card.getByRole('link', { name: countName('Sin enviar', summary.sin_enviar) }).click();
    await waitForPath(page, '/rdas?status=sin_enviar');
    // The list shows the filter chosen and as many documents as the card said.
    const filters = page.getByRole('search', { name: 'Filtros de RDA' });
    await filters.getByText('Sin enviar', { exact: true }).waitFor({ state: 'visible' });
    await page.getByText(`${new Intl.NumberFormat('es-CO').format(summary.sin_enviar)} RDA`, { exact: true }).waitFor({ state: 'visible' });
    await expectAccessible(page);
    await snapshot(page, 'list-filtered');

    // A day range kept in the address: nothing was written on 1 January 2020.
    await page.goto('/rdas?status=sin_enviar&from=2020-01-01&to=2020-01-01');
    await page.getByText('Ningún RDA coincide con los filtros.').first().waitFor({ state: 'visible' });
    expect(await page.getByPlaceholder('Desde').inputValue()).toBe('01/01/2020');
    await expectAccessible(page);
  });

  it('says the count could not be read, with «Reintentar», never 0', { timeout: 120_000 }, async () => {
    const page = await openSignedIn(product, '/alerts_management');
    const stop = await failReadsWhere(page, (p) => /^\/rdas\/summary(\?|$)/.test(p));
    await page.goto('/dashboard');
    const card = page.locator('.ant-card').filter({ hasText: 'RDA por enviar al Ministerio' });
    await card.getByText('No fue posible cargar los RDA por estado.', { exact: false }).waitFor({ state: 'visible' });
    await card.getByRole('button', { name: 'Reintentar' }).waitFor({ state: 'visible' });
    expect(await card.getByRole('link', { name: /\b0\s*RDA$/ }).count()).toBe(0);
    expect(await card.locator('.ant-statistic').count()).toBe(0);
    await expectAccessible(page);
    await stop();
    await card.getByRole('button', { name: 'Reintentar' }).click();
    await card.getByRole('link', { name: /^Sin enviar\s*[\d.]+\s*RDA$/ }).waitFor({ state: 'visible' });
  });
});
