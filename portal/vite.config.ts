import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));

/** The screens the API answers with dist/index.html; the dev server must do the same. */
const SCREEN_PATHS = ['/login_patient', '/portal_patient'];

function serveScreensInDev(): Plugin {
  return {
    name: 'vigia-portal-screens',
    configureServer(server) {
      server.middlewares.use((req, _res, next) => {
        const path = (req.url ?? '').split('?')[0];
        if (SCREEN_PATHS.includes(path)) req.url = '/portal/';
        next();
      });
    },
  };
}

const BASE = '/portal/';
/** Files of public/ the installed portal needs offline (the manifest and its icons). */
const PUBLIC_SHELL = ['manifest.webmanifest', 'icons/icon-192.png', 'icons/icon-512.png', 'icons/icon-maskable-512.png'];

/**
 * Writes dist/sw.js from service-worker.js (issue 50): the shell to cache is the entry chunk, the
 * chunks and styles it imports at once, and PUBLIC_SHELL; chunks loaded later (the charts) are
 * cached when first used. The version is a hash of those names, so a new build is a new worker.
 */
function emitServiceWorker(): Plugin {
  return {
    name: 'vigia-portal-service-worker',
    apply: 'build',
    generateBundle(_options, bundle) {
      const files = new Set<string>(PUBLIC_SHELL);
      const visit = (fileName: string) => {
        const item = bundle[fileName];
        if (!item || files.has(fileName)) return;
        files.add(fileName);
        if (item.type !== 'chunk') return;
        item.imports.forEach(visit);
        item.viteMetadata?.importedCss.forEach((css) => files.add(css));
        item.viteMetadata?.importedAssets.forEach((asset) => files.add(asset));
      };
      for (const item of Object.values(bundle)) if (item.type === 'chunk' && item.isEntry) visit(item.fileName);
      const precache = [...files].sort().map((f) => BASE + f);
      const version = createHash('sha256').update(precache.join('\n')).digest('hex').slice(0, 12);
      const source = readFileSync(new URL('./service-worker.js', import.meta.url), 'utf8')
        .replace("const VERSION = '__VIGIA_SW_VERSION__';", `const VERSION = '${version}';`)
        .replace('const PRECACHE = __VIGIA_SW_PRECACHE__;', `const PRECACHE = ${JSON.stringify(precache)};`);
      if (/__VIGIA_SW_\w+__;/.test(source)) this.error('service-worker.js: a placeholder was not filled');
      this.emitFile({ type: 'asset', fileName: 'sw.js', source });
    },
  };
}

export default defineConfig({
  root,
  base: BASE,
  plugins: [react(), serveScreensInDev(), emitServiceWorker()],
  // manifest: dist/.vite/manifest.json for the benchmark's front-end rows (never served: a dotfile).
  build: { outDir: 'dist', emptyOutDir: true, manifest: true },
  server: {
    port: 5174,
    proxy: { '/api': 'http://localhost:3100' },
  },
});
