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
 * build starts (antd-styles.ts) instead of in the browser on every load.
 */
function antdStyles(): Plugin {
  const id = '\0virtual:antd-styles.css';
  let css: Promise<string> | null = null;
  return {
    name: 'vigia:antd-styles',
    resolveId: (source) => (source === 'virtual:antd-styles.css' ? id : null),
    load(loading) {
      if (loading !== id) return null;
      css ??= import('./antd-styles.ts').then((m) => m.antdStaticStyles());
      return css;
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
