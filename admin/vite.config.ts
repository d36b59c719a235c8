import { fileURLToPath, URL } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { parse } from 'yaml';

/**
 * `import contract from '../../openapi.yaml'` yields the parsed document, so the generic CRUD
 * screens read field rules from the same file the API validates against.
 */
function yamlModules(): Plugin {
  return {
    name: 'vigia:yaml',
    transform(code, id) {
      if (!/\.ya?ml$/.test(id.split('?')[0])) return null;
      return { code: `export default ${JSON.stringify(parse(code))};`, map: null, moduleType: 'js' };
    },
  };
}

/**
 * `import 'virtual:antd-styles.css'` (main.tsx): antd's CSS for the app's theme, made once when the
 * build starts (antd-styles.ts) instead of in the browser on every load; `virtual:antd-styles-still.css`
 * the same for the theme without motion, imported only when the browser asks for reduced motion.
 */
function antdStyles(): Plugin {
  const files: Record<string, boolean> = { 'virtual:antd-styles.css': false, 'virtual:antd-styles-still.css': true };
  const made = new Map<string, Promise<string>>();
  return {
    name: 'vigia:antd-styles',
    resolveId: (source) => (source in files ? `\0${source}` : null),
    load(loading) {
      const name = loading.slice(1);
      if (!loading.startsWith('\0') || !(name in files)) return null;
      if (!made.has(name))
        made.set(
          name,
          import('./antd-styles.ts').then((m) => m.antdStaticStyles(files[name])),
        );
      return made.get(name);
    },
  };
}

const api = process.env.VIGIA_API ?? 'http://localhost:3100';

/**
 * Packages that do not declare `sideEffects: false` although importing them does nothing. Refine's
 * antd bundle imports react-markdown for its MarkdownField; without this hint the whole markdown
 * stack would ship with every CRUD screen even though no screen renders markdown.
 */
const SIDE_EFFECT_FREE =
  /node_modules[\\/](react-markdown|remark-[^\\/]+|micromark[^\\/]*|mdast-[^\\/]+|hast-[^\\/]+|unist-[^\\/]+|unified|vfile[^\\/]*|property-information|space-separated-tokens|comma-separated-tokens|decode-named-character-reference|character-entities[^\\/]*|markdown-table|ccount|trough|bail|devlop|zwitch|longest-streak|html-url-attributes|style-to-js|style-to-object|inline-style-parser|estree-util-[^\\/]+|trim-lines|is-plain-obj)[\\/]/;

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  plugins: [react(), yamlModules(), antdStyles()],
  server: {
    port: 5173,
    proxy: {
      '/api': { target: api, changeOrigin: true },
    },
  },
  preview: {
    proxy: {
      '/api': { target: api, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json (a dotfile, never served): the benchmark's front-end rows read it
    // to tell the chart chunks apart, so every build can be measured, CI's included.
    manifest: true,
    target: 'es2022',
    chunkSizeWarningLimit: 900,
    rolldownOptions: {
      treeshake: {
        moduleSideEffects: (id: string) => !SIDE_EFFECT_FREE.test(id),
      },
      output: {
        // Only libraries every screen (login included) needs are grouped; antd is left to the
        // automatic splitter so the login page carries just the few antd components it renders.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
              priority: 30,
            },
            {
              // The charting library alone, loaded only by the screens that draw charts. Its
              // dependencies stay out of it (includeDependenciesRecursively: false): with them it
              // also took Babel helpers every screen uses, and the sign-in page preloaded the whole
              // 420 KB gzip chunk for them.
              name: 'charts',
              test: /node_modules[\\/](@antv|@ant-design[\\/](plots|charts))[\\/]/,
              priority: 20,
              includeDependenciesRecursively: false,
            },
            {
              name: 'refine',
              test: /node_modules[\\/](@refinedev[\\/]core|@tanstack|query-string|axios)[\\/]/,
              priority: 20,
            },
          ],
        },
      },
    },
  },
});
