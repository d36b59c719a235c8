import fs from 'node:fs';
import path from 'node:path';
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
  r.use('/portal', express.static(portalDir, assets));
  r.get(['/login_patient', '/portal_patient'], sendIndex(portalDir, 'del portal'));
  r.use(express.static(adminDir, assets));
  r.get(/^\/(?!api\/).*/, sendIndex(adminDir, 'administrativa'));
  return r;
}

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
