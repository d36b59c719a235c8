/**
 * The browser's own speed on this machine, measured beside the patient page (issue 52): a fixed page
 * with no code of Vigía's, loaded in the same browser and context as the patient page, interleaved
 * with its warm loads. Its time moves with the machine (its CPU, what a new renderer process pays
 * for its memory) and never with the product, so the charts' tripwire holds the patient page to this
 * page rather than to a number of milliseconds measured on another machine. Session machines
 * differ: on the machine of 2026-12-07's third session a first touch of memory cost 11 µs a page
 * (1 GB in 2.9 s) and the same build's page took 2.9 s against CI's 978 ms the day before.
 *
 * The work resembles a page's start: code compiled and run once (a framework's modules), a heap of
 * small objects (its state and elements), a stylesheet and a tree of elements laid out, and a chart
 * drawn on a canvas. Every size is fixed and the data comes from a seeded generator: the page does
 * the same work on every load.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';

const SIZES = { functions: 6000, objects: 150_000, rules: 600, elements: 1500, segments: 4000 };

/** The page's one script: `window.__vigiaReference` is set to performance.now() when it is drawn. */
function script(): string {
  return `(() => {
  let seed = 42;
  const rand = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  // Code compiled and run once each, as a framework's modules are.
  let source = 'const out = [];';
  for (let i = 0; i < ${SIZES.functions}; i++)
    source += 'function f' + i + '(a) { const o = { k' + (i % 40) + ': a, list: [a, ' + i + '], name: "n' + i + '" }; return Object.keys(o).length + o.list[1] + a; } out.push(f' + i + '(' + i + '));';
  source += 'return out.reduce((s, v) => s + v, 0);';
  const compiled = new Function(source)();
  // A heap of small objects.
  const nodes = [];
  for (let i = 0; i < ${SIZES.objects}; i++) nodes.push({ id: i, label: 'item ' + i, value: rand(), children: i % 7 ? null : [i, i + 1] });
  nodes.sort((a, b) => a.value - b.value);
  // A stylesheet and a tree of elements, laid out.
  let css = '';
  for (let i = 0; i < ${SIZES.rules}; i++) css += '.r' + i + ' { padding: ' + (i % 9) + 'px; margin: 2px ' + (i % 5) + 'px; color: #' + (100000 + i * 37).toString(16).slice(0, 6) + '; border-radius: ' + (i % 6) + 'px; }\\n';
  const style = document.createElement('style');
  style.textContent = css;
  document.head.appendChild(style);
  const root = document.getElementById('root');
  for (let i = 0; i < ${SIZES.elements}; i++) {
    const card = document.createElement('div');
    card.className = 'r' + (i % ${SIZES.rules}) + ' card';
    const title = document.createElement('strong');
    title.textContent = nodes[i].label;
    const body = document.createElement('span');
    body.textContent = ' ' + nodes[i].value.toFixed(4) + ' · ' + compiled;
    card.append(title, body);
    root.appendChild(card);
  }
  void root.offsetHeight;
  // A chart on a canvas.
  const canvas = document.createElement('canvas');
  canvas.width = 800;
  canvas.height = 300;
  document.body.appendChild(canvas);
  const ctx = canvas.getContext('2d');
  ctx.beginPath();
  for (let i = 0; i < ${SIZES.segments}; i++) ctx.lineTo((i / ${SIZES.segments}) * 800, 150 + Math.sin(i / 40) * 100 * rand());
  ctx.stroke();
  requestAnimationFrame(() => { window.__vigiaReference = performance.now(); });
})();`;
}

export function referenceHtml(): string {
  return `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>Referencia del navegador</title>
<style>body { font-family: sans-serif; } .card { display: inline-block; width: 180px; }</style></head>
<body><div id="root"></div><script>${script()}</script></body></html>`;
}

export interface ReferenceServer {
  url: string;
  close(): Promise<void>;
}

/**
 * Serves the page on a loopback port of its own. Not a route of the browser context: Playwright
 * turns the HTTP cache off for a context with routes, and the patient page's warm loads need it.
 */
export async function serveReference(): Promise<ReferenceServer> {
  const html = referenceHtml();
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // The browser's kept-alive connections would hold close() until they time out.
        server.closeAllConnections();
      }),
  };
}

/** Navigation start → the reference page drawn, in ms, in a page of its own. */
export async function timeReference(page: Page, url: string): Promise<number> {
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForFunction('window.__vigiaReference !== undefined', undefined, { timeout: 60_000 });
  return page.evaluate<number>('window.__vigiaReference');
}
