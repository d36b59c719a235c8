import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import compression from 'compression';
import express, { Router } from 'express';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** Serves the built front ends: the portal under /portal/ (and its two routes), the admin at /. */
export function frontEndsRouter(rootDir: string): Router {
  const r = Router();
  // VIGIA_ADMIN_DIST / VIGIA_PORTAL_DIST let a test run serve a build made elsewhere.
  const adminDir = process.env.VIGIA_ADMIN_DIST ?? path.join(rootDir, 'admin/dist');
  const portalDir = process.env.VIGIA_PORTAL_DIST ?? path.join(rootDir, 'portal/dist');
  const sendIndex = (dir: string, app: string) => (_req: express.Request, res: express.Response) => {
    const index = path.join(dir, 'index.html');
    if (!fs.existsSync(index)) {
      res.status(503).type('text/plain').send(`La aplicación ${app} no está compilada. Ejecute npm run build.`);
      return;
    }
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(index);
  };
  const assets = { immutable: true, maxAge: '1y', index: false } as const;
  // Issue 50: on a phone's slow 3G the uncompressed scripts were a third of the portal's time to its
  // first readings. Brotli (quality 5) or gzip for the front ends only; the API's own answers keep
  // their exact bytes (streams, exports, ETags). Hashed files are cached a year, so each is
  // compressed about once per browser.
  r.use(compression({ brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } } }));
  r.use('/portal', express.static(portalDir, { index: false, setHeaders: setPortalHeaders }));
  r.get(['/login_patient', '/portal_patient'], sendIndex(portalDir, 'del portal'));
  r.use(express.static(adminDir, assets));
  r.get(/^\/(?!api\/).*/, sendIndex(adminDir, 'administrativa'));
  return r;
}

/**
 * The portal's files (issue 50, an installable portal). Only the hashed files under assets/ keep
 * for a year; the worker, the manifest and the icons keep their names from one release to the next,
 * so the browser asks again each time (a year-long sw.js would pin a phone to an old portal). The
 * worker lives under /portal/ but serves /portal_patient too: its scope is '/portal', which
 * Service-Worker-Allowed permits.
 */
function setPortalHeaders(res: express.Response, file: string): void {
  const name = path.basename(file);
  if (path.basename(path.dirname(file)) === 'assets') {
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    return;
  }
  res.setHeader('Cache-Control', 'no-cache');
  if (name === 'sw.js') res.setHeader('Service-Worker-Allowed', PORTAL_SCOPE);
  if (name.endsWith('.webmanifest')) res.setHeader('Content-Type', 'application/manifest+json; charset=utf-8');
}

/** The portal worker's scope: /portal_patient and everything under /portal/. */
const PORTAL_SCOPE = '/portal';

/** A readable reference of openapi.yaml at /api/docs, served from swagger-ui-dist (no CDN). */
export function docsRouter(): Router {
  const r = Router();
  const dist = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  r.get('/api/docs', (_req, res) => {
    res.type('html').send(`<!doctype html>
<html lang="es"><head><meta charset="utf-8"><title>Vigía API · Referencia</title>
<link rel="stylesheet" href="/api/docs/assets/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="/api/docs/assets/swagger-ui-bundle.js"></script>
<script src="/api/docs/init.js"></script></body></html>`);
  });
  r.get('/api/docs/init.js', (_req, res) => {
    res
      .type('application/javascript')
      .send("window.ui = SwaggerUIBundle({ url: '/api/v1/openapi.yaml', dom_id: '#swagger-ui', deepLinking: true });");
  });
  r.use('/api/docs/assets', express.static(dist, { index: false, maxAge: '1d' }));
  return r;
}
