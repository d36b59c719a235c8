import type { Request } from 'express';

/**
 * The origin the caller reached, for links and the passkeys' relying party when PUBLIC_URL is not
 * set: scheme and host as Express reads them, so `X-Forwarded-Proto` and `X-Forwarded-Host` are
 * believed only from the proxies the app's `trust proxy` names (app.ts: loopback), like `req.ip`.
 */
export function requestOrigin(req: Pick<Request, 'protocol' | 'host'>): string {
  return `${req.protocol}://${req.host}`;
}

/** PUBLIC_URL without its trailing slashes, or the request's own origin. */
export function publicBase(publicUrl: string | null, req: Pick<Request, 'protocol' | 'host'>): string {
  return (publicUrl || requestOrigin(req)).replace(/\/+$/, '');
}
