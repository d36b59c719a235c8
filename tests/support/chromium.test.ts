import fs from 'node:fs';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { chromiumLaunchOptions, OMNIBOX_POPUP_FEATURES } from './chromium';

/** The command line of the Chromium this process started (its child without a --type: the browser process). */
function browserCommandLine(): string[] {
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const parent = /^PPid:\s+(\d+)$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
      const args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (Number(parent) === process.pid && args.some((a) => a === '--remote-debugging-pipe') && !args.some((a) => a.startsWith('--type=')))
        return args;
    } catch {
      // gone meanwhile
    }
  }
  throw new Error('The browser process was not found among this process’s children');
}

/**
 * The browser as the tests and the benchmark start it. Chromium keeps only the last
 * --disable-features it is given, so ours must carry every feature playwright-core turns off as
 * well as the omnibox popup's: a playwright-core upgrade that turns off one more fails here.
 */
describe('chromiumLaunchOptions', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch(chromiumLaunchOptions());
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('keeps every feature playwright-core turns off, and turns the omnibox popup off', async () => {
    const args = browserCommandLine();
    const lists = args.filter((a) => a.startsWith('--disable-features=')).map((a) => a.slice('--disable-features='.length).split(','));
    expect(lists.length).toBeGreaterThanOrEqual(2); // playwright-core's, then ours
    const last = new Set(lists.at(-1));
    for (const list of lists.slice(0, -1)) expect(list.filter((f) => !last.has(f))).toEqual([]);
    expect(OMNIBOX_POPUP_FEATURES.filter((f) => !last.has(f))).toEqual([]);
  });

  it('opens a context without the address bar popup’s page and its renderer', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto('about:blank');
      const cdp = await browser.newBrowserCDPSession();
      // The popup's page is made with the window; a moment for it to show if it is going to.
      await page.waitForTimeout(500);
      const { targetInfos } = await cdp.send('Target.getTargets');
      expect(targetInfos.filter((t) => t.url.includes('omnibox-popup')).map((t) => t.url)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
