/**
 * Issue 37's rows for the FHIR API, as an integrator uses it: the benchmark's own API client
 * (fhir-token.ts), an access token from POST /oauth/token, then
 *   - Observation search by patient, code and a 30-day range (`_count=100`), at one connection and
 *     at 10 (FHIR_TARGETS), beside its SQL replayed on the driver (replay.ts);
 *   - Patient search by identifier (`system|value`), beside its SQL on the driver;
 *   - the token endpoint itself (fhir-token.ts).
 * Searches send the API client's token, so their replayed SQL includes what the token costs (the
 * client's row, read on every request by verifyApiClientToken). Inputs are drawn with the data
 * set's seed. The Bulk export's row is not here: it comes with the export (targets.ts marks its place).
 */
import { BLOOD_PRESSURE_PANEL_LOINC, CLINICAL_ELEMENTS, MEASUREMENT_STATUS } from '@vigia/contract/rules/vitals';
import { createRng } from '../seeds/random.js';
import { captureRaw, statementShape, type CaptureOptions } from './capture.js';
import type { Driver } from './driver.js';
import { accessToken, measureToken, registerClient, removeClient, type FhirTokenResult } from './fhir-token.js';
import { measureScenario, type ScenarioResult, type Settings } from './measure.js';
import type { Outcome } from './queries.js';
import { replayWork, storeCaptured, type ReplayScenario } from './replay.js';
import type { ApiProcess } from './server.js';
import { FHIR_IDS, FHIR_TARGETS } from './targets.js';

const LOINC = 'http://loinc.org';
const DAY_MS = 86_400_000;
/** The API's default page (fhir.search.rules.ts DEFAULT_COUNT): the Patient search sends no _count. */
const PATIENT_PAGE = 50;

// ---------------------------------------------------------------- inputs

export interface ObservationInput {
  patientId: number;
  code: string;
  /** The 30-day range, [from, to) as FHIR dates. */
  from: string;
  to: string;
}
export interface IdentifierInput {
  patientId: number;
  system: string;
  value: string;
}

/** The LOINC code a reading of this element is searched by: the panel for blood pressure (fhir.search.ts codeCondition). */
function codeOf(element: number): string {
  if (element === 3 || element === 4) return BLOOD_PRESSURE_PANEL_LOINC;
  return CLINICAL_ELEMENTS.find((e) => e.id === element)!.loinc;
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Seeded draws from client A: 40 patients with readings, each with one of its elements and a
 * 30-day range that holds at least one of those readings, plus 10 ranges of the year-long patient
 * (about 1,600 readings in 30 days at the issue's size: full pages of 100, with a next link), so
 * the p95 covers full pages; and 50 patients' identifiers.
 */
export async function pickFhirSamples(
  driver: Driver,
  clientId: number,
  heavyPatientId: number | null,
  seed: number,
): Promise<{ observations: ObservationInput[]; identifiers: IdentifierInput[] }> {
  const rng = createRng(seed ^ 0x37f1);
  const ids = (await driver.all<{ id: number }>('SELECT id FROM patients WHERE client_id = $1 ORDER BY id', [clientId])).map((r) =>
    Number(r.id),
  );
  const observations: ObservationInput[] = [];
  const windowAround = async (patientId: number, element: number) => {
    const times = await driver.all<{ when: string | Date }>(
      'SELECT "when" FROM measurements WHERE patient_id = $1 AND clinical_element = $2 AND status = $3 ORDER BY "when" DESC LIMIT 500',
      [patientId, element, MEASUREMENT_STATUS.valid],
    );
    if (!times.length) return null;
    const anchor = new Date(rng.pick(times).when).getTime();
    const start = Math.floor(anchor / DAY_MS) * DAY_MS - rng.int(0, 29) * DAY_MS;
    return { patientId, code: codeOf(element), from: dayOf(start), to: dayOf(start + 30 * DAY_MS) };
  };
  for (let tries = 0; observations.length < 40 && tries < 400; tries++) {
    const patientId = rng.pick(ids);
    const elements = await driver.all<{ e: number }>(
      'SELECT DISTINCT clinical_element AS e FROM measurements WHERE patient_id = $1 AND status = $2 ORDER BY clinical_element',
      [patientId, MEASUREMENT_STATUS.valid],
    );
    if (!elements.length) continue;
    const input = await windowAround(patientId, Number(rng.pick(elements).e));
    if (input) observations.push(input);
  }
  if (heavyPatientId)
    for (let k = 0; k < 10; k++) {
      const input = await windowAround(heavyPatientId, 1);
      if (input) observations.splice(Math.floor((observations.length * (k + 0.5)) / 10), 0, input);
    }
  const chosen = rng.sample(ids, Math.min(50, ids.length));
  const rows = await driver.all<{ id: number; nid: string; t: string; c: string }>(
    `SELECT p.id, p.nid, it.code AS t, c.code AS c FROM patients p JOIN id_types it ON it.id = p.id_type JOIN countries c ON c.id = it.country_id
     WHERE p.client_id = $1 AND p.id IN (${chosen.map((_, i) => `$${i + 2}`).join(', ')})`,
    [clientId, ...chosen],
  );
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  const identifiers = chosen
    .filter((id) => byId.has(id))
    .map((id) => {
      const r = byId.get(id)!;
      return { patientId: id, system: `urn:vigia:id-type:${r.c}:${r.t}`, value: r.nid };
    });
  return { observations, identifiers };
}

// ---------------------------------------------------------------- searches

/** The Bundle reduced to what the baseline also answers: its total (when given) and the row ids of its resources. */
function bundleOutcome(_headers: Headers, body: unknown): Outcome {
  const b = body as { total?: number; entry?: Array<{ resource: { resourceType: string; id?: string } }> };
  const ids = (b.entry ?? [])
    .filter((e) => e.resource.resourceType !== 'OperationOutcome')
    .map((e) => Number(/\d+/.exec(e.resource.id!)![0]));
  return { total: b.total ?? null, ids };
}

/**
 * The replayed page statement reduced the same way: it asks for one row more than the page (a
 * next link); without one the search knows its total (fhir.search.ts).
 */
function pageOutcome(table: string, count: number) {
  return (results: Array<{ sql: string; rows: Array<Record<string, unknown>> }>): Outcome => {
    const page = results.find(
      (r) =>
        new RegExp(`FROM\\s+[\`"]?${table}[\`"]?\\s+(AS\\s+)?[\`"]?\\w`, 'i').test(r.sql) && /\bORDER BY\b[^)]*\bLIMIT\b/is.test(r.sql),
    );
    const rows = page?.rows ?? [];
    return { total: rows.length <= count ? rows.length : null, ids: rows.slice(0, count).map((r) => Number(r.id)) };
  };
}

export function buildFhirScenarios(samples: Awaited<ReturnType<typeof pickFhirSamples>>, connections: number) {
  const observation: ReplayScenario<ObservationInput> = {
    id: FHIR_IDS.observation,
    label: 'FHIR Observation search by patient, code and a 30-day range (_count=100, API-client token)',
    endpoint: 'GET /fhir/R4/Observation?patient=&code=http://loinc.org|<code>&date=ge<day>&date=lt<day + 30>&_count=100',
    inputs: samples.observations,
    request: (o) => ({
      method: 'GET',
      path: `/fhir/R4/Observation?${new URLSearchParams([
        ['patient', `Patient/p${o.patientId}`],
        ['code', `${LOINC}|${o.code}`],
        ['date', `ge${o.from}`],
        ['date', `lt${o.to}`],
        ['_count', '100'],
      ]).toString()}`,
    }),
    work: null as never,
    // The issue states the rate at 10 connections, whatever --connections says.
    loadConnections: FHIR_TARGETS.observationConnections,
    p95TargetMs: FHIR_TARGETS.observationP95Ms,
    rpsTarget: FHIR_TARGETS.observationPerSecond,
    replay: new Map(),
    apiOutcome: bundleOutcome,
    baselineOutcome: pageOutcome('measurements', 100),
  };
  const patient: ReplayScenario<IdentifierInput> = {
    id: FHIR_IDS.patient,
    label: 'FHIR Patient search by identifier (system|value, API-client token)',
    endpoint: 'GET /fhir/R4/Patient?identifier=urn:vigia:id-type:<country>:<type>|<number>',
    inputs: samples.identifiers,
    request: (i) => ({
      method: 'GET',
      path: `/fhir/R4/Patient?${new URLSearchParams({ identifier: `${i.system}|${i.value}` }).toString()}`,
    }),
    work: null as never,
    loadConnections: connections,
    p95TargetMs: FHIR_TARGETS.patientP95Ms,
    replay: new Map(),
    apiOutcome: bundleOutcome,
    baselineOutcome: pageOutcome('patients', PATIENT_PAGE),
  };
  observation.work = replayWork(observation);
  patient.work = replayWork(patient);
  return [observation, patient] as Array<ReplayScenario<unknown>>;
}

// ---------------------------------------------------------------- the phase

export interface FhirResult {
  scenarios: ScenarioResult[];
  token: FhirTokenResult | null;
}

/**
 * Registers the benchmark's API client, measures the wanted rows and removes the client (also
 * after a failure), so a reused data set does not collect clients.
 */
export async function measureFhir(deps: {
  api: ApiProcess;
  driver: Driver;
  staffToken: string;
  clientId: number;
  heavyPatientId: number | null;
  seed: number;
  settings: Settings;
  capture: Omit<CaptureOptions, 'token'>;
  nowMs: () => number;
  wanted: (id: string) => boolean;
  log: (line: string) => void;
}): Promise<FhirResult> {
  const { api, driver, settings, log } = deps;
  const client = await registerClient(api.baseUrl, deps.staffToken);
  const out: FhirResult = { scenarios: [], token: null };
  try {
    const samples = await pickFhirSamples(driver, deps.clientId, deps.heavyPatientId, deps.seed);
    const scenarios = buildFhirScenarios(samples, settings.connections).filter((s) => deps.wanted(s.id));
    for (const s of scenarios) {
      const token = await accessToken(api.baseUrl, client, Math.floor(deps.nowMs() / 1000));
      const requests = s.inputs.map((i) => s.request(i));
      const captured = await captureRaw({ ...deps.capture, token }, requests);
      storeCaptured([s], requests, captured);
      const apiSql = captured[0]
        .map((st) => statementShape(st.sql))
        .filter((sql) => !/^(begin|commit|rollback|start transaction|set |savepoint|release)/.test(sql));
      out.scenarios.push(await measureScenario(s, { api, driver, token, settings, apiSql, log }));
    }
    if (deps.wanted(FHIR_IDS.token)) out.token = await measureToken({ api, client, settings, nowMs: deps.nowMs, log });
  } finally {
    await removeClient(api.baseUrl, deps.staffToken, client.id);
  }
  return out;
}
