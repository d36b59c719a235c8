import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
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

export default defineConfig({
  root,
  base: '/portal/',
  plugins: [react(), serveScreensInDev()],
  // manifest: dist/.vite/manifest.json for the benchmark's front-end rows (never served: a dotfile).
  build: { outDir: 'dist', emptyOutDir: true, manifest: true },
  server: {
    port: 5174,
    proxy: { '/api': 'http://localhost:3100' },
  },
});
