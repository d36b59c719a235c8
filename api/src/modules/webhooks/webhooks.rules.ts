import crypto from 'node:crypto';
import { formatWhen } from '@vigia/contract/rules/dates';

/**
 * Webhook signing and delivery policy (D19), as pure functions.
 *
 * Signing follows Standard Webhooks: headers `webhook-id`, `webhook-timestamp` (Unix seconds) and
 * `webhook-signature` = `v1,` + base64(HMAC-SHA256(key, `${id}.${timestamp}.${body}`)). The key is
 * derived from the client's security phrase: key = SHA-256(UTF-8 bytes of the phrase, trimmed).
 * A receiver verifies with any Standard Webhooks library given the secret
 * `whsec_` + base64(SHA-256(phrase)), e.g. in Node:
 *   new Webhook('whsec_' + createHash('sha256').update(phrase).digest('base64')).verify(rawBody, headers)
 * and rejects timestamps more than 5 minutes away (replays) and `webhook-id`s it has already seen.
 */
export function webhookSecret(phrase: string): string {
  return `whsec_${crypto.createHash('sha256').update(phrase.trim(), 'utf8').digest('base64')}`;
}

/** The stable `webhook-id` of an event: the same on every retry and resend. */
export function newWebhookId(): string {
  return `msg_${crypto.randomUUID().replace(/-/g, '')}`;
}

/** Each POST waits this long for an answer. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** Job attempts per delivery: the job queue's back-off (30 s doubling, at most 6 h) spans about 17 h. */
export const DELIVERY_MAX_ATTEMPTS = 12;
/** The webhook is switched off after this many failed attempts in a row... */
export const MAX_CONSECUTIVE_FAILURES = 50;
/** ...or when it has failed without a single success for 24 hours. */
const MAX_FAILING_MS = 24 * 3600_000;

export function shouldSwitchOff(failures: number, failingSince: Date | null, now: Date): boolean {
  if (failures >= MAX_CONSECUTIVE_FAILURES) return true;
  return failingSince != null && now.getTime() - failingSince.getTime() >= MAX_FAILING_MS;
}

/** The visible off-switch reason, dated in the client's zone (D5). */
export function switchOffReason(failures: number, failingSince: Date, lastError: string, timeZone: string): string {
  const since = formatWhen(failingSince, timeZone);
  return `Desactivado automáticamente: ${failures} intentos de entrega fallidos seguidos desde ${since} (último error: ${lastError}). Revise el receptor y pulse 'Validar' para reactivarlo.`.slice(
    0,
    300,
  );
}

/** A short, storable description of what went wrong in one attempt. */
export function attemptError(status: number | null, err: unknown): string {
  if (status != null) return `HTTP ${status}`;
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } } | null;
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return 'tiempo de espera agotado';
  const code = e?.cause?.code ?? '';
  if (code === 'ECONNREFUSED') return 'conexión rechazada';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'no se encontró el servidor';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'la conexión se cerró';
  if (/CERT|SSL|TLS/i.test(code)) return 'certificado TLS no válido';
  if (/bad port/i.test(e?.message ?? '') || /bad port/i.test(e?.cause?.message ?? '')) return 'puerto no permitido';
  return 'error de conexión';
}
