import crypto from 'node:crypto';
import type http from 'node:http';
import { Router, type RequestHandler } from 'express';
import type { Sequelize } from 'sequelize';
import type { Logger } from 'pino';
import { select } from '../db/sql.js';
import { pendingMigrations } from '../db/migrate.js';
import { readinessReasons, STARTING } from './health.rules.js';
import { metricsEnabled, observeRequest, scrape } from './metrics.js';
import { TRUSTED_LINE } from './logger.js';
import { fhirRouteOf } from './fhir-route.rules.js';
import { notFound } from '../http/errors.js';
import type { Registry } from 'prom-client';

export interface HealthDeps {
  sequelize: Sequelize;
  now: () => Date;
  jobsStarted: () => boolean;
  shuttingDown: () => boolean;
}

/** The facts /ready decides on; each check's failure is a reason, never a 500. */
async function readinessFacts(deps: HealthDeps) {
  let databaseError: string | null = null;
  let pending: string[] | null = null;
  let oldestDueMs: number | null = null;
  try {
    await select(deps.sequelize, 'SELECT 1 AS ok');
    pending = await pendingMigrations(deps.sequelize);
    const now = deps.now();
    const [row] = await select<{ oldest: string | Date | null }>(
      deps.sequelize,
      "SELECT MIN(run_at) AS oldest FROM jobs WHERE status = 'pending' AND run_at <= :now",
      { now },
    );
    oldestDueMs = row?.oldest ? now.getTime() - new Date(row.oldest).getTime() : null;
  } catch (err) {
    databaseError = err instanceof Error ? err.message : String(err);
  }
  return { databaseError, pendingMigrations: pending, jobsStarted: deps.jobsStarted(), oldestDueMs, shuttingDown: deps.shuttingDown() };
}

/**
 * /api/health/live: the process answers (a load balancer restarts it when it does not).
 * /api/health/ready: it may take traffic; 503 with the reasons when not.
 */
export function healthRouter(deps: HealthDeps): Router {
  const router = Router();
  router.get('/api/health/live', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/api/health/ready', async (_req, res) => {
    const reasons = readinessReasons(await readinessFacts(deps));
    if (reasons.length) res.status(503).set('Retry-After', '5').json({ status: 'unavailable', reasons });
    else res.json({ status: 'ok', reasons: [] });
  });
  return router;
}

const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
};

/**
 * What the port answers while the product starts (the app not built yet): liveness 200, since the
 * process answers and killing it would only start it again from the beginning; readiness 503
 * 'starting' (a startup or readiness probe waits); anything else 503 with Retry-After.
 */
export function answerStarting(req: http.IncomingMessage, res: http.ServerResponse): void {
  const path = req.url?.split('?')[0];
  if (path === '/api/health/live') json(res, 200, { status: 'ok' });
  else if (path === '/api/health/ready') json(res, 503, { status: 'unavailable', reasons: [STARTING] }, { 'retry-after': '5' });
  else json(res, 503, { code: 'starting', message: 'Vigía está iniciando; intente de nuevo en unos segundos.' }, { 'retry-after': '5' });
}

/** GET /metrics in Prometheus' text format; with `token`, only for `Authorization: Bearer <token>`. */
export function metricsHandler(database: Registry, token: string | null): RequestHandler {
  const expected = token ? crypto.createHash('sha256').update(`Bearer ${token}`).digest() : null;
  return async (req, res) => {
    if (expected) {
      const given = crypto
        .createHash('sha256')
        .update(req.headers.authorization ?? '')
        .digest();
      if (!crypto.timingSafeEqual(given, expected)) {
        res
          .status(401)
          .set('WWW-Authenticate', 'Bearer')
          .json({ code: 'unauthorized', message: 'Las métricas piden el token de METRICS_TOKEN.' });
        return;
      }
    }
    const { contentType, body } = await scrape(database);
    res.set('Content-Type', contentType).send(body);
  };
}

/**
 * /metrics on the product's port without METRICS_TOKEN (on METRICS_PORT, or not served): a 404 of
 * the API's own, or the staff app's page would answer it with 200 and a scraper would read HTML.
 */
export const metricsElsewhere: RequestHandler = (_req, _res, next) => next(notFound('Las métricas no se sirven en este puerto.'));

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The route's template as the contract names it (`/api/v1/patients/{id}`), never the raw path. */
function routeOf(req: Parameters<RequestHandler>[0], status: number): string {
  const openapi = (req as { openapi?: { openApiRoute?: string } }).openapi;
  if (openapi?.openApiRoute) return openapi.openApiRoute;
  const path = req.originalUrl.split('?')[0];
  if (path.startsWith('/api/health/')) return path;
  if (path === '/metrics') return path;
  if (path.startsWith('/api/')) return status === 404 ? 'sin_ruta' : 'api_otra';
  if (path === '/oauth/token' || path.startsWith('/fhir/')) return fhirRouteOf(path);
  return 'estaticos';
}

/**
 * One JSON line per request (time, request id, user and organisation ids, route template, status,
 * duration) and the duration histogram. The request id is the caller's X-Request-Id when it is a
 * plain token, else a new one; either way it is answered in the same header.
 *
 * This runs on every request, a stored reading included, so it stays cheap (bench row 'metrics and
 * logging on vs off'): the levels are read once, the line is built only when it will be written
 * and skips the redaction pass (every field is the API's own: TRUSTED_LINE), and the histogram
 * series is looked up by one string (observeRequest).
 */
export function requestLog(logger: Logger): RequestHandler {
  const logsInfo = logger.isLevelEnabled('info');
  const logsErrors = logger.isLevelEnabled('error');
  const counts = metricsEnabled();
  return (req, res, next) => {
    const given = req.headers['x-request-id'];
    const reqId = typeof given === 'string' && REQUEST_ID.test(given) ? given : crypto.randomUUID();
    res.setHeader('X-Request-Id', reqId);
    if (!logsErrors && !counts) return next();
    const start = performance.now();
    res.on('finish', () => {
      const ms = performance.now() - start;
      const status = res.statusCode;
      const route = routeOf(req, status);
      if (counts) observeRequest(req.method, route, status, ms / 1000);
      const failed = status >= 500;
      if (failed ? !logsErrors : !logsInfo) return;
      const p = req.user?.principal;
      const line: RequestLine = { [TRUSTED_LINE]: true, reqId, method: req.method, route, status, ms: Math.round(ms * 10) / 10 };
      if (p) {
        line.clientId = p.clientId;
        if (p.kind === 'staff') line.userId = p.userId;
        else line.patientId = p.patientId;
      }
      if (failed) logger.error(line, 'petición');
      else logger.info(line, 'petición');
    });
    next();
  };
}

interface RequestLine {
  [TRUSTED_LINE]: true;
  reqId: string;
  method: string;
  route: string;
  status: number;
  ms: number;
  clientId?: number;
  userId?: number;
  patientId?: number;
}
