import type { components } from '@vigia/contract/openapi';
import { canResendRda } from '@vigia/contract/rules/rda';
import { addDays, localToUtc } from '@vigia/contract/rules/dates';
import type { OutcomeIssue } from '../../adapters/ihce.js';
import { giveWayPause, type GiveWay } from '../../jobs/give-way.rules.js';

type RdaIssueDto = components['schemas']['RdaIssue'];

/**
 * The sender's pure rules (issue 51): when a document the platform could not take is tried again,
 * how the Ministry's OperationOutcome issues read in Spanish, and what a document's status says.
 */

/** The first wait after a transient failure; it doubles with each failed try. */
export const RDA_RETRY_BASE_MS = 60_000;
/** The longest wait between two tries: a document is never given up, only spaced out. */
export const RDA_RETRY_MAX_MS = 6 * 3600_000;

/**
 * The wait before try `attempts + 1` after `attempts` tries failed transiently: 1, 2, 4, 8… minutes,
 * at most 6 hours; the platform's Retry-After when it asks for longer (never beyond the maximum).
 */
export function rdaRetryDelayMs(attempts: number, retryAfterMs: number | null = null): number {
  const backoff = Math.min(RDA_RETRY_BASE_MS * 2 ** Math.max(0, Math.min(attempts, 30) - 1), RDA_RETRY_MAX_MS);
  return Math.min(Math.max(backoff, retryAfterMs ?? 0), RDA_RETRY_MAX_MS);
}

/** What an issue code means, when the platform sent no text of its own (FHIR issue-type). */
const ISSUE_CODE_TEXT: Record<string, string> = {
  required: 'Falta un elemento obligatorio.',
  invalid: 'El documento no es válido.',
  structure: 'La estructura del documento no es válida.',
  value: 'Un valor no es válido.',
  invariant: 'El documento no cumple una regla del perfil.',
  'code-invalid': 'Un código no pertenece a la lista que exige el perfil.',
  duplicate: 'La plataforma ya tiene un documento con este identificador.',
  'not-found': 'La plataforma no encontró un recurso al que el documento hace referencia.',
  security: 'La plataforma no permite esta operación a la institución.',
  processing: 'La plataforma no pudo procesar el documento.',
};
const SEVERITIES = ['fatal', 'error', 'warning', 'information'] as const;

/** One OperationOutcome issue as the API shows it: its text, else its diagnostics, else the code's meaning. */
export function issueOf(i: OutcomeIssue): RdaIssueDto {
  const severity = (SEVERITIES as readonly string[]).includes(i.severity ?? '') ? (i.severity as RdaIssueDto['severity']) : 'error';
  const code = typeof i.code === 'string' && i.code ? i.code : 'processing';
  const text = [i.details?.text, i.diagnostics].find((t) => typeof t === 'string' && t.trim());
  const location = [...(i.expression ?? []), ...(i.location ?? [])].find((l) => typeof l === 'string' && l.trim()) ?? null;
  return {
    severity,
    code,
    location,
    message: (text ?? ISSUE_CODE_TEXT[code] ?? 'La plataforma señaló un problema en el documento.').slice(0, 1000),
  };
}

/** The issues kept for a refusal (at most 100: a document refused for more is refused all the same). */
export const issuesOf = (issues: OutcomeIssue[]): RdaIssueDto[] => issues.slice(0, 100).map(issueOf);

export const RDA_REASONS = {
  unconfigured:
    'La institución no ha configurado la conexión con la plataforma IHCE. El RDA se enviará cuando la configure en Integraciones → IHCE.',
  refused: 'La plataforma IHCE rechazó el documento. Revise cada problema señalado.',
  retry: (reason: string) => `${reason} Se intentará de nuevo automáticamente.`,
  invalidBundle: 'El documento no es un Bundle FHIR de tipo document con su identificador (Bundle.identifier.value, un UUID).',
} as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** The identifier of a built RDA Bundle (its `identifier.value`), or null when the Bundle is not one. */
export function rdaIdentifierOf(bundle: unknown): string | null {
  if (typeof bundle !== 'object' || bundle === null) return null;
  const b = bundle as { resourceType?: unknown; type?: unknown; identifier?: { value?: unknown } };
  if (b.resourceType !== 'Bundle' || b.type !== 'document') return null;
  const value = b.identifier?.value;
  return typeof value === 'string' && UUID.test(value) ? value.toLowerCase() : null;
}

/** Which statuses a 'Reenviar' may start from: the contract's rule, the one the RDA screens ask too. */
export const canResend = canResendRda;

/**
 * A patient's statement is written at most once per slot of this length: a nurse entering five
 * allergies and two family members in a minute writes one document, not seven, each a version the
 * platform keeps.
 */
export const RDA_STATEMENT_SETTLE_MS = 5 * 60_000;

/** When the statement of a change made at `at` is written: the end of its slot (never before `at`). */
export function statementRunAt(at: Date): Date {
  return new Date((Math.floor(at.getTime() / RDA_STATEMENT_SETTLE_MS) + 1) * RDA_STATEMENT_SETTLE_MS);
}

/** An earlier version of a document, as the sender reads it to decide how a later one goes. */
export interface EarlierVersion {
  id: number;
  version: number;
  status: string;
  identifier: string;
  remote_id: string | null;
}

/**
 * How a corrected version (a nota aclaratoria) goes to the platform, from the versions before it:
 * - one of them is still on its way ('pendiente'): it waits, so the platform never receives a
 *   correction before the document it corrects;
 * - else, the newest the platform accepted ('enviado') is the one it corrects:
 *   `$enviar-nota-aclaratoria` on that document's platform id (its identifier when the platform
 *   gave none), and that version turns 'corregido' once the correction is accepted;
 * - none ever reached the platform ('sin enviar', 'rechazado', or retired already): it goes as a
 *   new document (`$enviar-rda-consulta`); the platform never held the others.
 * `retire` lists the versions that will never be sent ('sin enviar', 'rechazado'): they turn
 * 'corregido' when this one goes, so neither a later settings change nor 'Reenviar' sends them.
 */
export type CorrectionRoute =
  | { kind: 'wait'; version: number }
  | { kind: 'nota'; targetId: string; replacedId: number; retire: number[] }
  | { kind: 'first'; retire: number[] };

export function correctionRoute(earlier: EarlierVersion[]): CorrectionRoute {
  const byVersion = [...earlier].sort((a, b) => a.version - b.version);
  const onItsWay = byVersion.filter((v) => v.status === 'pendiente').at(-1);
  if (onItsWay) return { kind: 'wait', version: onItsWay.version };
  const retire = byVersion.filter((v) => v.status === 'sin_enviar' || v.status === 'rechazado').map((v) => v.id);
  const accepted = byVersion.filter((v) => v.status === 'enviado').at(-1);
  if (accepted) return { kind: 'nota', targetId: accepted.remote_id ?? accepted.identifier, replacedId: accepted.id, retire };
  return { kind: 'first', retire };
}

export const CORRECTION_REASONS = {
  waiting: (version: number) =>
    `Esta nota aclaratoria espera a que la plataforma IHCE reciba la versión ${version}; se enviará sola después.`,
  replaced: (version: number) => `Reemplazado por la versión ${version} (nota aclaratoria).`,
  retired: (version: number) =>
    `Reemplazado por la versión ${version} antes de llegar a la plataforma IHCE: no se envía; se envía la versión ${version}.`,
  waitingResend: 'Esta nota aclaratoria espera a que la plataforma IHCE reciba la versión anterior; se enviará sola.',
  alreadyCorrected: 'Esta versión del RDA ya tiene una nota aclaratoria; corrija la más reciente.',
} as const;

/** 'Hasta' before 'Desde' on the RDA list (GET /rdas from/to). */
export const RDA_RANGE_ORDER = "La fecha 'Hasta' no puede ser anterior a la fecha 'Desde'.";

/**
 * The RDA list's 'Desde'/'Hasta' (YYYY-MM-DD, inclusive, days of the organisation's zone, as the
 * inventory's and the audit's day filters read them) as a half-open UTC interval on `created_at`;
 * the field refused when 'Hasta' comes before 'Desde'. The contract has already refused a text that
 * is not a date.
 */
export function rdaDateRange(
  from: string | undefined,
  to: string | undefined,
  zone: string,
): { since: Date | null; before: Date | null } | { field: 'to'; message: string } {
  if (from && to && to < from) return { field: 'to', message: RDA_RANGE_ORDER };
  return {
    since: from ? localToUtc(from, 0, zone) : null,
    before: to ? localToUtc(addDays(to, 1), 0, zone) : null,
  };
}

/**
 * A backlog's sends give way to the readings and screens the process serves (issue 51: 10,000
 * documents queued at once drained at ~190 a second and took the p99 of readings arriving meanwhile
 * from 20 to 35 ms; giving way as the Bulk export does, nine times the send, still 1.45×): after a
 * send, while requests arrive faster than 50 a second, its place of the pool waits 49 times what the
 * send took (at most 5 s), so the sends hold about 2 % of the time then. A document is not urgent to
 * the second; a reading is. Below 50 requests a second the backlog drains flat out.
 */
export const RDA_GIVE_WAY: GiveWay = { busyRequests: 2, busyRate: 50, factor: 49, maxPauseMs: 5000 };
/**
 * The traffic a send gives way to is also counted over the last second, not only during the send:
 * a send to a quick platform takes 10-20 ms, so at 200 readings a second it saw two to four of
 * them, and those that saw two (the threshold) did not pause (36-83 documents went out during a
 * 10-second load at full size, P252, where every send pausing allows about 30).
 */
export const RDA_GIVE_WAY_WINDOW_MS = 1000;

/**
 * The pause after a send that took `workMs`: the larger of what the requests received during the
 * send ask for (a slow send) and what those of the last second ask for (a quick one), the latter
 * judged only on half a second of traffic or more, so a burst of a few requests is not a busy process.
 */
export function rdaSendPause(workMs: number, requestsDuring: number, recent: { requests: number; overMs: number }): number {
  const overWindow = recent.overMs >= RDA_GIVE_WAY_WINDOW_MS / 2 ? giveWayPause(workMs, recent.requests, RDA_GIVE_WAY, recent.overMs) : 0;
  return Math.max(giveWayPause(workMs, requestsDuring, RDA_GIVE_WAY), overWindow);
}
