import { expressPath } from '@vigia/contract/rules/operations';

/**
 * What an API request means for the audit trail (issue 8), as pure functions: from the operation's
 * `x-audit` (openapi.yaml), the route's parameters and the body to the resource, action, where the
 * patient comes from, a short Spanish summary and the redacted changes. The recorder middleware
 * only adds who, when and the INSERT.
 */

export type AuditAction =
  | 'create'
  | 'update'
  | 'delete'
  | 'close'
  | 'send'
  | 'confirm'
  | 'unlock'
  | 'rotate_secret'
  | 'resend'
  | 'sign_in'
  | 'sign_in_failed'
  | 'sign_out'
  | 'session_ended'
  | 'token_refused'
  | 'password_reset_requested'
  | 'password_reset'
  | 'factor_enrolled'
  | 'factor_removed'
  | 'factors_reset'
  | 'recovery_codes_renewed'
  | 'second_factor_refused'
  | 'token_issued'
  | 'fhir_read'
  | 'fhir_search'
  | 'fhir_export';

export const AUDIT_ACTIONS: readonly AuditAction[] = [
  'create',
  'update',
  'delete',
  'close',
  'send',
  'confirm',
  'unlock',
  'rotate_secret',
  'resend',
  'sign_in',
  'sign_in_failed',
  'sign_out',
  'session_ended',
  'token_refused',
  'password_reset_requested',
  'password_reset',
  'factor_enrolled',
  'factor_removed',
  'factors_reset',
  'recovery_codes_renewed',
  'second_factor_refused',
  'token_issued',
  'fhir_read',
  'fhir_search',
  'fhir_export',
];

/** Resource names with their Spanish noun (article included) for the summary. */
export const AUDIT_RESOURCES = {
  patient: 'el paciente',
  alert: 'la alerta',
  alert_entry: 'una evolución de la alerta',
  order: 'la orden',
  activity: 'la actividad',
  alarm: 'la regla de alarma',
  tag: 'la etiqueta',
  user: 'el usuario',
  settings: 'la configuración de la institución',
  webhook: 'la entrega del webhook',
  measurement: 'la medición',
  observation: 'la nota',
  condition: 'la condición',
  allergy: 'la alergia',
  family_history: 'el antecedente familiar',
  clinical_observation: 'la observación clínica',
  caregiver: 'el cuidador',
  prompt: 'la instrucción del asistente',
  encounter: 'la atención',
  encounter_observation: 'la observación de la atención',
  device: 'el dispositivo',
  supply: 'el insumo',
  stock: 'el inventario',
  move: 'el movimiento de inventario',
  feedback: 'el comentario',
  message: 'el mensaje',
  messaging: 'los datos de mensajería',
  session: 'la sesión',
  factor: 'el segundo factor',
  api_client: 'el cliente de API',
  fhir: 'recursos FHIR',
  fhir_export: 'la exportación FHIR',
  rda: 'el RDA',
  ihce: 'la conexión con la plataforma IHCE',
} as const;
type AuditResource = keyof typeof AUDIT_RESOURCES;

const VERB: Record<AuditAction, string> = {
  create: 'Creó',
  update: 'Actualizó',
  delete: 'Eliminó',
  close: 'Cerró',
  send: 'Envió',
  confirm: 'Confirmó',
  unlock: 'Desbloqueó',
  rotate_secret: 'Generó un secreto nuevo para',
  resend: 'Reenvió',
  sign_in: 'Inició sesión',
  sign_in_failed: 'Intento de inicio de sesión fallido',
  sign_out: 'Cerró sesión',
  session_ended: 'Cerró',
  token_refused: 'Se rechazó el token de una sesión cerrada',
  password_reset_requested: 'Pidió un enlace para restablecer su contraseña',
  password_reset: 'Restableció su contraseña con el enlace recibido por correo',
  factor_enrolled: 'Inscribió',
  factor_removed: 'Quitó',
  factors_reset: 'Restableció',
  recovery_codes_renewed: 'Generó códigos de recuperación nuevos para',
  second_factor_refused: 'Se rechazó un código de',
  token_issued: 'Emitió un token de acceso para',
  fhir_read: 'Leyó',
  fhir_search: 'Buscó',
  fhir_export: 'Inició',
};

/** A read or a search of the FHIR API (issue 37), as its audit event tells it: who, which type, how many. */
export interface FhirAccess {
  action: 'fhir_read' | 'fhir_search';
  type: string;
  /** The resource read; null for a search. */
  id: string | null;
  /** What a search found: this page's resources, the page size asked, the total when it was counted. */
  found?: { shown: number; pageSize: number; total: number | null; countOnly: boolean };
  /** The API client's name; null when a staff user read (the event names the user). */
  apiClient: string | null;
}

/** 'Leyó Patient/p12', 'Buscó 37 Observation (página de hasta 100)', and the API client named as its token_issued event names it. */
export function fhirAccessSummary(a: FhirAccess): string {
  const f = a.found ?? { shown: 0, pageSize: 0, total: null, countOnly: false };
  const total = f.total === null ? '' : `; ${f.total} en total`;
  const what =
    a.action === 'fhir_read'
      ? `${VERB.fhir_read} ${a.type}/${a.id ?? ''}`
      : f.countOnly
        ? `${VERB.fhir_search} ${a.type}: ${f.total ?? 0} en total (solo el recuento)`
        : `${VERB.fhir_search} ${f.shown} ${a.type} (página de hasta ${f.pageSize}${total})`;
  return (a.apiClient === null ? what : `${what}; cliente de API ${a.apiClient}`).slice(0, 300);
}

/**
 * The patient a FHIR read or search was about, for the patient's own 'Auditoría' tab: the one
 * patient every resource answered is (a Patient, or its subject or patient reference `Patient/p12`);
 * null when they are several patients', none's (a Group), or there were none.
 */
export function fhirAccessPatient(
  resources: ReadonlyArray<{ resourceType?: unknown; id?: unknown; subject?: unknown; patient?: unknown }>,
): number | null {
  let found: number | null = null;
  for (const r of resources) {
    const ref =
      r.resourceType === 'Patient'
        ? `Patient/${String(r.id)}`
        : ((r.subject as { reference?: unknown } | undefined)?.reference ?? (r.patient as { reference?: unknown } | undefined)?.reference);
    const m = typeof ref === 'string' ? /^Patient\/p([1-9]\d{0,9})$/.exec(ref) : null;
    const id = m ? Number(m[1]) : null;
    if (id === null || (found !== null && id !== found)) return null;
    found = id;
  }
  return found;
}

/**
 * Where the patient of an event comes from: the `:id` of a `/patients/:id/...` route; otherwise the
 * answer's `patient_id` (or its `id` for a new patient); otherwise this table's row by the route's id.
 */
type PatientSource = { kind: 'param'; param: string } | { kind: 'answer'; table?: string; param?: string } | { kind: 'none' };

export interface RouteRule {
  resource: AuditResource;
  action: AuditAction;
  /** The route parameter naming the changed row; none = the answer's `id`. */
  idParam?: string;
  patient: PatientSource;
  /** A fixed summary instead of '<verb> <resource>'. */
  summary?: string;
}

/** An operation's `x-audit` in openapi.yaml: false (no record), or what its successful answer records. */
export type AuditExtension =
  | false
  | {
      action: AuditAction;
      resource: AuditResource;
      /** The path parameter naming the changed row; none = the answer's `id`. */
      id?: string;
      /** Where the patient comes from: a path parameter, or the answer (else that table's row by a parameter). */
      patient?: { param: string } | { answer: true; table?: string; param?: string };
      summary?: string;
    };

/** Every write operation's rule by `METHOD /express/:path` (null: not recorded). */
export type AuditTable = ReadonlyMap<string, RouteRule | null>;

const WRITE_METHODS = ['post', 'put', 'patch', 'delete'] as const;
const DEFAULT_ACTION: Record<string, AuditAction> = { POST: 'create', PUT: 'update', PATCH: 'update', DELETE: 'delete' };

function ruleOf(operationId: string, ext: AuditExtension): RouteRule | null {
  if (ext === false) return null;
  const wrong = (what: string) => new Error(`openapi.yaml ${operationId}: x-audit ${what}`);
  if (!ext || typeof ext !== 'object') throw wrong('must be false or { action, resource, ... }');
  if (!AUDIT_ACTIONS.includes(ext.action)) throw wrong(`action '${String(ext.action)}' is not an AuditAction`);
  if (!Object.hasOwn(AUDIT_RESOURCES, ext.resource)) throw wrong(`resource '${String(ext.resource)}' is not an AuditResource`);
  const p = ext.patient;
  const patient: PatientSource = !p
    ? { kind: 'none' }
    : 'answer' in p
      ? { kind: 'answer', table: p.table, param: p.param }
      : { kind: 'param', param: p.param };
  return { resource: ext.resource, action: ext.action, idParam: ext.id, patient, summary: ext.summary };
}

/**
 * The audit meaning of every write operation, read once from the operations' `x-audit` (issue 40:
 * the operation says what it records, no table of route strings does). A malformed extension
 * fails here, at start-up.
 */
export function auditTable(paths: Record<string, Record<string, unknown>>): AuditTable {
  const table = new Map<string, RouteRule | null>();
  for (const [path, item] of Object.entries(paths)) {
    for (const method of WRITE_METHODS) {
      const op = item[method] as { operationId?: string; 'x-audit'?: AuditExtension } | undefined;
      if (!op?.operationId || op['x-audit'] === undefined) continue;
      table.set(`${method.toUpperCase()} ${expressPath(path)}`, ruleOf(op.operationId, op['x-audit']));
    }
  }
  return table;
}

/** An operation's rule; a write route the contract does not describe is still recorded, under its own path. */
export function ruleFor(method: string, pattern: string, table: AuditTable): RouteRule | null {
  const m = method.toUpperCase();
  if (!DEFAULT_ACTION[m]) return null;
  const key = `${m} ${pattern}`;
  if (table.has(key)) return table.get(key)!;
  return { resource: 'settings', action: DEFAULT_ACTION[m], patient: { kind: 'none' }, summary: `${VERB[DEFAULT_ACTION[m]]} ${pattern}` };
}

/** Fields whose values are secrets (D20 and sign-in material): never stored, whatever the route. */
const SECRET_KEY =
  /pass(word)?|secret|subscription[_-]?key|phrase|otp|token|api[_-]?key|private|credential|authorization|^code$|recovery_code|verifier/i;
export const REDACTED = '••••';
const MAX_STRING = 200;
const MAX_ITEMS = 20;
const MAX_DEPTH = 4;

function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

/** The body as stored: secrets masked at every depth, long strings and lists cut, deep nesting summarised. */
export function redact(value: unknown, depth = 0): unknown {
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'string') return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}…` : value;
  if (depth >= MAX_DEPTH) return '…';
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ITEMS).map((v) => redact(v, depth + 1));
    if (value.length > MAX_ITEMS) items.push(`… ${value.length - MAX_ITEMS} más`);
    return items;
  }
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      out[k] = isSecretKey(k) && v !== null && v !== '' ? REDACTED : redact(v, depth + 1);
    }
    return out;
  }
  return String(value);
}

const MAX_CHANGES = 4000;

/** The redacted body as JSON text, or null when nothing was sent; never longer than MAX_CHANGES. */
export function changesText(body: unknown): string | null {
  if (body === undefined || body === null || typeof body !== 'object' || Object.keys(body as object).length === 0) return null;
  const text = JSON.stringify(redact(body));
  if (text.length <= MAX_CHANGES) return text;
  return JSON.stringify({ _truncado: true, campos: Object.keys(body as object).slice(0, 50) });
}

/** '<verb> <resource>' plus, for an update, the first fields sent. */
function summarize(rule: RouteRule, body: unknown): string {
  if (rule.summary) return rule.summary;
  if (rule.action === 'sign_in' || rule.action === 'sign_in_failed' || rule.action === 'sign_out') return VERB[rule.action];
  const base = `${VERB[rule.action]} ${AUDIT_RESOURCES[rule.resource]}`;
  if (rule.action !== 'update' || !body || typeof body !== 'object') return base;
  const fields = Object.keys(body as object);
  if (!fields.length) return base;
  const shown = fields.slice(0, 4).join(', ');
  return `${base}: ${shown}${fields.length > 4 ? '…' : ''}`.slice(0, 300);
}

export interface AuditDraft {
  resource: AuditResource;
  action: AuditAction;
  resource_id: string | null;
  /** A number when the route names the patient; 'answer' when it must be read from the answer or the row. */
  patient: number | null | { table?: string; rowId?: string };
  summary: string;
  changes: string | null;
}

export interface AuditInput {
  method: string;
  /** The matched route pattern relative to /api/v1. */
  pattern: string;
  params: Record<string, string | undefined>;
  body: unknown;
  status: number;
}

/**
 * The event a finished request makes, or null: only 2xx changes (a refused request changed nothing),
 * except a refused staff sign-in, which is the event itself.
 */
export function describeRequest(input: AuditInput, table: AuditTable): AuditDraft | null {
  const rule = ruleFor(input.method, input.pattern, table);
  if (!rule) return null;
  const ok = input.status >= 200 && input.status < 300;
  const failedSignIn = rule.action === 'sign_in' && input.status === 401 && input.pattern === '/sessions';
  if (!ok && !failedSignIn) return null;
  const r: RouteRule = failedSignIn ? { ...rule, action: 'sign_in_failed' } : rule;
  const idValue = r.idParam ? input.params[r.idParam] : undefined;
  let patient: AuditDraft['patient'] = null;
  if (r.patient.kind === 'param') {
    const n = Number(input.params[r.patient.param]);
    patient = Number.isInteger(n) && n > 0 ? n : null;
  } else if (r.patient.kind === 'answer') {
    patient = { table: r.patient.table, rowId: r.patient.param ? input.params[r.patient.param] : undefined };
  }
  return {
    resource: r.resource,
    action: r.action,
    resource_id: idValue ? String(idValue).slice(0, 64) : null,
    patient,
    summary: summarize(r, input.body),
    changes: changesText(input.body),
  };
}

const AUDIT_MESSAGES = {
  order: "La fecha 'Hasta' no puede ser anterior a la fecha 'Desde'.",
} as const;

/** 'Hasta' before 'Desde' is refused; both are optional and inclusive. */
export function validateRange(from: string | undefined, to: string | undefined): { field: string; message: string } | null {
  if (from && to && to < from) return { field: 'to', message: AUDIT_MESSAGES.order };
  return null;
}
