import type { Page } from 'playwright-core';

/**
 * Issue 50: axe cannot see text an element cuts (an ellipsis, `overflow: hidden`). The elements a
 * selector matches whose content is wider than their box, with their text, so a test can say which
 * title or cell a phone hides; the page itself wider than the viewport counts as one. (A string:
 * the tests' TypeScript has no DOM library.)
 */
export async function cutTexts(page: Page, selector: string): Promise<string[]> {
  return page.evaluate<string[]>(`(() => {
    const cut = [];
    const root = document.scrollingElement || document.documentElement;
    if (root.scrollWidth > root.clientWidth + 1) cut.push('(la página: ' + root.scrollWidth + ' px en ' + root.clientWidth + ' px)');
    for (const el of document.querySelectorAll(${JSON.stringify(selector)})) {
      if (!el.offsetParent && getComputedStyle(el).position !== 'fixed') continue; // not shown
      if (el.scrollWidth > el.clientWidth + 1) cut.push((el.innerText || el.textContent || '').trim().slice(0, 80));
    }
    return cut;
  })()`);
}
