import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { select } from './db/sql.js';
import { loadConfig, loadMessagingConfig } from './config.js';
import { bootstrap } from './bootstrap.js';
import { ROOT_DIR } from './paths.js';
import { seedDemo } from '../../seeds/demo.js';
import { seedDeps } from './seed-deps.js';
import { loadObservabilitySettings } from './observability/observability.js';

/** Answers while the product starts: the port is ours, the app not built yet. */
function answerStarting(_req: http.IncomingMessage, res: http.ServerResponse) {
  res.writeHead(503, { 'content-type': 'application/json; charset=utf-8', 'retry-after': '5' });
  res.end(JSON.stringify({ code: 'starting', message: 'Vigía está iniciando; intente de nuevo en unos segundos.' }));
}

/** Resolves once the server listens; rejects with a message naming the port when it cannot. */
function listenOn(server: http.Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const fail = (err: NodeJS.ErrnoException) => {
      server.off('listening', done);
      const why =
        err.code === 'EADDRINUSE'
          ? `El puerto ${port} ya está en uso: otro proceso lo escucha. Detenga ese proceso o elija otro puerto con PORT.`
          : err.code === 'EACCES'
            ? `No hay permiso para escuchar en el puerto ${port}: elija otro puerto con PORT.`
            : `No se pudo escuchar en el puerto ${port}: ${err.message}`;
      reject(new StartError(why));
    };
    const done = () => {
      server.off('error', fail);
      resolve();
    };
    server.once('error', fail);
    server.once('listening', done);
    server.listen(port);
  });
}

/** METRICS_PORT: /metrics alone on its own port, for a scraper on the private network. */
async function serveMetrics(port: number, scrape: () => Promise<{ contentType: string; body: string }>): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Solo /metrics');
      return;
    }
    scrape().then(
      ({ contentType, body }) => res.writeHead(200, { 'content-type': contentType }).end(body),
      () => res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('No se pudieron leer las métricas'),
    );
  });
  await listenOn(server, port);
  return server;
}

/** A start that cannot go on, with the Spanish sentence the operator reads (no stack trace). */
class StartError extends Error {}

/**
 * `npm start`: takes the port, builds what is missing, migrates, seeds the demo on an empty
 * database, serves everything on one port. The port comes first so a second server on a taken port
 * ends before it opens the database or runs a single background job (issue 41).
 */
async function main() {
  const config = loadConfig();
  const settings = loadObservabilitySettings();
  const server = http.createServer(answerStarting);
  await listenOn(server, config.port);
  const missing = ['admin', 'portal'].filter((app) => !fs.existsSync(path.join(ROOT_DIR, app, 'dist/index.html')));
  if (missing.length && process.env.SKIP_BUILD !== '1') {
    console.log(`[vigia] compilando ${missing.join(' y ')}...`);
    for (const app of missing) {
      const r = spawnSync('npm', ['run', 'build', '-w', app], { cwd: ROOT_DIR, stdio: 'inherit' });
      if (r.status !== 0) throw new Error(`No se pudo compilar ${app}`);
    }
  }
  const product = await bootstrap(config);
  const [{ n }] = await select<{ n: number }>(product.sequelize, 'SELECT COUNT(*) AS n FROM clients');
  let demo: Awaited<ReturnType<typeof seedDemo>> | null = null;
  if (Number(n) === 0 && process.env.SEED_DEMO !== '0') {
    demo = await seedDemo(seedDeps, product.sequelize.getQueryInterface(), { now: product.now() });
  }
  server.off('request', answerStarting);
  server.on('request', product.app);
  const stopJobs = product.jobs.start();
  const metricsServer = settings.metricsPort ? await serveMetrics(settings.metricsPort, product.observability.scrape) : null;
  const url = `http://localhost:${config.port}`;
  const db = config.databaseUrl ? 'PostgreSQL' : path.join(config.dataDir, 'vigia.sqlite');
  console.log(`\nVigía está en ${url}  (base de datos: ${db})`);
  if (config.clockOffsetMs) console.log(`  Reloj desplazado (CLOCK_OFFSET_MS): la API cree que son las ${product.now().toISOString()}`);
  console.log(`  Personal: ${url}/   ·   Portal del paciente: ${url}/login_patient   ·   API: ${url}/api/docs`);
  if (!loadMessagingConfig().aiBaseUrl) {
    console.log(
      '  Asistente IA desactivado (sin AI_BASE_URL): los mensajes de los pacientes esperan la respuesta del personal en la pestaña Chat.',
    );
  }
  if (demo) {
    console.log('\nDatos de demostración creados. Usuarios (contraseña entre paréntesis):');
    for (const u of demo.users) console.log(`  ${u.role.padEnd(11)} ${u.email}  (${u.password})`);
    console.log(
      `  Portal del paciente: documento ${demo.portalPatient.nid}; el código llega al buzón de SMS (GET /api/v1/sms_outbox como admin).`,
    );
  }
  // Issue 39: a rolling restart loses nothing. Readiness answers 503 at once (a balancer stops
  // sending), no new connection is taken, requests in flight finish, the job runner finishes the
  // job it runs (a Bulk export gives its job back after the page in flight, for the next process)
  // and gives back those it claimed, and the database closes; after SHUTDOWN_GRACE_MS
  // the process ends anyway (a job then cut off is taken again when its lock passes).
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    product.observability.shuttingDown = true;
    product.observability.logger.info({ graceMs: settings.shutdownGraceMs }, 'deteniendo: se terminan las peticiones y tareas en curso');
    setTimeout(() => {
      product.observability.logger.warn('deteniendo: plazo agotado, se cierran las conexiones restantes');
      process.exit(0);
    }, settings.shutdownGraceMs).unref();
    metricsServer?.close();
    const requestsDone = new Promise<void>((resolve) => server.close(() => resolve()));
    // Keep-alive connections idle now are closed; a busy one closes after its answer (Connection: close).
    server.closeIdleConnections();
    server.on('request', (_req, res) => res.setHeader('Connection', 'close'));
    void Promise.all([requestsDone, stopJobs()])
      .then(() => product.close())
      .then(() => product.observability.logger.flush?.())
      .then(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err) => {
  if (err instanceof StartError) console.error(`[vigia] no se pudo iniciar: ${err.message}`);
  else console.error('[vigia] no se pudo iniciar:', err);
  process.exit(1);
});
