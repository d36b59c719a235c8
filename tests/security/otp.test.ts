import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestProduct, createOrg, bearer, patientBody, type TestProduct, type Org } from '../support/product';

/**
 * One-time code attacks (D17, P6, P7): brute force against one document number is stopped by the
 * limits (counted here, then even the right code is refused while locked), and neither the answers
 * nor their timing tell whether a document exists. tests/api/otp.test.ts covers each limit alone.
 */
let clock = new Date('2026-11-21T15:00:00Z');
const advance = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};
let t: TestProduct;
let org: Org;
let ipSeq = 0;
const figures: Record<string, unknown> = {};

const KNOWN = '7300000001';
const KNOWN_PHONE = '3009990001';
const KNOWN_2 = '7300000002';
const KNOWN_2_PHONE = '3009990002';

beforeAll(async () => {
  t = await startTestProduct({ now: () => clock });
  org = await createOrg(t, 'Clinica Codigos');
  for (const [nid, cellphone] of [
    [KNOWN, KNOWN_PHONE],
    [KNOWN_2, KNOWN_2_PHONE],
  ]) {
    const res = await t.http.post('/api/v1/patients').set(bearer(org.tokens.admin)).send(patientBody({ nid, cellphone }));
    expect(res.status).toBe(201);
  }
});
afterAll(async () => {
  console.info(`[security] otp: ${JSON.stringify(figures)}`);
  await t?.stop();
});

/** A new address per call, so the per-address limit never hides the per-document one. */
const request = (nid: string) =>
  t.http
    .post('/api/v1/request_otp')
    .set('X-Forwarded-For', `10.20.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`)
    .send({ nid });
const verify = (nid: string, otp_code: string, challenge_id: string) =>
  t.http.post('/api/v1/verify_otp').set('X-Forwarded-For', '10.30.0.1').send({ nid, otp_code, challenge_id });

async function adminToken() {
  // Staff tokens last an hour; the clock here jumps ahead, so sign in again.
  return (await t.http.post('/api/v1/sessions').send({ email: org.users.admin.email, password: 'Prueba@2026' })).body.token as string;
}

/** The code of the SMS sent to `phone` at the current clock time. */
async function codeFor(phone: string): Promise<string> {
  const token = await adminToken();
  for (let i = 0; i < 500; i++) {
    const res = await t.http.get(`/api/v1/sms_outbox?to=${phone}`).set(bearer(token));
    if (res.body.length && new Date(res.body[0].created_at).getTime() === clock.getTime()) return res.body[0].body.match(/\d{4,8}/)![0];
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('no SMS');
}

const wrongFor = (code: string) => (code === '0000' ? '1111' : '0000');

/**
 * Guess wrong codes, asking for new ones as an attacker would, until the API stops answering 401.
 * For a known document a spare code (never guessed) is kept, to prove it is refused once locked.
 */
async function bruteForce(nid: string, phone: string | null) {
  let guesses = 0;
  let requests = 0;
  let spare: { code: string; challenge: string } | null = null;
  for (let round = 0; round < 20; round++) {
    advance(16 * 60_000); // outside the 15-minute request window, inside the 24-hour failure window
    const req = await request(nid);
    requests++;
    if (req.status === 429) return { guesses, requests, spare };
    expect(req.status).toBe(200);
    const code = phone ? await codeFor(phone) : null;
    if (phone) {
      advance(1000);
      const spareReq = await request(nid);
      requests++;
      expect(spareReq.status).toBe(200);
      spare = { code: await codeFor(phone), challenge: spareReq.body.challenge_id };
    }
    // Guess against the first challenge, avoiding its right code when it is known.
    for (let i = 0; i < 5; i++) {
      const res = await verify(nid, code ? wrongFor(code) : String(1000 + guesses), req.body.challenge_id);
      if (res.status === 429) return { guesses, requests, spare };
      expect(res.status).toBe(401);
      guesses++;
    }
    // Still within the spare code's 5 minutes: is the document locked now?
    const probe = await request(nid);
    requests++;
    if (probe.status === 429) return { guesses, requests, spare };
  }
  throw new Error('never locked');
}

const LOCKED = 'El acceso al portal está bloqueado temporalmente para este documento. Comuníquese con su institución.';

describe('brute force against one document (D17, P7)', () => {
  it('locks a known document after at most 10 wrong codes; then even the right code is refused', async () => {
    const run = await bruteForce(KNOWN, KNOWN_PHONE);
    figures.knownDocument = { wrongGuessesBeforeLock: run.guesses, codeRequests: run.requests };
    expect(run.guesses).toBeLessThanOrEqual(10);
    expect(run.spare, 'a spare code was issued before the lock').not.toBeNull();
    // Locked: a fresh request is refused, and so is the spare code that is still within its 5 minutes.
    const again = await request(KNOWN);
    expect(again.status).toBe(429);
    expect(again.body.message).toBe(LOCKED);
    expect(Number(again.headers['retry-after'])).toBeGreaterThan(3600);
    const right = await verify(KNOWN, run.spare!.code, run.spare!.challenge);
    expect(right.status).toBe(429);
    expect(right.body.message).toBe(LOCKED);
    expect(right.body.token).toBeUndefined();
    // Over a whole day the attacker got at most 10 guesses out of 10^4 codes.
    figures.guessesPerDay = run.guesses;
    figures.successProbabilityPerDay = run.guesses / 10_000;
  });

  it('locks an unknown document the same way (a lockout says nothing about existence)', async () => {
    const run = await bruteForce('7399999999', null);
    figures.unknownDocument = { wrongGuessesBeforeLock: run.guesses, codeRequests: run.requests };
    expect(run.guesses).toBe((figures.knownDocument as { wrongGuessesBeforeLock: number }).wrongGuessesBeforeLock);
    const again = await request('7399999999');
    expect(again.status).toBe(429);
    expect(again.body.message).toBe(LOCKED);
  });

  it('limits code requests per document before any guess: the fourth in 15 minutes is refused', async () => {
    advance(25 * 3600_000);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await request(KNOWN_2)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});

/** Headers that legitimately differ between two answers. */
const VARYING = new Set(['date', 'x-request-id', 'etag', 'ratelimit-reset']);
const headersOf = (res: { headers: Record<string, string> }) =>
  Object.fromEntries(Object.entries(res.headers).filter(([k]) => !VARYING.has(k)));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

describe('no answer tells whether a document exists (D17, P6)', () => {
  it('request_otp: same status, body shape and message, same headers', async () => {
    advance(25 * 3600_000);
    const known = await request(KNOWN_2);
    const unknown = await request('7388888888');
    expect(unknown.status).toBe(known.status);
    expect({ ...unknown.body, challenge_id: 'x' }).toEqual({ ...known.body, challenge_id: 'x' });
    expect(unknown.body.challenge_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(known.body.challenge_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(headersOf(unknown)).toEqual(headersOf(known));
  });

  it('verify_otp with a wrong code: identical status, body and headers', async () => {
    advance(25 * 3600_000);
    const k = await request(KNOWN_2);
    const u = await request('7388888888');
    const known = await verify(KNOWN_2, '0000', k.body.challenge_id);
    const unknown = await verify('7388888888', '0000', u.body.challenge_id);
    expect(unknown.status).toBe(401);
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
    expect(headersOf(unknown)).toEqual(headersOf(known));
  });

  it('timing: medians of 30 requests and 30 verifications differ by less than the noise bound', async () => {
    const N = 30;
    const times = {
      requestKnown: [] as number[],
      requestUnknown: [] as number[],
      verifyKnown: [] as number[],
      verifyUnknown: [] as number[],
    };
    const timed = async (f: () => Promise<unknown>) => {
      const s = process.hrtime.bigint();
      await f();
      return Number(process.hrtime.bigint() - s) / 1e6;
    };
    for (let i = 0; i < N; i++) {
      advance(16 * 60_000);
      // Interleaved, so machine load affects both series alike.
      const pair =
        i % 2
          ? [
              ['Known', KNOWN_2],
              ['Unknown', '7388888888'],
            ]
          : [
              ['Unknown', '7388888888'],
              ['Known', KNOWN_2],
            ];
      for (const [kind, nid] of pair) {
        let challenge = '';
        times[`request${kind}` as 'requestKnown'].push(
          await timed(async () => {
            challenge = (await request(nid)).body.challenge_id;
          }),
        );
        times[`verify${kind}` as 'verifyKnown'].push(await timed(() => verify(nid, '0000', challenge)));
      }
      // The failures would lock both documents after 10: start each day afresh.
      if (i % 3 === 2) advance(25 * 3600_000);
      await new Promise((r) => setTimeout(r, 5)); // let the known document's SMS insert finish
    }
    const m = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, Number(median(v).toFixed(2))]));
    figures.timingMediansMs = m;
    figures.timingSamples = N * 4;
    // Generous bound: 10 ms or half the slower median, whichever is larger; a real oracle (a
    // database write or an SMS send on one side only) costs more than that on this stack.
    const bound = (a: number, b: number) => Math.max(10, Math.max(a, b) / 2);
    expect(Math.abs(m.requestKnown - m.requestUnknown)).toBeLessThan(bound(m.requestKnown, m.requestUnknown));
    expect(Math.abs(m.verifyKnown - m.verifyUnknown)).toBeLessThan(bound(m.verifyKnown, m.verifyUnknown));
  });
});
