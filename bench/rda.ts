/**
 * Issue 51's RDA rows (bench/README.md, 'The RDA phases').
 *
 * rda-build: one closed teleconsultation of the data set (made through the API when the data set has
 * none: the organisation's, the closing user's and the patient's national data filled through the
 * routes that own them, as tests/api/teleconsultations.test.ts does), its RDA de consulta externa
 * built again and again from the product's rows by the product's own code, the steps
 * closeTeleconsultation takes (encounters.rda-inputs.ts, encounters.epicrisis.ts, the FHIR module's
 * ambulatoryDocument), and each Bundle validated against BundleAmbulatoryRDA with the tests'
 * validator (tests/support/rda-validator.ts): p95 of build + validate, beside the SELECTs the input
 * gathering sent (captured from Sequelize's logging) replayed on the bare driver.
 *
 * rda-backlog: 10,000 RDAs of that consultation's Bundle (each with an identifier of its own) kept by
 * the product's recordRda while the organisation has no IHCE settings ('sin enviar'), then the
 * settings saved through `PUT /clients/{id}/ihce` pointing at a loopback platform (ihce-loopback.ts),
 * which queues them all 'pendiente' as the product does when an organisation connects with a
 * backlog. Measured: the drain rate (first to last `sent_at`) and single-reading ingestion at a
 * fixed offered rate during the drain beside the same load alone in the same run.
 */
import crypto from 'node:crypto';
import type { Sequelize } from 'sequelize';
import { ENCOUNTER_STATUS } from '@vigia/contract/rules/encounters';
import { PATIENT_STATUS } from '@vigia/contract/rules/access';
import { rdaComplete } from '@vigia/contract/rules/rda';
import { openDatabase } from '../api/src/db/database.js';
import { initModels } from '../api/src/db/models/index.js';
import { Client } from '../api/src/db/models/clients.model.js';
import { Encounter } from '../api/src/db/models/encounters.model.js';
import { writeTransaction } from '../api/src/db/sql.js';
import { createJobRunner } from '../api/src/jobs/queue.js';
import { loadCatalogues, type Catalogues } from '../api/src/modules/catalogues/catalogues.service.js';
import { consultationGaps, consultationInput, loadConsultationRecords } from '../api/src/modules/encounters/encounters.rda-inputs.js';
import { epicrisisPdf } from '../api/src/modules/encounters/encounters.epicrisis.js';
import { ambulatoryDocument } from '../api/src/modules/fhir/rda.document.js';
import { documentUuids } from '../api/src/modules/fhir/rda.profiles.js';
import { recordRda } from '../api/src/modules/rdas/rdas.service.js';
import { RDA_REASONS } from '../api/src/modules/rdas/rdas.rules.js';
import { loadRdaDefinitions, rdaErrors, rdaProfile, validateRda, type Json } from '../tests/support/rda-validator.js';
import type { RawStatement } from './capture.js';
import type { Driver } from './driver.js';
import { removeReadings } from './fhir-export.js';
import { PEER_CLIENT_ID, PEER_CLIENT_SECRET, PEER_SCOPE, PEER_SUBSCRIPTION_KEY, startLoopbackPlatform } from './ihce-loopback.js';
import { fetchRetrying, runLoad, type HttpRequest, type LoadResult } from './load.js';
import { loadPhase, type Settings } from './measure.js';
import type { Caller } from './queries.js';
import type { ApiProcess, RunClock } from './server.js';
import { summarize } from './stats.js';
import {
  alternatingWindows,
  drainRate,
  drainWindowSeconds,
  poolLoads,
  timeOf,
  withIdentifier,
  type LoadCondition,
  type LoadWindow,
  type RdaBacklogResult,
  type RdaBuildResult,
} from './rda-rows.js';
import { RDA_BACKLOG_ID, RDA_BACKLOG_TARGETS, RDA_BUILD_TARGETS } from './targets.js';

// ---------------------------------------------------------------- the consultation

/** The product's code in this process, on the measured data set (as capture.ts builds its copy). */
export interface RdaProduct {
  sequelize: Sequelize;
  catalogues: Catalogues;
  close(): Promise<void>;
}

export async function openRdaProduct(dataDir: string, databaseUrl: string | null): Promise<RdaProduct> {
  const sequelize = await openDatabase({ dataDir, databaseUrl });
  initModels(sequelize);
  const catalogues = await loadCatalogues(sequelize);
  return { sequelize, catalogues, close: () => sequelize.close() };
}

export interface Consultation {
  clientId: number;
  patientId: number;
  encounterId: number;
  /** Who closed it: the RDA's practitioner. */
  userId: number;
  /** Made in this run (false: one an earlier run left in a reused data set). */
  made: boolean;
}

/** The consultation's own data (the tests' CONSULTATION), complete. */
const CONSULTATION = {
  cups_code: '890301',
  reps_service: '328',
  reason: 'Alerta de presión arterial elevada en el telemonitoreo',
  findings: 'Presión arterial 158/96 mmHg sostenida; sin síntomas de alarma',
  plan: 'Ajustar losartán; control de presión dos veces al día; nueva teleconsulta en 7 días',
  medication_note: 'Losartán 50 mg cada 12 horas',
  diagnoses: [{ code: 'I10X', diagnosis_type: '03' }, { code: 'E119' }],
  risk_factors: [{ code: '06', text: 'Sedentarismo y dieta alta en sodio' }],
};
const SITE_REPS = '110010012302';

async function call(baseUrl: string, token: string, method: string, path: string, body?: unknown, expect = [200, 201]) {
  const res = await fetchRetrying(`${baseUrl}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!expect.includes(res.status)) throw new Error(`${method} ${path} respondió ${res.status}: ${text.slice(0, 500)}`);
  return (text ? JSON.parse(text) : null) as Json;
}

/**
 * A closed teleconsultation of the administrator's organisation with its RDA: the latest an earlier
 * run left (reused data set), else one made now through the API, the parties' data filled first.
 */
export async function ensureConsultation(deps: { api: ApiProcess; driver: Driver; token: string; caller: Caller; clock: RunClock }) {
  const { api, driver, token, caller } = deps;
  const clientId = caller.clientId;
  const [kept] = await driver.all<{ encounter_id: number; patient_id: number; responsible: number }>(
    `SELECT r.encounter_id, r.patient_id, e.responsible FROM rdas r JOIN encounters e ON e.id = r.encounter_id
     WHERE r.client_id = $1 AND r.kind = 'consulta' AND e.status = $2 ORDER BY r.id DESC LIMIT 1`,
    [clientId, ENCOUNTER_STATUS.done],
  );
  if (kept)
    return {
      clientId,
      patientId: Number(kept.patient_id),
      encounterId: Number(kept.encounter_id),
      userId: Number(kept.responsible),
      made: false,
    } satisfies Consultation;

  const [patient] = await driver.all<{ id: number; city_id: number }>(
    `SELECT id, city_id FROM patients WHERE client_id = $1 AND status = ${PATIENT_STATUS.active} AND city_id IS NOT NULL ORDER BY id LIMIT 1`,
    [clientId],
  );
  if (!patient) throw new Error('El conjunto de datos no tiene un paciente activo con ciudad para la teleconsulta');
  const patientId = Number(patient.id);
  const cityId = Number(patient.city_id);
  const client = await call(api.baseUrl, token, 'GET', `/clients/${clientId}`);
  const sites = ((client.sites ?? []) as Json[]).map(({ id, name, reps_site_code, city_id }) => ({ id, name, reps_site_code, city_id }));
  const filled = await call(api.baseUrl, token, 'PATCH', `/clients/${clientId}`, {
    nit: '900123456',
    reps_code: '110010012301',
    provider_class: 'IPS',
    legal_nature: 'PRIV',
    address: 'carrera 7 # 72-41',
    city_id: cityId,
    sites: sites.some((s) => s.reps_site_code === SITE_REPS)
      ? sites
      : [...sites, { name: 'sede telemonitoreo', reps_site_code: SITE_REPS, city_id: cityId }],
  });
  const siteId = Number(((filled.sites ?? []) as Json[]).find((s) => s.reps_site_code === SITE_REPS)!.id);
  await call(api.baseUrl, token, 'PATCH', `/users/${caller.userId}`, {
    id_type: 1,
    nid: '52987654',
    profession: '001',
    rethus_number: '52987654-2015',
  });
  await call(api.baseUrl, token, 'PATCH', `/patients/${patientId}`, {
    biological_sex: '02',
    residence_zone: '01',
    nationality: '170',
    ethnicity: '6',
    disabilities: ['08'],
  });
  const ago = (hours: number) => new Date(deps.clock.now().getTime() - hours * 3_600_000).toISOString();
  const pressure = (await call(api.baseUrl, token, 'POST', `/patients/${patientId}/measurements`, {
    systolic: 158,
    diastolic: 96,
    when: ago(4),
  })) as unknown as Array<{ id: number }>;
  const glucose = (await call(api.baseUrl, token, 'POST', `/patients/${patientId}/measurements`, {
    clinical_element: 6,
    value: 182,
    when: ago(8),
  })) as unknown as Array<{ id: number }>;
  const encounter = await call(api.baseUrl, token, 'POST', `/patients/${patientId}/encounters`, { kind: 'teleconsultation' });
  const encounterId = Number(encounter.id);
  await call(api.baseUrl, token, 'PATCH', `/encounters/${encounterId}/teleconsultation`, {
    ...CONSULTATION,
    site_id: siteId,
    reading_ids: [...pressure, ...glucose].map((m) => Number(m.id)),
  });
  const gaps = await call(api.baseUrl, token, 'GET', `/encounters/${encounterId}/rda_gaps`);
  if (!gaps.complete)
    throw new Error(
      `La teleconsulta del benchmark sigue incompleta: ${((gaps.gaps ?? []) as Json[])
        .filter((g) => g.required)
        .map((g) => g.message)
        .join('; ')}`,
    );
  await call(api.baseUrl, token, 'POST', `/encounters/${encounterId}/close`);
  return { clientId, patientId, encounterId, userId: caller.userId, made: true } satisfies Consultation;
}

/**
 * The consultation's Bundle built as closeTeleconsultation builds it (encounters.teleconsultation.ts):
 * the records, the gaps (none may be required), the builder's input at the close's time, the
 * Epicrisis PDF in the organisation's zone, the document with fresh UUIDs.
 */
export async function buildConsultationRda(p: RdaProduct, c: Consultation): Promise<{ bundle: Json; readMs: number; buildMs: number }> {
  const deps = { sequelize: p.sequelize, catalogues: p.catalogues };
  const t0 = performance.now();
  const e = await Encounter.findOne({ where: { id: c.encounterId, client_id: c.clientId } });
  if (!e) throw new Error(`La teleconsulta ${c.encounterId} no existe`);
  const records = await loadConsultationRecords(deps, e, c.userId);
  const zone = (await Client.findByPk(e.client_id, { attributes: ['time_zone'] }))?.time_zone ?? 'America/Bogota';
  const t1 = performance.now();
  const gaps = consultationGaps(deps, records);
  if (!rdaComplete(gaps))
    throw new Error(
      `Al RDA le falta: ${gaps
        .filter((g) => g.required)
        .map((g) => g.message)
        .join('; ')}`,
    );
  const end = e.checkout ? new Date(e.checkout) : new Date();
  const input = await consultationInput(deps, records, end);
  const bundle = ambulatoryDocument({ ...input, epicrisisPdf: await epicrisisPdf(input, zone) }, { now: end, uuid: documentUuids() });
  const t2 = performance.now();
  return { bundle, readMs: t1 - t0, buildMs: t2 - t1 };
}

// ---------------------------------------------------------------- rda-build

const CONTROL = /^\s*(BEGIN|COMMIT|ROLLBACK|START TRANSACTION|SET |SAVEPOINT|RELEASE)/i;

export async function measureRdaBuild(deps: {
  product: RdaProduct;
  consultation: Consultation;
  driver: Driver;
  settings: Settings;
  log: (line: string) => void;
}): Promise<RdaBuildResult> {
  const { product, consultation: c, driver, log } = deps;
  const T = RDA_BUILD_TARGETS;
  log(
    `RDA de consulta externa de la teleconsulta ${c.encounterId}${c.made ? ' (creada por la API en esta corrida)' : ''}: construir + validar`,
  );
  let t = performance.now();
  loadRdaDefinitions();
  const definitionsSeconds = (performance.now() - t) / 1000;
  log(`  definiciones de la guía cargadas en ${definitionsSeconds.toFixed(1)} s (una vez, fuera de la medición)`);

  // The statements one build sends, as sent: the baseline runs them on the driver.
  const logging = product.sequelize as unknown as { options: { logging: unknown } };
  const captured: RawStatement[] = [];
  logging.options.logging = (sql: string, o?: { bind?: unknown }) =>
    captured.push({
      sql: sql.replace(/^Execut(?:ing|ed) \([^)]*\):\s*/, '').replace(/;\s*$/, ''),
      bind: Array.isArray(o?.bind) ? o.bind : [],
    });
  const warm = await buildConsultationRda(product, c).finally(() => (logging.options.logging = false));
  const statements = captured.filter((s) => !CONTROL.test(s.sql));
  const bundleBytes = Buffer.byteLength(JSON.stringify(warm.bundle));
  validateRda(warm.bundle, rdaProfile('BundleAmbulatoryRDA'));

  const total: number[] = [];
  const build: number[] = [];
  const validate: number[] = [];
  const reads: number[] = [];
  let errors = 0;
  let firstErrors: string[] = [];
  const deadline = performance.now() + T.maxSeconds * 1000;
  while (total.length < T.iterations && (total.length < T.minIterations || performance.now() < deadline)) {
    const built = await buildConsultationRda(product, c);
    t = performance.now();
    const found = rdaErrors(validateRda(built.bundle, rdaProfile('BundleAmbulatoryRDA')));
    const v = performance.now() - t;
    const b = built.readMs + built.buildMs;
    build.push(b);
    reads.push(built.readMs);
    validate.push(v);
    total.push(b + v);
    if (found.length) {
      errors += found.length;
      if (!firstErrors.length) firstErrors = found.slice(0, 3).map((i) => `${i.path}: ${i.message}`);
    }
  }
  // The baseline: the same SELECTs on the bare driver, back to back, as many times (at least 50).
  const base: number[] = [];
  for (let i = 0; i < Math.max(50, total.length); i++) {
    t = performance.now();
    for (const s of statements) await driver.all(s.sql, s.bind);
    base.push(performance.now() - t);
  }
  const result: RdaBuildResult = {
    encounterId: c.encounterId,
    made: c.made,
    iterations: total.length,
    bundleBytes,
    entries: ((warm.bundle.entry ?? []) as unknown[]).length,
    definitionsSeconds,
    total: summarize(total),
    build: summarize(build),
    validate: summarize(validate),
    reads: summarize(reads),
    errors,
    firstErrors,
    baseline: { statements: statements.length, latency: summarize(base) },
  };
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  log(
    `  ${result.iterations} veces: construir + validar p95 ${ms(result.total.p95)} (construir ${ms(result.build.p95)}, de ello lecturas ${ms(result.reads.p95)}; validar ${ms(result.validate.p95)}); ${result.entries} entradas, ${(bundleBytes / 1024).toFixed(0)} KB; errores de validación ${errors}`,
  );
  log(`  base: sus ${statements.length} SELECT en el driver p95 ${ms(result.baseline.latency.p95)}`);
  if (errors) log(`  AVISO: el RDA no valida: ${firstErrors.join(' | ')}`);
  return result;
}

// ---------------------------------------------------------------- rda-backlog

/** Rows per INSERT of the bulk (× 6 values, then × 2 for the documents: within SQLite's and pg's parameter limits). */
const INSERT_BATCH = 50;
/** Documents of the backlog recorded through recordRda itself, after the bulk (its cost at that size). */
const RECORD_SAMPLE = 200;
const BULK_INSERT = `INSERT INTO rdas (client_id, patient_id, encounter_id, kind, identifier, version, status, status_reason,
  attempts, created_at, updated_at) VALUES`;
/** Each version's document beside it, as recordRda's second INSERT (migration 0041). */
const BULK_DOCUMENTS = 'INSERT INTO rda_documents (rda_id, bundle) VALUES';

/** A bound time as Sequelize writes it: SQLite keeps '2026-11-21 12:00:00.000 +00:00' text, pg a timestamp. */
function sqlTime(driver: Driver, at: Date): string | Date {
  if (driver.dialect === 'postgres') return at;
  const iso = at.toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)} +00:00`;
}
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const readingValue = (k: number) => (k % 20 === 19 ? 130 : 60 + (k % 40));

async function maxId(driver: Driver, table: string): Promise<number> {
  const [row] = await driver.all<{ m: number | null }>(`SELECT MAX(id) AS m FROM ${table}`);
  return Number(row?.m ?? 0);
}

async function countSent(driver: Driver, clientId: number, afterId: number): Promise<number> {
  const [row] = await driver.all<{ n: number }>("SELECT COUNT(*) AS n FROM rdas WHERE client_id = $1 AND id > $2 AND status = 'enviado'", [
    clientId,
    afterId,
  ]);
  return Number(row.n);
}

export async function measureRdaBacklog(deps: {
  api: ApiProcess;
  product: RdaProduct;
  consultation: Consultation;
  driver: Driver;
  token: string;
  settings: Settings;
  clock: RunClock;
  /** The data set is at the size the issue states its targets for: each load lasts at least T.judgedSeconds. */
  judged: boolean;
  log: (line: string) => void;
}): Promise<RdaBacklogResult> {
  const { api, product, consultation: c, driver, token, settings, log } = deps;
  const T = RDA_BACKLOG_TARGETS;
  const seconds = deps.judged ? Math.max(settings.seconds, T.judgedSeconds) : settings.seconds;
  const ihce = (body: object) => call(api.baseUrl, token, 'PUT', `/clients/${c.clientId}/ihce`, body);
  const before = {
    measurements: await maxId(driver, 'measurements'),
    alerts: await maxId(driver, 'alerts'),
    rdas: await maxId(driver, 'rdas'),
    jobs: await maxId(driver, 'jobs'),
  };
  const platform = await startLoopbackPlatform();
  try {
    // Without settings the store keeps each document 'sin enviar' and queues nothing.
    await ihce({ enabled: false });
    log(`Cola de ${T.rdas.toLocaleString('en-US')} RDA hacia una plataforma IHCE en loopback (sin validación de perfiles)`);
    const { bundle } = await buildConsultationRda(product, c);
    const bundleBytes = Buffer.byteLength(JSON.stringify(bundle));
    // The bulk by direct SQL of recordRda's shape (its INSERT, 'sin enviar' as the store writes it
    // without settings), RECORD_SAMPLE more through recordRda itself, timed at the backlog's size.
    let t = performance.now();
    const bulk = T.rdas - RECORD_SAMPLE;
    const now = sqlTime(driver, deps.clock.now());
    for (let done = 0; done < bulk; done += INSERT_BATCH) {
      const rows = Math.min(INSERT_BATCH, bulk - done);
      const values: unknown[] = [];
      const tuples: string[] = [];
      for (let k = 0; k < rows; k++) {
        const at = values.length;
        values.push(c.clientId, c.patientId, c.encounterId, crypto.randomUUID(), RDA_REASONS.unconfigured, now);
        const $ = (n: number) => `$${at + n}`;
        tuples.push(`(${$(1)}, ${$(2)}, ${$(3)}, 'consulta', ${$(4)}, 1, 'sin_enviar', ${$(5)}, 0, ${$(6)}, ${$(6)})`);
      }
      const kept = await driver.all<{ id: number; identifier: string }>(
        `${BULK_INSERT} ${tuples.join(', ')} RETURNING id, identifier`,
        values,
      );
      await driver.all(
        `${BULK_DOCUMENTS} ${kept.map((_, k) => `($${2 * k + 1}, $${2 * k + 2})`).join(', ')}`,
        kept.flatMap((r) => [Number(r.id), JSON.stringify(withIdentifier(bundle, r.identifier))]),
      );
    }
    const bulkSeconds = (performance.now() - t) / 1000;
    const jobs = createJobRunner({ sequelize: product.sequelize, now: deps.clock.now, log: () => undefined });
    const store = { sequelize: product.sequelize, jobs, now: deps.clock.now };
    t = performance.now();
    await writeTransaction(product.sequelize, async (tx) => {
      for (let k = 0; k < RECORD_SAMPLE; k++)
        await recordRda(
          store,
          {
            clientId: c.clientId,
            patientId: c.patientId,
            encounterId: c.encounterId,
            kind: 'consulta',
            bundle: withIdentifier(bundle, crypto.randomUUID()),
          },
          tx,
        );
    });
    const recordMs = (performance.now() - t) / RECORD_SAMPLE;
    log(
      `  ${T.rdas.toLocaleString('en-US')} RDA 'sin enviar' de ${(bundleBytes / 1024).toFixed(0)} KB: ${bulk.toLocaleString('en-US')} por SQL directo en ${bulkSeconds.toFixed(1)} s, ${RECORD_SAMPLE} por recordRda a ${recordMs.toFixed(1)} ms cada uno`,
    );

    // Single readings at a fixed rate, alone (the backlog kept, not queued).
    const ids = (
      await driver.all<{ id: number }>(`SELECT id FROM patients WHERE client_id = $1 AND status = ${PATIENT_STATUS.active} ORDER BY id`, [
        c.clientId,
      ])
    ).map((r) => Number(r.id));
    const n = Math.min(200, ids.length);
    const requests: HttpRequest[] = Array.from({ length: n }, (_, k) => ({
      method: 'POST',
      path: `/api/v1/patients/${ids[Math.floor(((k + 0.5) * ids.length) / n)]}/measurements`,
      body: JSON.stringify({ clinical_element: 1, value: readingValue(k) }),
    }));
    const rate = T.ingestRate;
    const connections = Math.max(settings.connections, 20);
    await checkpoint(driver);
    api.memory.setPhase(`${RDA_BACKLOG_ID}-ingest-alone`);
    if (settings.warmupSeconds > 0) await loadPhase(api, token, requests, connections, settings.warmupSeconds, rate);

    // The settings saved: the product queues the backlog and its rda.send pool drains it.
    const rssBefore = api.memory.peaks().find((p) => p.phase === `${RDA_BACKLOG_ID}-ingest-alone`)?.peakBytes ?? 0;
    api.memory.setPhase(`${RDA_BACKLOG_ID}-queue`);
    t = performance.now();
    await ihce({
      enabled: true,
      token_url: platform.tokenUrl,
      base_url: platform.baseUrl,
      client_id: PEER_CLIENT_ID,
      client_secret: PEER_CLIENT_SECRET,
      subscription_key: PEER_SUBSCRIPTION_KEY,
      scope: PEER_SCOPE,
    });
    const queueSeconds = (performance.now() - t) / 1000;
    const [{ n: queuedRows }] = await driver.all<{ n: number }>(
      "SELECT COUNT(*) AS n FROM rdas WHERE client_id = $1 AND id > $2 AND status = 'pendiente'",
      [c.clientId, before.rdas],
    );
    const queued = Number(queuedRows);
    log(`  PUT /clients/${c.clientId}/ihce respondió en ${queueSeconds.toFixed(2)} s: ${queued.toLocaleString('en-US')} RDA 'pendiente'`);
    const windowSeconds = drainWindowSeconds(queued, T.perSecond, seconds);
    while ((await countSent(driver, c.clientId, before.rdas)) === 0 && performance.now() < t + windowSeconds * 1000)
      await new Promise((r) => setTimeout(r, 50));
    const firstSentSeconds = (performance.now() - t) / 1000;
    const rssQueue = api.memory.peaks().find((p) => p.phase === `${RDA_BACKLOG_ID}-queue`)?.peakBytes ?? 0;
    // The loads start once the sender is at work. The queueing transaction (the PUT's, reported
    // above) rewrote every row of the backlog: its WAL is checkpointed first.
    await checkpoint(driver);
    api.memory.setPhase(RDA_BACKLOG_ID);

    // The same load alone and beside the drain, in alternating windows (alternatingWindows): for a
    // window alone the loopback platform holds the sends (the sender's four places wait on it and
    // nothing is written), released for the next. One window of each, one after the other, could
    // not tell 1.2x apart: the load alone's own p99 ranged 20-38 ms between full-size runs.
    const plan = alternatingWindows(seconds);
    let heldMs = 0;
    let heldSince = performance.now();
    platform.hold();
    await new Promise((r) => setTimeout(r, 1000)); // the sends answered before the hold are written
    const windows: LoadWindow[] = [];
    const loads: Record<LoadCondition, LoadResult[]> = { alone: [], during: [] };
    const t0 = performance.now();
    for (const [k, w] of plan.entries()) {
      await new Promise((r) => setTimeout(r, Math.max(0, t0 + w.startSeconds * 1000 - performance.now())));
      const sentBefore = await countSent(driver, c.clientId, before.rdas);
      const load = await runLoad({ baseUrl: api.baseUrl, token, connections, seconds: w.seconds, requests, rate, keepSamples: true });
      const sent = (await countSent(driver, c.clientId, before.rdas)) - sentBefore;
      loads[w.condition].push(load);
      windows.push({
        condition: w.condition,
        startSeconds: w.startSeconds,
        seconds: w.seconds,
        p99: load.latency.p99,
        rps: load.rps,
        sent,
      });
      log(
        `  ventana ${k + 1}/${plan.length} ${w.condition === 'alone' ? 'sola (envíos retenidos)' : 'durante el vaciado'}: p50 ${load.latency.p50.toFixed(2)} · p99 ${load.latency.p99.toFixed(2)} ms (${load.rps.toFixed(0)}/s, ${sent} RDA enviados, no-2xx ${load.non2xx})`,
      );
      const next = plan[k + 1]?.condition ?? 'during';
      if (w.condition === 'alone' && next === 'during') {
        heldMs += performance.now() - heldSince;
        platform.release();
      } else if (w.condition === 'during' && next === 'alone') {
        heldSince = performance.now();
        platform.hold();
      }
    }
    const { samples: _alone, ...alone } = poolLoads(loads.alone);
    const { samples: _during, ...during } = poolLoads(loads.during);
    const sentDuring = windows.filter((w) => w.condition === 'during').reduce((n, w) => n + w.sent, 0);
    const sentAlone = windows.filter((w) => w.condition === 'alone').reduce((n, w) => n + w.sent, 0);
    log(
      `  ingesta a ${rate}/s: sola p99 ${alone.latency.p99.toFixed(2)} ms (${alone.rps.toFixed(0)}/s, ${sentAlone} RDA enviados), durante el vaciado p99 ${during.latency.p99.toFixed(2)} ms (${during.rps.toFixed(0)}/s, ${sentDuring} RDA enviados); plataforma retenida ${(heldMs / 1000).toFixed(0)} s`,
    );
    // The drain is watched for its window after the loads (they held it, or slowed it giving way).
    const until = performance.now() + windowSeconds * 1000;
    let sent = await countSent(driver, c.clientId, before.rdas);
    while (sent < queued && performance.now() < until) {
      await new Promise((r) => setTimeout(r, 250));
      sent = await countSent(driver, c.clientId, before.rdas);
    }
    const sentAt = await driver.all<{ sent_at: string | Date }>(
      "SELECT sent_at FROM rdas WHERE client_id = $1 AND id > $2 AND status = 'enviado'",
      [c.clientId, before.rdas],
    );
    const rateOf = drainRate(
      sentAt.map((r) => timeOf(r.sent_at)),
      heldMs,
    );
    const statuses = Object.fromEntries(
      (
        await driver.all<{ status: string; n: number }>(
          'SELECT status, COUNT(*) AS n FROM rdas WHERE client_id = $1 AND id > $2 GROUP BY status',
          [c.clientId, before.rdas],
        )
      ).map((r) => [r.status, Number(r.n)]),
    );
    const drain = { ...rateOf, windowSeconds, complete: rateOf.sent >= queued, heldSeconds: heldMs / 1000 };
    const rssDrain = api.memory.peaks().find((p) => p.phase === RDA_BACKLOG_ID)?.peakBytes ?? 0;
    log(`  RSS de la API: ${mb(rssBefore)} antes del PUT, pico ${mb(rssQueue)} al encolar, ${mb(rssDrain)} durante el vaciado`);
    log(
      `  vaciado: ${drain.sent.toLocaleString('en-US')} de ${queued.toLocaleString('en-US')} enviados, del primero al último en ${drain.seconds.toFixed(1)} s sin los ${drain.heldSeconds.toFixed(0)} s retenidos = ${drain.perSecond.toFixed(1)}/s (primero a ${firstSentSeconds.toFixed(2)} s del PUT; ventana ${windowSeconds.toFixed(0)} s tras las cargas${drain.complete ? '' : ', sin terminar'}); estados ${JSON.stringify(statuses)}`,
    );
    return {
      rdas: T.rdas,
      bulkSeconds,
      recordMs,
      recordSample: RECORD_SAMPLE,
      bundleBytes,
      queueSeconds,
      queued,
      firstSentSeconds,
      drain,
      statuses,
      platform: { ...platform.counts },
      rss: { beforeBytes: rssBefore, queueBytes: rssQueue, drainBytes: rssDrain },
      ingestion: { rate, connections, seconds, alone, during, windows, sentDuring, sentAlone },
      removedRows: await removeBacklog(api, driver, token, c.clientId, before),
    };
  } finally {
    await platform.close();
  }
}

/** SQLite: the WAL written so far folded into the database, so neither load pays for an earlier bulk write's checkpoint. */
async function checkpoint(driver: Driver) {
  if (driver.dialect === 'sqlite') await driver.all('PRAGMA wal_checkpoint(TRUNCATE)');
}

/**
 * Leaves the data set as it was: the settings off (the rest of the queue then stops at its next
 * try, 'sin enviar'), the send jobs of the backlog and the backlog itself deleted, and the readings
 * the load added (fhir-export.ts removeReadings).
 */
async function removeBacklog(
  api: ApiProcess,
  driver: Driver,
  token: string,
  clientId: number,
  before: { measurements: number; alerts: number; rdas: number; jobs: number },
) {
  await call(api.baseUrl, token, 'PUT', `/clients/${clientId}/ihce`, { enabled: false });
  const jobs = await driver.all<{ id: number }>("DELETE FROM jobs WHERE kind = 'rda.send' AND id > $1 RETURNING id", [before.jobs]);
  // The documents first: SQLite cascades a delete only on a connection with foreign_keys on, and the driver's is off.
  await driver.all('DELETE FROM rda_documents WHERE rda_id IN (SELECT id FROM rdas WHERE client_id = $1 AND id > $2)', [
    clientId,
    before.rdas,
  ]);
  const rdas = await driver.all<{ id: number }>('DELETE FROM rdas WHERE client_id = $1 AND id > $2 RETURNING id', [clientId, before.rdas]);
  return { jobs: jobs.length, rdas: rdas.length, ...(await removeReadings(api, driver, before)) };
}
