import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { frontEndsRouter } from './static';

/** A stand-in portal build with the files an installable portal serves (issue 50). */
let root: string;
const saved = process.env.VIGIA_PORTAL_DIST;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'vigia-portal-files-'));
  const dist = path.join(root, 'portal/dist');
  fs.mkdirSync(path.join(dist, 'assets'), { recursive: true });
  fs.mkdirSync(path.join(dist, 'icons'));
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>portal</title>');
  fs.writeFileSync(path.join(dist, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  fs.writeFileSync(path.join(dist, 'manifest.webmanifest'), '{"name":"Vigía"}');
  fs.writeFileSync(path.join(dist, 'icons/icon-192.png'), 'png');
  fs.writeFileSync(path.join(dist, 'assets/index-abc123.js'), 'console.log(1)');
  fs.writeFileSync(
    path.join(dist, 'assets/big-def456.js'),
    `export const rows = ${JSON.stringify(Array.from({ length: 2000 }, (_, i) => ({ i })))};`,
  );
  delete process.env.VIGIA_PORTAL_DIST;
});
afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
  if (saved !== undefined) process.env.VIGIA_PORTAL_DIST = saved;
});

const app = () => express().use(frontEndsRouter(root));

describe('the portal’s files', () => {
  it('lets the worker under /portal/ take /portal_patient in its scope, and never caches it for long', async () => {
    const res = await request(app()).get('/portal/sw.js');
    expect(res.status).toBe(200);
    expect(res.headers['service-worker-allowed']).toBe('/portal');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-type']).toMatch(/javascript/);
  });

  it('serves the manifest as a web app manifest, asked again on each use', async () => {
    const res = await request(app()).get('/portal/manifest.webmanifest');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/manifest+json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect((await request(app()).get('/portal/icons/icon-192.png')).headers['cache-control']).toBe('no-cache');
  });

  it('keeps the hashed assets for a year, and the page of both screens fresh', async () => {
    const asset = await request(app()).get('/portal/assets/index-abc123.js');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['service-worker-allowed']).toBeUndefined();
    for (const screen of ['/portal_patient', '/login_patient']) {
      const page = await request(app()).get(screen);
      expect(page.status).toBe(200);
      expect(page.headers['cache-control']).toBe('no-cache');
    }
  });
});

describe('compression of the front ends (issue 50: slow 3G)', () => {
  /** The bytes on the wire (supertest and fetch would decompress them). */
  async function raw(file: string, acceptEncoding: string) {
    const server = app().listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      return await new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        http
          .get({ host: '127.0.0.1', port, path: file, headers: { 'Accept-Encoding': acceptEncoding } }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
          })
          .on('error', reject);
      });
    } finally {
      server.close();
    }
  }

  it('sends scripts brotli- or gzip-compressed as the browser accepts, and the same bytes when it accepts neither', async () => {
    const file = '/portal/assets/big-def456.js';
    const plain = fs.readFileSync(path.join(root, 'portal/dist/assets/big-def456.js'));
    const br = await raw(file, 'br, gzip');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/Accept-Encoding/i);
    expect(br.body.length).toBeLessThan(plain.length / 4);
    expect(zlib.brotliDecompressSync(br.body).equals(plain)).toBe(true);
    const gz = await raw(file, 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.body).equals(plain)).toBe(true);
    const none = await raw(file, 'identity');
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(none.body.equals(plain)).toBe(true);
  });
});
