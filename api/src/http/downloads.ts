import crypto from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import { AppError, notFound } from './errors.js';

/**
 * Report downloads (D4): a call answers `{url}`, a short-lived link the browser opens in a new tab
 * without a bearer token. The link carries its own proof: kind, client, parameters and expiry,
 * HMAC-signed with a key derived from the JWT secret, so it cannot be altered to reach another
 * client's data or outlive its 5 minutes. Modules register the kinds they serve.
 */

const DOWNLOAD_TTL_MS = 5 * 60_000;
const DOWNLOAD_PATH = '/api/v1/downloads/';

type DownloadParams = Record<string, string | number | boolean | null>;

export interface DownloadClaims {
  kind: string;
  clientId: number;
  params: DownloadParams;
  expiresAt: number;
}

/** Streams the file to `res` (headers included); reads only data of `claims.clientId`. */
type DownloadHandler = (claims: DownloadClaims, res: Response, req: Request) => Promise<void>;

export interface Downloads {
  register(kind: string, handler: DownloadHandler): void;
  /** A signed url (path on this API) valid for 5 minutes from `now`. */
  link(clientId: number, kind: string, params: DownloadParams): { url: string; expires_at: string };
  /** GET /api/v1/downloads/:token, mounted before the bearer authentication. */
  router(): Router;
}

const b64 = (buf: Buffer | string) => Buffer.from(buf).toString('base64url');

export function createDownloads(jwtSecret: string, now: () => Date): Downloads {
  // A key of its own: a download token can never be confused with (or forge) a session token.
  const key = crypto.createHmac('sha256', jwtSecret).update('vigia/downloads/v1').digest();
  const handlers = new Map<string, DownloadHandler>();
  const sign = (payload: string) => crypto.createHmac('sha256', key).update(payload).digest();

  function verify(token: string): DownloadClaims {
    const [payload, signature] = token.split('.');
    if (!payload || !signature) throw notFound('El enlace de descarga no es válido.');
    const expected = sign(payload);
    const given = Buffer.from(signature, 'base64url');
    if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) throw notFound('El enlace de descarga no es válido.');
    const raw = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { k: string; c: number; p: DownloadParams; e: number };
    if (raw.e <= now().getTime()) throw new AppError(410, 'gone', 'El enlace de descarga expiró. Genere el reporte de nuevo.');
    return { kind: raw.k, clientId: raw.c, params: raw.p ?? {}, expiresAt: raw.e };
  }

  return {
    register(kind, handler) {
      if (handlers.has(kind)) throw new Error(`download kind registered twice: ${kind}`);
      handlers.set(kind, handler);
    },
    link(clientId, kind, params) {
      if (!handlers.has(kind)) throw new Error(`unknown download kind: ${kind}`);
      const expiresAt = now().getTime() + DOWNLOAD_TTL_MS;
      const payload = b64(JSON.stringify({ k: kind, c: clientId, p: params, e: expiresAt }));
      return { url: `${DOWNLOAD_PATH}${payload}.${b64(sign(payload))}`, expires_at: new Date(expiresAt).toISOString() };
    },
    router() {
      const r = Router();
      r.get('/downloads/:token', async (req, res) => {
        const claims = verify(String(req.params.token));
        const handler = handlers.get(claims.kind);
        if (!handler) throw notFound('El enlace de descarga no es válido.');
        await handler(claims, res, req);
      });
      return r;
    },
  };
}

/** `Content-Disposition` with an ASCII fallback and the UTF-8 name (RFC 6266). */
export function attachment(res: Response, fileName: string, inline = false): void {
  const ascii = fileName
    .normalize('NFD')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/["\\]/g, '');
  res.setHeader(
    'Content-Disposition',
    `${inline ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
  );
}
