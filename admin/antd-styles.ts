/**
 * antd's styles, written at build time into the staff app's CSS (issue 52: the patient page's
 * charts). antd 5 writes its CSS in the browser: the first time a page renders a kind of component
 * (a table, a tab, a card), antd builds that component's style object from the theme, turns it into
 * CSS text and inserts a <style> tag. On the patient page that was ~0.45 s of the renderer's main
 * thread on every load, cached or not (bench/README.md, 'antd's styles at build time').
 *
 * Here every antd component renders once on the server under the app's theme (react-dom/server),
 * as @ant-design/static-style-extract does, and @ant-design/cssinjs's extractStyle returns their CSS
 * with its map of what it holds (a `.data-ant-cssinjs-cache-path` rule). The browser reads that map
 * before antd's first style: a component whose style is in the file is not built again, and one
 * that is not (a theme the file was not made with, such as reduced motion's) is built as before.
 *
 * Imported lazily by the Vite plugin (vite.config.ts) so that antd reads NODE_ENV as the build set
 * it: the class names differ between development and production and must match the browser's.
 */
import type { ComponentType, ReactNode } from 'react';
import { themeFor } from './src/theme';

/** Components that render nothing or need a portal without a DOM; their styles are built in the browser when they open. */
const NOT_RENDERED = new Set(['ConfigProvider', 'Drawer', 'Grid', 'Modal', 'Popconfirm', 'Popover', 'Tooltip', 'Tour']);

export async function antdStaticStyles(): Promise<string> {
  const React = await import('react');
  const { renderToString } = await import('react-dom/server');
  const { createCache, extractStyle, StyleProvider } = await import('@ant-design/cssinjs');
  const antd = (await import('antd')) as unknown as Record<string, unknown>;
  const h = React.createElement;
  const isComponent = (v: unknown) => typeof v === 'function' || (typeof v === 'object' && v !== null && '$$typeof' in v);
  // Components that need children or data to render their styles at all.
  const withProps: Record<string, (C: ComponentType<Record<string, unknown>>) => ReactNode> = {
    Affix: (C) => h(C, null, h('div')),
    // The side panel's styles are their own (the app's menu).
    Layout: (C) => h(C, null, h((C as unknown as { Sider: ComponentType }).Sider)),
    Dropdown: (C) => h(C, { menu: { items: [] } }, h('div')),
    Menu: (C) => h(C, { items: [] }),
    QRCode: (C) => h(C, { value: 'vigia' }),
    Tree: (C) => h(C, { treeData: [] }),
  };
  const names = Object.keys(antd).filter((n) => /^[A-Z]/.test(n) && !NOT_RENDERED.has(n) && isComponent(antd[n]));
  const every = names.map((n) => {
    const C = antd[n] as ComponentType<Record<string, unknown>>;
    return h(React.Fragment, { key: n }, withProps[n] ? withProps[n](C) : h(C));
  });
  const ConfigProvider = antd.ConfigProvider as ComponentType<{ theme: unknown; children?: ReactNode }>;
  const cache = createCache();
  renderToString(h(StyleProvider, { cache }, h(ConfigProvider, { theme: themeFor(false) }, every)));
  return extractStyle(cache, { plain: true });
}
