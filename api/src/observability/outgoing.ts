import diagnostics from 'node:diagnostics_channel';
import type { Logger } from './logger.js';

/**
 * LOG_LEVEL=debug: each request the process sends with fetch (webhooks, SMS, messaging, the
 * assistant, the identity provider), from undici's diagnostics channels, so no adapter logs for
 * itself. The method, the origin, the status or the error's code and the time: never the path,
 * the query or the body, which may hold a phone number or a patient's reference.
 */

interface UndiciRequest {
  origin?: string | URL;
  method?: string;
}

let current: Logger | null = null;
const started = new WeakMap<object, number>();
let subscribed = false;

const originOf = (r: UndiciRequest) => {
  try {
    return new URL(String(r.origin)).origin;
  } catch {
    return 'desconocido';
  }
};
const msSince = (request: object) => {
  const start = started.get(request);
  return start === undefined ? undefined : Math.round((performance.now() - start) * 10) / 10;
};

/**
 * Starts (or, with null, stops) writing outgoing requests to `logger` at debug. The channels are
 * the process's: one subscription, written to the last logger given (a test process builds
 * several apps).
 */
export function logOutgoingRequests(logger: Logger | null): void {
  current = logger?.isLevelEnabled('debug') ? logger : null;
  if (subscribed || !current) return;
  subscribed = true;
  diagnostics.subscribe('undici:request:create', (message) => {
    if (current) started.set((message as { request: object }).request, performance.now());
  });
  diagnostics.subscribe('undici:request:headers', (message) => {
    const { request, response } = message as { request: UndiciRequest; response: { statusCode: number } };
    current?.debug(
      { method: request.method, origin: originOf(request), status: response.statusCode, ms: msSince(request) },
      'petición saliente',
    );
  });
  diagnostics.subscribe('undici:request:error', (message) => {
    const { request, error } = message as { request: UndiciRequest; error: { code?: string; name?: string } };
    current?.debug(
      { method: request.method, origin: originOf(request), error: error.code ?? error.name, ms: msSince(request) },
      'petición saliente fallida',
    );
  });
}
