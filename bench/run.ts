/**
 * `npm run bench -- [--patients 20000] [--clients 2] [--seed 42] [--measurements-per-patient 20]
 * [--duration 10] [--warmup 2] [--connections 10] [--db sqlite|postgres] [--database-url URL]
 * [--reuse] [--only id,id] [--skip id,id] [--out bench] [--heavy-readings 100000]
 * [--admin-dist admin/dist] [--portal-dist portal/dist] [--scale-out]`
 *
 * Builds (or reuses) the large data set, starts the API in its own process, loads each endpoint
 * beside its driver-only baseline and writes bench/results.json and bench/RESULTS.md.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { captureRaw, captureStatements } from './capture.js';
import type { Driver } from './driver.js';
import { measureBackup } from './backup.js';
import { measureExport } from './export.js';
import { measureFrontends } from './frontend.js';
import { measureIngestion } from './ingest.js';
import { buildReadScenarios, pickChartSamples, replayRequests, storeCaptured } from './replay.js';
import type { Extras } from './report-extras.js';
import { measureScaleOut } from './scaleout.js';
import { forgetEarlierRuns, prepareDataset, type DatasetOptions } from './dataset.js';
import { buildTriage } from './triage.js';
import { openDriver } from './driver.js';
import { fetchRetrying } from './load.js';
import { measureContention, measureScenario, type ContentionResult, type ScenarioResult, type Settings } from './measure.js';
import { buildRows, describeMachine, writeReport, type Results } from './report.js';
import { BENCH_PASSWORD, benchEmail, buildScenarios, pickSamples } from './scenarios.js';
import { BENCH_JWT_SECRET, runClockAt, startApi } from './server.js';
import { buildPartitionedCopy } from './partition.js';
import { measureSecondFactor } from './second-factor.js';
import { measureFhir } from './fhir.js';
import { measureFhirExport } from './fhir-export.js';
import { FHIR_EXPORT_ID, FHIR_IDS, RDA_BACKLOG_ID, RDA_BUILD_ID, TARGET_PATIENTS_PER_CLIENT } from './targets.js';
import { ensureConsultation, measureRdaBacklog, measureRdaBuild, openRdaProduct, type Consultation, type RdaProduct } from './rda.js';
import { checkTripwires, readReference } from './tripwires.js';
import { PATIENT_STATUS } from '@vigia/contract/rules/access';

const ROOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/vigia_bench';
/** The seed's clock, fixed so a seed always gives the same rows; the API under bench runs at it too. */
const DATA_NOW = '2026-11-21T12:00:00.000Z';

function readOptions(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      patients: { type: 'string', default: '20000' },
      clients: { type: 'string', default: '2' },
      seed: { type: 'string', default: '42' },
      'measurements-per-patient': { type: 'string', default: '20' },
      'heavy-readings': { type: 'string', default: '100000' },
      'admin-dist': { type: 'string', default: 'admin/dist' },
      'portal-dist': { type: 'string', default: 'portal/dist' },
      skip: { type: 'string' },
      'scale-out': { type: 'boolean', default: false },
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '2' },
      connections: { type: 'string', default: '10' },
      db: { type: 'string', default: 'sqlite' },
      'database-url': { type: 'string', default: process.env.BENCH_DATABASE_URL ?? DEFAULT_DATABASE_URL },
      reuse: { type: 'boolean', default: false },
      partitioned: { type: 'boolean', default: false },
      tripwires: { type: 'boolean', default: false },
      only: { type: 'string' },
      out: { type: 'string', default: 'bench' },
    },
    strict: true,
  });
  const int = (name: keyof typeof values, min: number) => {
    const n = Number(values[name]);
    if (!Number.isInteger(n) || n < min) throw new Error(`--${name} debe ser un entero >= ${min}`);
    return n;
  };
  if (values.db !== 'sqlite' && values.db !== 'postgres') throw new Error('--db debe ser sqlite o postgres');
  const dataset: DatasetOptions = {
    dialect: values.db,
    patients: int('patients', 100),
    clients: int('clients', 1),
    seed: int('seed', 0),
    measurementsPerPatient: int('measurements-per-patient', 0),
    heavyReadings: int('heavy-readings', 0),
    now: DATA_NOW,
    databaseUrl: values.db === 'postgres' ? values['database-url']! : null,
  };
  const settings: Settings = { seconds: int('duration', 2), warmupSeconds: int('warmup', 0), connections: int('connections', 1) };
  if (values['scale-out'] && values.db !== 'postgres') throw new Error('--scale-out necesita --db postgres');
  if (values.partitioned && values.db !== 'postgres') throw new Error('--partitioned necesita --db postgres');
  return {
    dataset,
    settings,
    reuse: values.reuse!,
    only: values.only?.split(',') ?? null,
    skip: values.skip?.split(',') ?? [],
    outDir: path.resolve(ROOT_DIR, values.out!),
    scaleOut: values['scale-out']!,
    partitioned: values.partitioned!,
    tripwires: values.tripwires!,
    adminDist: path.resolve(ROOT_DIR, values['admin-dist']!),
    portalDist: path.resolve(ROOT_DIR, values['portal-dist']!),
  };
}

/** The seed's year-long patient: the client's first active patient by id (seeds/large.ts). */
async function firstActivePatient(driver: Driver, clientId: number): Promise<number> {
  const [row] = await driver.all<{ id: number }>(
    `SELECT id FROM patients WHERE client_id = $1 AND status = ${PATIENT_STATUS.active} ORDER BY id LIMIT 1`,
    [clientId],
  );
  return Number(row.id);
}

/** results.json is committed: a database URL goes in without its password. */
function redactPassword(url: string | null): string | null {
  if (!url) return url;
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}

/** Signs in as the first benchmark client's administrator; the token's claims name the session. */
async function signInForBench(baseUrl: string) {
  const res = await fetchRetrying(`${baseUrl}/api/v1/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: benchEmail('a'), password: BENCH_PASSWORD }),
  });
  if (res.status !== 201) throw new Error(`No se pudo iniciar sesión como ${benchEmail('a')}: ${res.status} ${await res.text()}`);
  const { token } = (await res.json()) as { token: string };
  const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as { jti: string; sub: string; cid: number };
  return { token, caller: { clientId: claims.cid, userId: Number(claims.sub), sessionId: claims.jti } };
}

async function main() {
  const started = performance.now();
  const opts = readOptions(process.argv.slice(2));
  const log = (line: string) => {
    lastLine = line;
    console.log(`[bench] ${line}`);
  };
  const dataset = await prepareDataset(ROOT_DIR, opts.dataset, opts.reuse, log);
  let layout: Results['database']['layout'] = 'one measurements table';
  if (opts.partitioned) {
    // The million-patient plan's layout (bench/partition.ts), on a copy: the data set stays as built.
    const copy = new URL(opts.dataset.databaseUrl!);
    copy.pathname = `${copy.pathname}_partitioned`;
    const made = await buildPartitionedCopy(opts.dataset.databaseUrl!, copy.toString(), log);
    layout = `measurements partitioned by month on "when" (${made.partitions} partitions and a default one; built from the data set in ${made.seconds.toFixed(0)} s)`;
    opts.dataset.databaseUrl = copy.toString();
    dataset.target = { dialect: 'postgres', url: copy.toString() };
  }
  // The run starts at the data set's instant whatever the wall clock says (issue 22).
  const clock = runClockAt(dataset.manifest.options.now);
  const driver = await openDriver(dataset.target, { connections: opts.settings.connections });
  if (dataset.reused) log(`Trabajos programados de corridas anteriores borrados: ${await forgetEarlierRuns(driver)}`);
  log(`Reloj de la corrida: ${clock.now().toISOString()} (CLOCK_OFFSET_MS ${clock.offsetMs})`);
  /** A phase or scenario runs unless --only leaves it out or --skip names it. */
  const wanted = (id: string) => (!opts.only || opts.only.includes(id)) && !opts.skip.includes(id);
  const extras: Extras = {};
  // Issue 52: a phase that fails is written down with why, and the run goes on to the next one and
  // writes its report with every row measured so far; the run still exits 1 (CI fails).
  const failedPhases: NonNullable<Extras['failedPhases']> = [];
  const attempt = async <T>(phase: string, work: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await work();
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      failedPhases.push({ phase, error });
      log(`FALLÓ la fase ${phase}: ${error}`);
      if (process.env.BENCH_DEBUG) console.error(err);
      return undefined;
    }
  };
  // Issue 21: the triage summaries and indicators are built before the API starts (timed), so its jobs find nothing due.
  // Also under `--only`: without them the API's summary and indicator jobs built everything at
  // start, beside the first phase measured (a CPU profile showed the summaries taking most of the
  // first ingestion phase's CPU; the indicators' 10 s statements ran beside the alerts list).
  if (!opts.skip.includes('triage-build'))
    extras.triageBuild = await buildTriage({
      dataDir: dataset.dir,
      databaseUrl: opts.dataset.databaseUrl,
      target: dataset.target,
      now: clock.now(),
      log,
    });
  const api = await startApi({
    rootDir: ROOT_DIR,
    dataDir: dataset.dir,
    databaseUrl: opts.dataset.databaseUrl,
    logFile: path.join(dataset.dir, 'api.log'),
    clock,
    // WEBHOOKS_ALLOW_HTTP: the RDA backlog's IHCE platform is on loopback (it changes no measured path, only what a saved URL may be).
    env: { VIGIA_ADMIN_DIST: opts.adminDist, VIGIA_PORTAL_DIST: opts.portalDist, WEBHOOKS_ALLOW_HTTP: '1' },
  });
  log(`API en ${api.baseUrl} (pid ${api.pid}); registro en ${path.relative(ROOT_DIR, path.join(dataset.dir, 'api.log'))}`);
  const stopOnSignal = () => {
    api.stop().finally(() => process.exit(130));
  };
  process.once('SIGINT', stopOnSignal);

  const scenarioResults: ScenarioResult[] = [];
  let contention: ContentionResult | null = null;
  let idleBytes: number;
  let version: string;
  try {
    version = await driver.version();
    await waitForQuietJobs(driver, log);
    api.memory.setPhase('idle');
    await new Promise((r) => setTimeout(r, 1000));
    idleBytes = api.memory.peaks().find((p) => p.phase === 'idle')?.peakBytes ?? 0;
    const { token, caller } = await signInForBench(api.baseUrl);
    const samples = await pickSamples(driver, caller.clientId);
    const heavyPatientId = await firstActivePatient(driver, caller.clientId);
    const charts = await pickChartSamples(driver, caller, opts.dataset.heavyReadings > 0 ? heavyPatientId : null);
    const scenarios = [
      ...buildScenarios(samples, opts.settings.connections),
      ...buildReadScenarios({ charts, surnamePrefixes: samples.surnamePrefixes }, opts.settings.connections),
    ].filter((s) => wanted(s.id));
    const captureOpts = {
      dataDir: dataset.dir,
      databaseUrl: opts.dataset.databaseUrl,
      jwtSecret: BENCH_JWT_SECRET,
      token,
      clockOffsetMs: clock.offsetMs,
    };
    const apiSql = await captureStatements(
      captureOpts,
      scenarios.map((s) => s.request(s.inputs[0])),
    );
    const toReplay = replayRequests(scenarios);
    if (toReplay.length) storeCaptured(scenarios, toReplay, await captureRaw(captureOpts, toReplay));
    for (const [i, s] of scenarios.entries()) {
      const measured = await attempt(s.id, () =>
        measureScenario(s, { api, driver, token, settings: opts.settings, apiSql: apiSql[i], log }),
      );
      if (measured) scenarioResults.push(measured);
    }
    const list = scenarios.find((s) => s.id === 'patients-list');
    const signIn = scenarios.find((s) => s.id === 'sign-in');
    if (list && signIn)
      contention =
        (await attempt('contention', () => measureContention(list, signIn, { api, token, settings: opts.settings, log }))) ?? null;
    // Issue 37: the FHIR API as an integrator uses it (an API client's token), and its token endpoint.
    const fhirWanted = (id: string) =>
      !opts.skip.includes('fhir') && !opts.skip.includes(id) && (!opts.only || opts.only.includes('fhir') || opts.only.includes(id));
    if (Object.values(FHIR_IDS).some(fhirWanted)) {
      const fhir = await attempt('fhir', () =>
        measureFhir({
          api,
          driver,
          staffToken: token,
          clientId: caller.clientId,
          heavyPatientId: opts.dataset.heavyReadings > 0 ? heavyPatientId : null,
          seed: opts.dataset.seed,
          settings: opts.settings,
          capture: captureOpts,
          nowMs: () => clock.now().getTime(),
          wanted: fhirWanted,
          log,
        }),
      );
      if (fhir) scenarioResults.push(...fhir.scenarios);
      if (fhir?.token) extras.fhirToken = fhir.token;
    }
    // Issue 38: sign-in with a second factor beside the plain one (the account's factor is removed after).
    if (wanted('second-factor'))
      extras.secondFactor = await attempt('second-factor', () =>
        measureSecondFactor({
          baseUrl: api.baseUrl,
          email: benchEmail('a'),
          password: BENCH_PASSWORD,
          nowMs: () => clock.now().getTime(),
          log,
        }),
      );
    if (wanted('csv-export') && opts.dataset.heavyReadings > 0) {
      extras.csvExport = await attempt('csv-export', () =>
        measureExport({
          api,
          driver,
          token,
          dataDir: dataset.dir,
          databaseUrl: opts.dataset.databaseUrl,
          jwtSecret: BENCH_JWT_SECRET,
          clockOffsetMs: clock.offsetMs,
          patientId: heavyPatientId,
          now: dataset.manifest.options.now,
          repeats: 3,
          parallel: 4,
          log,
        }),
      );
    }
    if (wanted('frontend')) {
      const missing = [opts.adminDist, opts.portalDist].filter((d) => !fs.existsSync(path.join(d, 'index.html')));
      if (missing.length) log(`Sin front ends compilados en ${missing.join(', ')}: se omiten sus filas (vea bench/README.md)`);
      else {
        log('Front ends en Chromium sin interfaz');
        fs.mkdirSync(opts.outDir, { recursive: true });
        extras.frontend = await attempt('frontend', () =>
          measureFrontends({
            baseUrl: api.baseUrl,
            adminDist: opts.adminDist,
            portalDist: opts.portalDist,
            email: benchEmail('a'),
            password: BENCH_PASSWORD,
            patientId: heavyPatientId,
            staffToken: token,
            // Five warm loads: a p50 of three moved by one slow load (issue 52 judges it).
            repeats: 5,
            screenshotDir: opts.outDir,
            log,
          }),
        );
      }
    }
    // Ingestion writes: it runs after the reads and removes what it added.
    if (wanted('ingest')) {
      extras.ingestion = await attempt('ingest', () =>
        measureIngestion({
          rootDir: ROOT_DIR,
          dataDir: dataset.dir,
          target: dataset.target,
          api,
          driver,
          token,
          caller,
          settings: opts.settings,
          clock,
          log,
        }),
      );
    }
    // Issue 37's Bulk export, beside the driver's read-and-serialise rate, then ingestion during exports
    // (it writes readings and removes them, as the ingest phase does).
    if (fhirWanted(FHIR_EXPORT_ID))
      extras.fhirExport = await attempt(FHIR_EXPORT_ID, () =>
        measureFhirExport({
          api,
          driver,
          staffToken: token,
          caller,
          settings: opts.settings,
          clock,
          dataDir: dataset.dir,
          log,
        }),
      );
    // Issue 51: one consultation's RDA built and validated, then a backlog of 10,000 drained beside
    // ingestion (it writes readings and RDAs and removes them). The product's code runs in this
    // process on the same data set for both (bench/rda.ts).
    if (wanted(RDA_BUILD_ID) || wanted(RDA_BACKLOG_ID)) {
      let product: RdaProduct | undefined;
      try {
        const consultation: Consultation | undefined = await attempt('rda', async () => {
          product = await openRdaProduct(dataset.dir, opts.dataset.databaseUrl);
          return ensureConsultation({ api, driver, token, caller, clock });
        });
        if (consultation && product) {
          const rda = { product, consultation, driver, settings: opts.settings, log };
          if (wanted(RDA_BUILD_ID)) extras.rdaBuild = await attempt(RDA_BUILD_ID, () => measureRdaBuild(rda));
          if (wanted(RDA_BACKLOG_ID))
            extras.rdaBacklog = await attempt(RDA_BACKLOG_ID, () =>
              measureRdaBacklog({ ...rda, api, token, clock, judged: opts.dataset.patients >= TARGET_PATIENTS_PER_CLIENT }),
            );
        }
      } finally {
        await (product as RdaProduct | undefined)?.close();
      }
    }
    // Issue 39: npm run backup's code path at the data set's size, beside the database's own tool.
    if (wanted('backup')) {
      extras.backup = await attempt('backup', () =>
        measureBackup({
          dataDir: dataset.dir,
          databaseUrl: opts.dataset.databaseUrl,
          databaseBytes: async () =>
            dataset.target.dialect === 'postgres'
              ? Number((await driver.all<{ n: string }>('SELECT pg_database_size(current_database()) AS n'))[0].n)
              : fs.statSync(dataset.target.file).size,
          log,
        }),
      );
    }
    if (opts.scaleOut && wanted('scale-out')) {
      extras.scaleOut = await attempt('scale-out', () =>
        measureScaleOut({
          rootDir: ROOT_DIR,
          dataDir: dataset.dir,
          databaseUrl: opts.dataset.databaseUrl!,
          driver,
          api,
          token,
          caller,
          connections: opts.settings.connections,
          seconds: opts.settings.seconds,
          warmupSeconds: opts.settings.warmupSeconds,
          minSeconds: 130,
          markers: 100,
          clock,
          log,
        }),
      );
    }
  } finally {
    await driver.close();
    await api.stop();
    process.removeListener('SIGINT', stopOnSignal);
  }

  if (failedPhases.length) extras.failedPhases = failedPhases;
  const partial: Omit<Results, 'rows'> = {
    date: new Date().toISOString(),
    runSeconds: (performance.now() - started) / 1000,
    machine: describeMachine(),
    database: { dialect: opts.dataset.dialect, version, layout },
    dataset: {
      ...dataset.manifest,
      options: { ...dataset.manifest.options, databaseUrl: redactPassword(dataset.manifest.options.databaseUrl) },
      reused: dataset.reused,
      folder: path.relative(ROOT_DIR, dataset.dir),
    },
    settings: opts.settings,
    scenarios: scenarioResults,
    contention,
    extras,
    memory: { idleBytes, peakBytes: api.memory.peakBytes(), highWaterBytes: api.memory.highWaterBytes(), perPhase: api.memory.peaks() },
  };
  const results: Results = { ...partial, rows: buildRows(partial) };
  const files = writeReport(opts.outDir, results);
  log(
    `Listo en ${(results.runSeconds / 60).toFixed(1)} min: ${path.relative(ROOT_DIR, files.markdown)}, ${path.relative(ROOT_DIR, files.json)}`,
  );
  for (const row of results.rows.filter((r) => r.figure !== 'pendiente'))
    log(`  ${row.result.padEnd(8)} ${row.what}: ${row.figure} (base ${row.baseline})`);
  for (const f of failedPhases) log(`  FALLÓ    fase ${f.phase}: ${f.error}`);
  if (failedPhases.length) process.exitCode = 1;
  // CI's small run (issue 52): a ratio row far below where it stands fails the run (bench/tripwires.ts).
  if (opts.tripwires) {
    const trips = checkTripwires(results, readReference(path.join(ROOT_DIR, 'bench', 'tripwires.json')));
    for (const t of trips)
      log(
        `  ${t.tripped === null ? 'sin medir' : t.tripped ? 'DISPARADO' : 'ok'.padEnd(9)} tripwire ${t.what}: ${t.figure} (límite ${t.limit})`,
      );
    if (trips.some((t) => t.tripped)) {
      log('Un tripwire se disparó: la corrida falla (bench/README.md, Tripwires in CI)');
      process.exitCode = 1;
    }
  }
}

/** The last line logged: where a run stood if it stops without an error. */
let lastLine = '(nada aún)';
let finished = false;
// Node exits with code 0 when nothing is left to wait on, even with main() unsettled (a promise
// no I/O will ever settle). A run that ends that way wrote no report: say where it stood and fail.
process.on('beforeExit', () => {
  if (finished) return;
  console.error(
    `[bench] La corrida se detuvo sin error y sin terminar: nada quedaba pendiente tras «${lastLine.trim()}» (recursos: ${process.getActiveResourcesInfo().join(', ') || 'ninguno'})`,
  );
  process.exit(1);
});

main()
  .then(() => {
    finished = true;
  })
  .catch((err) => {
    const cause = err instanceof Error && err.cause ? ` (${err.cause instanceof Error ? err.cause.message : String(err.cause)})` : '';
    console.error(`[bench] ${err instanceof Error ? err.message : String(err)}${cause}`);
    if (process.env.BENCH_DEBUG) console.error(err);
    process.exit(1);
  });

/**
 * Issue 52: a fresh API runs every recurring job of the current slot on its first poll (ANALYZE,
 * the orders' lifecycle, the triage refresh: seconds at 20,000 patients), and the first phase
 * measured ran beside that burst — 77 % of the later phases' rate, on the single-reading row. The
 * phases measure the API at work, not its start: wait until no job has been running for two
 * seconds (at most three minutes), and say how long that took.
 */
async function waitForQuietJobs(driver: Driver, log: (line: string) => void, timeoutMs = 180_000): Promise<void> {
  const start = Date.now();
  let quietSince: number | null = null;
  while (Date.now() - start < timeoutMs) {
    const [row] = await driver.all<{ n: number | string }>("SELECT COUNT(*) AS n FROM jobs WHERE status = 'running'");
    if (Number(row?.n ?? 0) === 0) {
      quietSince ??= Date.now();
      if (Date.now() - quietSince >= 2_000) {
        log(`tareas de arranque terminadas en ${((Date.now() - start) / 1000).toFixed(1)} s: empiezan las mediciones`);
        return;
      }
    } else quietSince = null;
    await new Promise((r) => setTimeout(r, 250));
  }
  log(`las tareas de la API siguen corriendo tras ${timeoutMs / 1000} s: se mide igual`);
}
