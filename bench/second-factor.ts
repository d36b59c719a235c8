/**
 * Issue 38: a staff sign-in with a second factor beside the plain one, on the same account and API.
 * Plain sign-ins first; then the account enrols an authenticator app (its key from the answer), and
 * each sign-in is the password step (202, intermediate token) plus the second step. The second step
 * uses the recovery codes: a TOTP code is accepted once per 30 s step, so only they allow several
 * sign-ins in a row; their check is the same work as a code's (one keyed hash, one conditional
 * UPDATE, the token spent, the session opened). The last code removes the app, so a reused data
 * set signs in as before.
 */
import otplib from 'otplib';
import { fetchRetrying } from './load.js';
import { summarize, type Latency } from './stats.js';

export interface SecondFactorResult {
  plain: Latency;
  twoStep: Latency;
  /** Of the two-step sign-in: the second request alone. */
  secondStep: Latency;
}

const SAMPLES = 9;

async function post(baseUrl: string, path: string, body: unknown, token?: string) {
  const res = await fetchRetrying(`${baseUrl}/api/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

function expectStatus(what: string, got: { status: number; body: unknown }, status: number) {
  if (got.status !== status) throw new Error(`${what}: ${got.status} ${JSON.stringify(got.body)}`);
}

export async function measureSecondFactor(opts: {
  baseUrl: string;
  email: string;
  password: string;
  /** The API's clock (the run's), for the enrolment's first code. */
  nowMs: () => number;
  log: (line: string) => void;
}): Promise<SecondFactorResult> {
  const { baseUrl, email, password } = opts;
  const login = { email, password };
  const plain: number[] = [];
  let token = '';
  for (let i = 0; i < SAMPLES; i++) {
    const t0 = performance.now();
    const res = await post(baseUrl, '/sessions', login);
    plain.push(performance.now() - t0);
    expectStatus('inicio de sesión', res, 201);
    token = String(res.body.token);
  }
  const key = await post(baseUrl, '/me/factors/totp', {}, token);
  expectStatus('clave TOTP', key, 200);
  const code = otplib.authenticator.clone({ epoch: opts.nowMs() }).generate(String(key.body.secret));
  const confirmed = await post(baseUrl, '/me/factors/totp/confirm', { code }, token);
  expectStatus('confirmar TOTP', confirmed, 200);
  const recovery = confirmed.body.recovery_codes as string[];
  const twoStep: number[] = [];
  const second: number[] = [];
  try {
    for (let i = 0; i < SAMPLES; i++) {
      const t0 = performance.now();
      const first = await post(baseUrl, '/sessions', login);
      expectStatus('contraseña (paso 1)', first, 202);
      const t1 = performance.now();
      const done = await post(baseUrl, '/sessions/second-factor', { token: first.body.token, recovery_code: recovery[i] });
      const t2 = performance.now();
      expectStatus('segundo factor (paso 2)', done, 201);
      twoStep.push(t2 - t0);
      second.push(t2 - t1);
    }
  } finally {
    // Also after a failure: a reused data set must sign in with the password alone next time.
    const removed = await post(baseUrl, '/me/factors/totp/remove', { recovery_code: recovery[SAMPLES] }, token);
    expectStatus('quitar TOTP', removed, 200);
  }
  const result = { plain: summarize(plain), twoStep: summarize(twoStep), secondStep: summarize(second) };
  opts.log(
    `Inicio de sesión: ${result.plain.p50.toFixed(1)} ms sin segundo factor, ${result.twoStep.p50.toFixed(1)} ms con código (segundo paso ${result.secondStep.p50.toFixed(1)} ms), p50 de ${SAMPLES}`,
  );
  return result;
}

/** The report's row: the two-step sign-in beside the plain one (no target: shown, not judged). */
export function secondFactorRow(r: SecondFactorResult) {
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  return {
    what: `Staff sign-in with a second factor (password step 202 + recovery-code step; second step alone p50 ${ms(r.secondStep.p50)}), ${r.twoStep.count} sequential, p50 (p95 ${ms(r.twoStep.p95)})`,
    target: '—',
    figure: ms(r.twoStep.p50),
    baseline: `${ms(r.plain.p50)} (plain sign-in, same account, p95 ${ms(r.plain.p95)})`,
    ratio: `${(r.twoStep.p50 / r.plain.p50).toFixed(2)}×`,
    ok: null,
  };
}
