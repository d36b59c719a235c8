import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * An axe-core scan of `page` that runs axe.run in the page itself (axe's 'legacy mode'). The default
 * runs axe.runPartial in each frame and then axe.finishRun in a new blank page, injecting axe-core's
 * 550 kB a second time into it: on this machine 1.9 s a screen against 0.6 s, the same rules and
 * findings (our screens have no cross-origin frames, the one case the default is for). The
 * accessibility scan of every screen took 11 minutes of CI with it.
 */
export function axeBuilder(page: Page): AxeBuilder {
  return new AxeBuilder({ page }).setLegacyMode();
}

/**
 * The pointer rests where the last click was, on the previous screen: over a new screen it can open
 * a tooltip there (axe then finds the tooltip's container outside the landmarks). It is moved onto
 * the screen's title, which has none; callers wait for the tooltip's fade afterwards.
 */
export async function restPointerOnTitle(page: Page): Promise<void> {
  const h1 = page.locator('h1').first();
  const title = (await h1.count()) ? await h1.boundingBox() : null;
  if (title) await page.mouse.move(title.x + 1, title.y + 1);
}

/** axe-core's default rules (WCAG 2.2 AA, P160) on the page as it stands: no violation, whatever its impact. */
export async function expectAccessible(page: Page): Promise<void> {
  await restPointerOnTitle(page);
  // antd's fades end first (a colour measured mid-fade is not the screen's).
  await page.waitForTimeout(400);
  const { violations } = await axeBuilder(page).analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}
