/**
 * The read baselines: for each endpoint under load, the statements it sends to the database, in
 * the same order, run straight on the driver. Written by reading the services; before measuring,
 * the harness compares them with the SQL Sequelize logs for the same request (capture.ts) and the
 * baseline's rows with the API's answer, so a drift between this file and a service shows up in
 * the report.
 *
 * Statements the service sends at the same time (Sequelize's findAndCountAll runs its COUNT and
 * its page with Promise.all) are sent at the same time here too: on PostgreSQL they then use two
 * pool connections, on SQLite they share the one connection, as in the API.
 *
 * When a service changes its queries, change the function that mirrors it here.
 */
import { randomUUID } from 'node:crypto';
import { toSearchKey } from '@vigia/contract/rules/names';
import { parsePatientQuery } from '../api/src/modules/patients/patients.rules.js';
import { verifyPassword } from '../api/src/modules/sessions/passwords.js';
import { normaliseNid } from '@vigia/contract/rules/validation';
import type { Row } from './driver.js';

/** Runs one labelled statement (timed per label by the baseline runner), or labelled non-SQL work. */
export interface Exec {
  query<T extends object = Row>(label: string, sql: string, params?: unknown[]): Promise<T[]>;
  step<T>(label: string, work: () => Promise<T>): Promise<T>;
}

/** Who is asking: the benchmark's staff session. */
export interface Caller {
  clientId: number;
  userId: number;
  sessionId: string;
}

/** What both the API and the baseline answered, compared before measuring. */
export interface Outcome {
  total: number | null;
  ids: number[];
}

const USER_COLUMNS = `id, client_id, email, password_hash, first_name, last_name, role_name, status, cellphone, prefix,
  country_id, city_id, time_zone, media_email, media_whatsapp, priority_high, priority_medium, priority_low, created_at, updated_at`;

const PATIENT_COLUMNS = `id, client_id, id_type, nid, first_name, last_name, search_name, country_id, city_id, birth_date, gender,
  blood_type, rh_factor, eapb_id, regime, status, time_zone, clinic_history, address, neighborhood, prefix, cellphone, email,
  card_id, multipatient_card_id, resiplus_data, resiplus_code, resiplus_id, occupation, scholarship, civil_status, deceased_at,
  created_at, updated_at`;

const CLIENT_COLUMNS = `id, name, logo_url, country_id, time_zone, clinical_elements, multipatient, residents_enabled, residents_url,
  residents_user, residents_password, have_metabase, metabase_url, webhook_url, security_phrase, webhook_validated,
  webhook_measurements, webhook_alerts, webhook_failures, webhook_failing_since, webhook_disabled_at, webhook_disabled_reason, created_at, updated_at`;

const PAGE = 20;

const placeholders = (from: number, count: number) => Array.from({ length: count }, (_, i) => `$${from + i}`).join(', ');

const SESSION_USER_COLUMNS = USER_COLUMNS.split(',')
  .map((c) => `u."${c.trim()}" AS "u_${c.trim()}"`)
  .join(', ');

/**
 * Every authenticated request: http/auth.ts reads the session and its user in one statement (the
 * sessions of requests that arrive together share it; alone here, as at one connection).
 */
async function authenticate(exec: Exec, c: Caller) {
  await exec.query(
    'auth: session and user',
    `SELECT s.id, s.subject_type, s.subject_id, s.client_id, s.expires_at, s.revoked_at, ${SESSION_USER_COLUMNS}
     FROM sessions s LEFT JOIN users u ON s.subject_type = 'staff' AND u.id = s.subject_id AND u.client_id = s.client_id
     WHERE s.id IN ($1)`,
    [c.sessionId],
  );
}

/** patients.service tagsOf(): the tags of the patients on the page. */
async function tagsOf(exec: Exec, patientIds: number[]) {
  if (!patientIds.length) return;
  await exec.query(
    'tags of the page',
    `SELECT pt.patient_id, t.id, t.name, t.color FROM patient_tags pt JOIN tags t ON t.id = pt.tag_id WHERE pt.patient_id IN (${placeholders(1, patientIds.length)}) ORDER BY t.name`,
    patientIds,
  );
}

/**
 * GET /api/v1/patients?_start=0&_end=20&status=S — patients.service listPatients(): findAndCountAll
 * (the COUNT and the page, sent together as Sequelize does; it repeats the id sort term), then tagsOf().
 */
export async function listPatientsByStatus(exec: Exec, c: Caller, status: number): Promise<Outcome> {
  await authenticate(exec, c);
  const [[count], rows] = await Promise.all([
    exec.query<{ count: number }>('count', 'SELECT count(*) AS count FROM patients WHERE client_id = $1 AND status = $2', [
      c.clientId,
      status,
    ]),
    exec.query<{ id: number }>(
      'page',
      `SELECT ${PATIENT_COLUMNS} FROM patients WHERE client_id = $1 AND status = $2 ORDER BY id DESC, id DESC LIMIT ${PAGE} OFFSET 0`,
      [c.clientId, status],
    ),
  ]);
  await tagsOf(
    exec,
    rows.map((r) => r.id),
  );
  return { total: Number(count.count), ids: rows.map((r) => Number(r.id)) };
}

/**
 * GET /api/v1/patients?q=Q&_start=0&_end=20 — listPatients() with `q`, parsed by the service's own
 * parsePatientQuery(): a query with a digit is a prefix range on the document; otherwise each word
 * (up to four) must start some word of the name, one range on patient_search_terms per word.
 */
export async function searchPatients(exec: Exec, c: Caller, q: string): Promise<Outcome> {
  await authenticate(exec, c);
  const query = parsePatientQuery(normaliseNid(q), toSearchKey(q));
  let where = 'client_id = $1';
  const params: unknown[] = [c.clientId];
  if (query.kind === 'document') {
    where = 'nid >= $2 AND nid < $3 AND client_id = $1';
    params.push(query.prefix, `${query.prefix}\uffff`);
  } else if (query.kind === 'name') {
    const ranges = query.words.map((word, i) => {
      params.push(word, `${word}\uffff`);
      return `id IN (SELECT patient_id FROM patient_search_terms WHERE client_id = $1 AND term >= $${2 + 2 * i} AND term < $${3 + 2 * i})`;
    });
    where = `(${ranges.join(' AND ')}) AND client_id = $1`;
  }
  const [[count], rows] = await Promise.all([
    exec.query<{ count: number }>('count', `SELECT count(*) AS count FROM patients WHERE ${where}`, params),
    exec.query<{ id: number }>(
      'page',
      `SELECT ${PATIENT_COLUMNS} FROM patients WHERE ${where} ORDER BY id DESC, id DESC LIMIT ${PAGE} OFFSET 0`,
      params,
    ),
  ]);
  await tagsOf(
    exec,
    rows.map((r) => r.id),
  );
  return { total: Number(count.count), ids: rows.map((r) => Number(r.id)) };
}

/**
 * POST /api/v1/sessions — sessions.service createSession(): the user by e-mail, the bcrypt compare at
 * cost 10 on the API's own hashing threads (passwords.ts), the session row (issueToken), the client (buildProfile).
 */
export async function signIn(exec: Exec, login: { email: string; password: string }): Promise<Outcome> {
  const [user] = await exec.query<{ id: number; client_id: number; password_hash: string }>(
    'user by e-mail',
    `SELECT ${USER_COLUMNS} FROM users WHERE email = $1 LIMIT 1`,
    [login.email],
  );
  const ok = await exec.step('bcrypt compare (cost 10)', () => verifyPassword(login.password, user.password_hash));
  if (!ok) throw new Error(`La contraseña de ${login.email} no coincide`);
  const now = new Date();
  await exec.query(
    'insert session',
    'INSERT INTO sessions (id, subject_type, subject_id, client_id, expires_at, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
    [randomUUID(), 'staff', user.id, user.client_id, new Date(now.getTime() + 12 * 3600_000).toISOString(), now.toISOString()],
  );
  await exec.query('client', `SELECT ${CLIENT_COLUMNS} FROM clients WHERE id = $1`, [user.client_id]);
  // The audit trail's row (audit.recorder.ts, every value bound), written after the answer; no resource id or patient.
  await exec.query(
    'audit event',
    `INSERT INTO audit_events (client_id, user_id, actor_kind, action, resource, resource_id, patient_id, summary, changes, method, path, status, ip, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
    [
      user.client_id,
      user.id,
      'staff',
      'sign_in',
      'session',
      null,
      null,
      'Inicio de sesión',
      null,
      'POST',
      '/sessions',
      201,
      '127.0.0.1',
      now.toISOString(),
    ],
  );
  return { total: null, ids: [Number(user.id)] };
}
