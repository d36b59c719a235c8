import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { requestPrototypes } from './request-prototypes.js';

/**
 * The server builds each request and response with the app's prototypes (issue 52), so Express's
 * own Object.setPrototypeOf on arrival changes nothing. Checked before Express sees the request: a
 * listener put ahead of the app reads the prototypes the server made them with.
 */
let server: http.Server | null = null;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function serve(handler: http.RequestListener, options: http.ServerOptions): Promise<{ url: string; seen: () => object[] }> {
  const made: object[] = [];
  server = http.createServer(options);
  server.on('request', (req, res) => made.push(Object.getPrototypeOf(req) as object, Object.getPrototypeOf(res) as object));
  server.on('request', handler);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen: () => made };
}

describe('requestPrototypes', () => {
  it("builds requests and responses with the app's prototypes once the app is given", async () => {
    const app = express();
    app.get('/x', (req, res) => res.status(201).json({ path: req.path, host: req.get('host') !== undefined }));
    const prototypes = requestPrototypes();
    prototypes.use(app);
    const { url, seen } = await serve(app, prototypes.serverOptions);
    const res = await fetch(`${url}/x`);
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ path: '/x', host: true });
    expect(seen()).toEqual([app.request, app.response]);
  });

  it('builds plain ones before (the answers while the server starts)', async () => {
    const prototypes = requestPrototypes();
    const { url, seen } = await serve((_req, res) => res.writeHead(503).end('arrancando'), prototypes.serverOptions);
    const res = await fetch(`${url}/x`);
    expect(res.status).toBe(503);
    expect(await res.text()).toBe('arrancando');
    expect(seen()).toEqual([http.IncomingMessage.prototype, http.ServerResponse.prototype]);
  });

  it('without it, Express changes each request’s prototype as it arrives (what this avoids)', async () => {
    const app = express();
    app.get('/x', (_req, res) => res.json({}));
    const { url, seen } = await serve(app, {});
    await fetch(`${url}/x`);
    expect(seen()).toEqual([http.IncomingMessage.prototype, http.ServerResponse.prototype]);
  });
});
