/**
 * Guards of the patient one-time code (D17). The code is short (4 digits by default), so every
 * limit below matters: together they keep an attacker to a few dozen guesses a day per document.
 */
export const OTP_TTL_MS = 5 * 60_000;
export const OTP_MAX_ATTEMPTS_PER_CODE = 5;
const OTP_MAX_FAILURES_PER_DAY = 10;
const OTP_LOCK_MS = 24 * 3600_000;
export const OTP_FAILURE_WINDOW_MS = 24 * 3600_000;
/** Requests: a few per document in 15 minutes (resends), more per address (a shared clinic PC). */
export const OTP_REQUESTS_PER_NID = { limit: 3, windowMs: 15 * 60_000 };
export const OTP_REQUESTS_PER_IP = { limit: 20, windowMs: 3600_000 };
const OTP_ALLOWED_LENGTHS = [4, 5, 6, 7, 8] as const;

export const OTP_MESSAGES = {
  requested: 'Si el documento está registrado, enviaremos un código por SMS al celular registrado.',
  failed: 'Número de documento o código erróneos',
  tooManyRequests: 'Ha solicitado demasiados códigos. Espere unos minutos e intente de nuevo.',
  locked: 'El acceso al portal está bloqueado temporalmente para este documento. Comuníquese con su institución.',
  sms: (code: string) => `Vigía: su código de acceso es ${code}. Vence en 5 minutos. No lo comparta con nadie.`,
} as const;

export function otpLength(setting: string | undefined): number {
  const n = Number(setting ?? 4);
  return (OTP_ALLOWED_LENGTHS as readonly number[]).includes(n) ? n : 4;
}

/** A code of `length` digits from a uniform cryptographic source (`randomInt(max)` → [0, max)). */
export function generateCode(length: number, randomInt: (max: number) => number): string {
  let code = '';
  for (let i = 0; i < length; i++) code += String(randomInt(10));
  return code;
}

export interface RequestCounts {
  nidRequestsInWindow: number;
  ipRequestsInWindow: number;
  lockedUntil: Date | null;
}

export type RequestDecision = { ok: true } | { ok: false; reason: 'locked' | 'rate'; retryAfterMs: number };

export function decideRequest(c: RequestCounts, now: Date, oldestInWindow: { nid: Date | null; ip: Date | null }): RequestDecision {
  if (c.lockedUntil && c.lockedUntil > now) return { ok: false, reason: 'locked', retryAfterMs: c.lockedUntil.getTime() - now.getTime() };
  if (c.nidRequestsInWindow >= OTP_REQUESTS_PER_NID.limit) {
    const from = oldestInWindow.nid?.getTime() ?? now.getTime();
    return { ok: false, reason: 'rate', retryAfterMs: from + OTP_REQUESTS_PER_NID.windowMs - now.getTime() };
  }
  if (c.ipRequestsInWindow >= OTP_REQUESTS_PER_IP.limit) {
    const from = oldestInWindow.ip?.getTime() ?? now.getTime();
    return { ok: false, reason: 'rate', retryAfterMs: from + OTP_REQUESTS_PER_IP.windowMs - now.getTime() };
  }
  return { ok: true };
}

export interface ChallengeState {
  expiresAt: Date;
  attempts: number;
  usedAt: Date | null;
}

/** Whether a code may still be tried against this challenge. */
export function isChallengeOpen(ch: ChallengeState | null, now: Date): boolean {
  return !!ch && !ch.usedAt && ch.expiresAt > now && ch.attempts < OTP_MAX_ATTEMPTS_PER_CODE;
}

/** After recording a failure: lock the document once it has had too many in 24 hours. */
export function lockAfterFailure(failuresInWindow: number, now: Date): Date | null {
  return failuresInWindow >= OTP_MAX_FAILURES_PER_DAY ? new Date(now.getTime() + OTP_LOCK_MS) : null;
}
