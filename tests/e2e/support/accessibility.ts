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

/** True once no tooltip is open, no antd motion class is on and no finite animation still runs. */
const SETTLED = `(() => {
  const tooltipOpen = Array.from(document.querySelectorAll('.ant-tooltip')).some((e) => !e.classList.contains('ant-tooltip-hidden') && e.getBoundingClientRect().width > 0);
  const moving = document.querySelector('[class*="-leave-active"], [class*="-enter-active"], [class*="-appear-active"]') !== null;
  const running = document.getAnimations().some((a) => a.playState === 'running' && a.effect && a.effect.getTiming().iterations !== Infinity);
  return !tooltipOpen && !moving && !running;
})()`;

/** axe-core's default rules (WCAG 2.2 AA, P160) on the page as it stands: no violation, whatever its impact. */
export async function expectAccessible(page: Page): Promise<void> {
  await restPointerOnTitle(page);
  // antd's fades end first (a colour measured mid-fade is not the screen's), a tooltip the pointer
  // opened on its way leaves, and a closing dropdown or dialog finishes its motion: mid-animation
  // their containers are still visible outside the landmarks (axe 'region', seen on loaded CI
  // machines where a 400 ms wait was not enough). Endless animations (spinners) are not waited for.
  await page.waitForTimeout(400);
  await page.waitForFunction(SETTLED, null, { timeout: 5_000, polling: 100 }).catch(() => undefined);
  const { violations } = await axeBuilder(page).analyze();
  // Each node with the start of its HTML: a CI log then says what the element was, not only where.
  expect(
    violations.map(
      (v) => `${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')} ${n.html.replace(/\s+/g, ' ').slice(0, 160)}`).join(', ')}`,
    ),
  ).toEqual([]);
}
