/**
 * The baselines written by hand: the statements an endpoint sends to the database, in the same
 * order, run straight on the driver. Before measuring, the harness compares them with the SQL
 * Sequelize logs for the same request (capture.ts) and the baseline's rows with the API's answer, so
 * a drift between this file and a service shows up in the report. Only sign-in is left here (its
 * bcrypt step cannot be replayed); every other read replays the API's own statements (replay.ts).
 *
 * When a service changes its queries, change the function that mirrors it here.
 */
import { randomUUID } from 'node:crypto';
import { verifyPassword } from '../api/src/modules/sessions/passwords.js';
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
  country_id, city_id, time_zone, media_email, media_whatsapp, priority_high, priority_medium, priority_low, break_glass, id_type, nid, profession,
  rethus_number, created_at, updated_at`;

const CLIENT_COLUMNS = `id, name, logo_url, country_id, time_zone, clinical_elements, multipatient, residents_enabled, residents_url,
  residents_user, residents_password, have_metabase, metabase_url, webhook_url, security_phrase, webhook_validated,
  webhook_measurements, webhook_alerts, webhook_failures, webhook_failing_since, webhook_disabled_at, webhook_disabled_reason, escalation_minutes,
  message_full_name, message_rule_name, second_factor_roles, triage_settings, nit, reps_code, provider_class, legal_nature, care_level,
  address, city_id, created_at, updated_at`;

/**
 * POST /api/v1/sessions — sessions.service checkPassword() then openSession(): the user by e-mail, the bcrypt compare at
 * cost 10 on the API's own hashing threads (passwords.ts), whether a second factor is needed (the user's factors,
 * the client's policy: issue 38), the session row with its last use, browser and address (issue 38), the client
 * (buildProfile). queries.test.ts holds these statements to the ones the API sends (issue 52).
 */
export async function signIn(exec: Exec, login: { email: string; password: string }): Promise<Outcome> {
  const [user] = await exec.query<{ id: number; client_id: number; password_hash: string }>(
    'user by e-mail',
    `SELECT ${USER_COLUMNS} FROM users WHERE email = $1 LIMIT 1`,
    [login.email],
  );
  const ok = await exec.step('bcrypt compare (cost 10)', () => verifyPassword(login.password, user.password_hash));
  if (!ok) throw new Error(`La contraseña de ${login.email} no coincide`);
  await exec.query(
    'second factors',
    `SELECT (SELECT COUNT(*) FROM user_totps WHERE user_id = $1 AND confirmed_at IS NOT NULL) AS totp,
       (SELECT COUNT(*) FROM user_passkeys WHERE user_id = $1) AS passkeys,
       (SELECT COUNT(*) FROM user_recovery_codes WHERE user_id = $1 AND used_at IS NULL) AS codes`,
    [user.id],
  );
  await exec.query('second-factor policy', 'SELECT second_factor_roles FROM clients WHERE id = $1', [user.client_id]);
  const now = new Date();
  await exec.query(
    'insert session',
    `INSERT INTO sessions (id, subject_type, subject_id, client_id, expires_at, created_at, last_used_at, user_agent, ip)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      randomUUID(),
      'staff',
      user.id,
      user.client_id,
      new Date(now.getTime() + 12 * 3600_000).toISOString(),
      now.toISOString(),
      now.toISOString(),
      'node',
      '127.0.0.1',
    ],
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
      'Inició sesión',
      JSON.stringify({ email: login.email, password: '••••' }),
      'POST',
      '/sessions',
      201,
      '127.0.0.1',
      now.toISOString(),
    ],
  );
  return { total: null, ids: [Number(user.id)] };
}
