import fs from 'node:fs';
import http from 'node:http';
import type { Sequelize } from 'sequelize';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { select } from './db/sql.js';
import { ConfigError, describeFailure, loadConfig, loadMessagingConfig, type Config } from './config.js';
import { bootstrap } from './bootstrap.js';
import { ROOT_DIR } from './paths.js';
import { seedDemo } from '../../seeds/demo.js';
import { seedDemoRdas } from '../../seeds/demo-rdas.js';
import { seedDeps } from './seed-deps.js';
import { loadObservabilitySettings } from './observability/observability.js';
import { answerStarting } from './observability/observability.routes.js';
import { requestPrototypes } from './http/request-prototypes.js';

/**
 * Resolves once the server listens; rejects with a message naming the port (and the variable that
 * sets it) when it cannot. Without `host`, every interface.
 */
function listenOn(server: http.Server, port: number, host?: string, variable = 'PORT'): Promise<void> {
  return new Promise((resolve, reject) => {
    const fail = (err: NodeJS.ErrnoException) => {
      server.off('listening', done);
      const why =
        err.code === 'EADDRINUSE'
          ? `El puerto ${port} ya está en uso: otro proceso lo escucha. Detenga ese proceso o elija otro puerto con ${variable}.`
          : err.code === 'EACCES'
            ? `No hay permiso para escuchar en el puerto ${port}: elija otro puerto con ${variable}.`
            : `No se pudo escuchar en el puerto ${port}: ${err.message}`;
      reject(new StartError(why));
    };
    const done = () => {
      server.off('error', fail);
      resolve();
    };
    server.once('error', fail);
    server.once('listening', done);
    if (host) server.listen(port, host);
    else server.listen(port);
  });
}

/**
 * METRICS_PORT: /metrics alone on its own port, for a scraper on the private network, on
 * METRICS_HOST only (loopback unless the operator names the private interface): the metrics say how
 * busy each organisation's database is, which is nobody's business on a public address.
 */
async function serveMetrics(
  port: number,
  host: string,
  scrape: () => Promise<{ contentType: string; body: string }>,
): Promise<http.Server> {
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
  await listenOn(server, port, host, 'METRICS_PORT');
  return server;
}

/** A start that cannot go on, with the Spanish sentence the operator reads (no stack trace). */
class StartError extends ConfigError {}

/**
 * Runs a settings reader whose refusals are plain Errors with the operator's sentence: rethrown as
 * ConfigError (printed without a stack trace). A TypeError or the like is a fault and stays itself.
 */
function readSetting<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    throw err instanceof Error && err.constructor === Error ? new ConfigError(err.message, { cause: err }) : err;
  }
}

type DemoSummary = Awaited<ReturnType<typeof seedDemo>>;

/**
 * The first start's data, run by bootstrap under the start lock (after migrations and catalogues),
 * so of two processes started together on an empty database only the first seeds. Answers what was
 * made: the demo, nothing because organisations exist, or nothing on an empty database (the
 * operator then creates the first organisation: printFirstStart).
 */
async function seedFirstStart(sequelize: Sequelize, now: () => Date, demo: Config['demo']): Promise<DemoSummary | 'empty' | null> {
  const [{ n }] = await select<{ n: number }>(sequelize, 'SELECT COUNT(*) AS n FROM clients');
  if (Number(n) > 0) return null;
  if (!demo || demo === 'off') return 'empty';
  return seedDemo(seedDeps, sequelize.getQueryInterface(), { now: now(), passwords: demo });
}

/**
 * What the operator reads after the start: the demo's accounts (to the terminal only, never the
 * log: a generated password is shown this once), or how to create the first organisation.
 */
function printFirstStart(made: DemoSummary | 'empty' | null, demo: Config['demo'], url: string) {
  if (made === 'empty') {
    console.log(
      [
        '\nAún no hay ninguna organización. Cree la primera, con su administrador, desde la carpeta de Vigía:',
        '  npm run client:create -- --name "Nombre de la organización" --country 26 --admin-email correo@organizacion.co \\',
        "    --admin-password 'CLAVE' --admin-first-name Nombre --admin-last-name Apellido",
        '  CLAVE: 8 caracteres o más, con mayúscula, minúscula, número y uno de @$!%*?&. Luego ingrese con ese correo',
        `  en ${url}/ (el administrador registra su segundo factor al entrar). Vigía sigue en marcha mientras tanto.`,
      ].join('\n'),
    );
    return;
  }
  if (!made) return;
  if (demo === 'generated') {
    console.log('\nDatos de demostración creados en producción (SEED_DEMO=1), con contraseñas generadas para este arranque.');
    console.log('Cópielas ahora: no se guardan en ningún registro ni se mostrarán de nuevo. Usuarios (contraseña entre paréntesis):');
  } else console.log('\nDatos de demostración creados. Usuarios (contraseña entre paréntesis):');
  for (const u of made.users) console.log(`  ${u.role.padEnd(11)} ${u.email}  (${u.password})`);
  console.log(
    `  Portal del paciente: documento ${made.portalPatient.nid}; el código llega al buzón de SMS (GET /api/v1/sms_outbox como admin).`,
  );
}

/**
 * `npm start`: takes the port, builds what is missing, migrates, seeds the demo on an empty
 * database, serves everything on one port. The port comes first so a second server on a taken port
 * ends before it opens the database or runs a single background job (issue 41).
 */
async function main() {
  const config = loadConfig();
  // Its settings are the operator's too: a wrong one reads as one sentence, like config.ts's.
  const settings = readSetting(loadObservabilitySettings);
  // Each request is made with the app's prototypes, which Express would otherwise set on arrival (request-prototypes.ts).
  const prototypes = requestPrototypes();
  const server = http.createServer(prototypes.serverOptions, answerStarting);
  await listenOn(server, config.port);
  const missing = ['admin', 'portal'].filter((app) => !fs.existsSync(path.join(ROOT_DIR, app, 'dist/index.html')));
  if (missing.length && process.env.SKIP_BUILD !== '1') {
    console.log(`[vigia] compilando ${missing.join(' y ')}...`);
    for (const app of missing) {
      const r = spawnSync('npm', ['run', 'build', '-w', app], { cwd: ROOT_DIR, stdio: 'inherit' });
      if (r.status !== 0) throw new StartError(`No se pudo compilar ${app}: vea los mensajes de npm arriba.`);
    }
  }
  let firstStart: DemoSummary | 'empty' | null = null;
  const product = await bootstrap(config, {
    firstStart: async (sequelize, now) => void (firstStart = await seedFirstStart(sequelize, now, config.demo)),
    onStartLockWait: () => console.log('[vigia] otro proceso está preparando la base de datos; se espera a que termine...'),
  });
  if (firstStart && firstStart !== 'empty') {
    // The demo's RDA are written by the product's own paths (the teleconsultation's close, the
    // statement job's writer), which need the built app's models and catalogues: after bootstrap,
    // by this process only (the one that seeded the demo under the start lock).
    // A demo without its RDA is still a demo: a refusal here is said, and the start goes on.
    await seedDemoRdas(
      seedDeps,
      product.sequelize,
      seedDeps.demoRdaWriter({ ...product, log: (msg) => product.observability.logger.info(msg) }),
      {
        now: product.now(),
      },
    ).then(
      (rdas) =>
        console.log(
          `[vigia] RDA de demostración: ${rdas.consultations} de consulta externa y ${rdas.statements} de paciente, sin enviar (sin conexión IHCE).`,
        ),
      (err: unknown) => console.error(`[vigia] no se pudieron escribir los RDA de demostración: ${describeFailure(err)}`),
    );
  }
  prototypes.use(product.app);
  server.off('request', answerStarting);
  server.on('request', product.app);
  const stopJobs = product.jobs.start();
  const metricsServer = settings.metricsPort
    ? await serveMetrics(settings.metricsPort, settings.metricsHost, product.observability.scrape)
    : null;
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
  printFirstStart(firstStart, config.demo, url);
  // Issue 39: a rolling restart loses nothing. Issue 49: a balancer must see readiness fail before
  // connections are refused, so on SIGTERM the process first drains: readiness answers 503 while
  // everything else is still served, for SHUTDOWN_DRAIN_MS. Then no new connection is taken,
  // requests in flight finish, the job runner finishes the job it runs (a Bulk export gives its
  // job back after the page in flight, for the next process) and gives back those it claimed, and
  // the database closes; SHUTDOWN_GRACE_MS after the drain the process ends anyway (a job then cut
  // off is taken again when its lock passes).
  const { logger } = product.observability;
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    product.observability.shuttingDown = true;
    logger.info(
      { drainMs: settings.shutdownDrainMs, graceMs: settings.shutdownGraceMs },
      'deteniendo: preparado responde 503 para que el balanceador deje de enviar peticiones',
    );
    // Each answer from now on closes its connection: a client's next request opens a new one, which
    // the balancer sends to another process; first among the listeners, before the app answers.
    server.prependListener('request', (_req, res) => res.setHeader('Connection', 'close'));
    // Jobs stop at once (the drain is for the balancer's traffic): they have the drain and the grace to finish.
    const jobsDone = stopJobs();
    setTimeout(() => {
      logger.info('deteniendo: no se aceptan conexiones nuevas; se terminan las peticiones y tareas en curso');
      setTimeout(() => {
        logger.warn('deteniendo: plazo agotado, se cierran las conexiones restantes');
        process.exit(0);
      }, settings.shutdownGraceMs).unref();
      metricsServer?.close();
      const requestsDone = new Promise<void>((resolve) => server.close(() => resolve()));
      // Keep-alive connections idle now are closed; a busy one closes after its answer (Connection: close).
      server.closeIdleConnections();
      void Promise.all([requestsDone, jobsDone])
        .then(() => product.close())
        .then(() => new Promise<void>((resolve) => logger.flush(() => resolve())))
        .then(() => process.exit(0));
    }, settings.shutdownDrainMs);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err) => {
  console.error(`[vigia] no se pudo iniciar: ${describeFailure(err)}`);
  process.exit(1);
});
