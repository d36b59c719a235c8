import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** axe-core's default rules (WCAG 2.2 AA, P160) on the page as it stands: no critical or serious violation. */
export async function expectAccessible(page: Page): Promise<void> {
  // antd's fades end first (a colour measured mid-fade is not the screen's).
  await page.waitForTimeout(400);
  const { violations } = await new AxeBuilder({ page }).analyze();
  const failing = violations.filter((v) => v.impact === 'critical' || v.impact === 'serious');
  expect(failing.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}
