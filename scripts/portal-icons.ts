/**
 * Draws the portal's app icons (issue 50: an installable portal) from the product's mark, the
 * heart-beat line of portal/src/Brand.tsx, with the Chromium the tests use. Run it after changing
 * the mark: `npx tsx scripts/portal-icons.ts`; the PNGs are committed under portal/public/icons/.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { chromiumLaunchOptions } from '../tests/support/chromium';

const OUT = fileURLToPath(new URL('../portal/public/icons/', import.meta.url));
const BRAND = '#0b4f71';
const LINE =
  '<path d="M5 17h6l3-7 4 13 3-6h6" fill="none" stroke="#fff" stroke-width="2.6" stroke-linecap="round" stroke-linejoin="round"/>';

/** 'any': the mark as the header draws it. 'maskable': a full-bleed square, the line inside the central safe circle. */
const svgOf = (maskable: boolean) =>
  maskable
    ? `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="${BRAND}"/><g transform="translate(16 16) scale(0.62) translate(-16 -16)">${LINE}</g></svg>`
    : `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="${BRAND}"/>${LINE}</svg>`;

const ICONS = [
  { file: 'icon-192.png', size: 192, maskable: false },
  { file: 'icon-512.png', size: 512, maskable: false },
  { file: 'icon-maskable-512.png', size: 512, maskable: true },
  { file: 'apple-touch-icon-180.png', size: 180, maskable: true },
];

async function main(): Promise<void> {
  await mkdir(OUT, { recursive: true });
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    for (const icon of ICONS) {
      const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size } });
      await page.setContent(
        `<html><body style="margin:0;background:transparent"><img style="display:block;width:${icon.size}px;height:${icon.size}px" src="data:image/svg+xml,${encodeURIComponent(svgOf(icon.maskable))}"></body></html>`,
      );
      await page.locator('img').screenshot({ path: path.join(OUT, icon.file), omitBackground: true });
      await page.close();
      console.log(`portal/public/icons/${icon.file} (${icon.size} × ${icon.size})`);
    }
  } finally {
    await browser.close();
  }
}

await main();
