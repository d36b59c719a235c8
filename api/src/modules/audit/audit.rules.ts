/**
 * What an API request means for the audit trail (issue 8), as pure functions: from the route
 * pattern, method and body to the resource, action, where the patient comes from, a short Spanish
 * summary and the redacted changes. The recorder middleware only adds who, when and the INSERT.
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
  | 'sign_out';

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
} as const;
type AuditResource = keyof typeof AUDIT_RESOURCES;

/** The path segment of a collection → its resource. */
const RESOURCE_BY_SEGMENT: Record<string, AuditResource> = {
  patients: 'patient',
  alerts: 'alert',
  alert_entries: 'alert_entry',
  orders: 'order',
  activities: 'activity',
  alarms: 'alarm',
  tags: 'tag',
  users: 'user',
  clients: 'settings',
  measurements: 'measurement',
  observations: 'observation',
  conditions: 'condition',
  clinical_observations: 'clinical_observation',
  caregivers: 'caregiver',
  prompts: 'prompt',
  client_prompts: 'prompt',
  encounters: 'encounter',
  devices: 'device',
  supplies: 'supply',
  stocks: 'stock',
  moves: 'move',
  feedbacks: 'feedback',
  messages: 'message',
};

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
};

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

type Override = Partial<RouteRule> | 'skip';

/**
 * Routes whose meaning the generic reading (collection segment + HTTP verb) gets wrong. 'skip':
 * no change of record (validation, code requests) or high-volume machine traffic (device readings).
 */
const OVERRIDES: Record<string, Override> = {
  'POST /sessions': { resource: 'session', action: 'sign_in', patient: { kind: 'none' } },
  'DELETE /sessions': { resource: 'session', action: 'sign_out', patient: { kind: 'none' } },
  'POST /sso/callback': {
    resource: 'session',
    action: 'sign_in',
    patient: { kind: 'none' },
    summary: 'Inició sesión con el proveedor de identidad',
  },
  'POST /sso/authorize': 'skip',
  'POST /request_otp': 'skip',
  'POST /verify_otp': {
    resource: 'session',
    action: 'sign_in',
    patient: { kind: 'none' },
    summary: 'El paciente inició sesión en el portal',
  },
  'POST /patients/validate': 'skip',
  'POST /devices/:card_id/readings': 'skip',
  'POST /messaging/webhook/:clientId': 'skip',
  'PUT /clients/:id': { resource: 'settings', idParam: 'id', patient: { kind: 'none' } },
  'PATCH /clients/:id': { resource: 'settings', idParam: 'id', patient: { kind: 'none' } },
  'PUT /patients/:id/measurements/:mid': { action: 'delete', summary: 'Anuló la medición' },
  'PUT /patients/:id/alerts/:alertId': { action: 'close' },
  'PATCH /patients/:id/alerts/:alertId': { action: 'close' },
  'POST /patients/:id/alerts/:alertId/alert_entries': {
    summary: 'Registró una evolución de la alerta',
    idParam: 'alertId',
    resource: 'alert',
  },
  'POST /patients/:id/orders/bulk': { resource: 'order', summary: 'Creó varias órdenes' },
  'POST /patients/:id/orders/:orderId/activities': {
    resource: 'activity',
    idParam: 'orderId',
    summary: 'Generó las actividades de la orden',
  },
  'POST /patients/:id/activities/:activityId/confirm': {
    resource: 'activity',
    action: 'confirm',
    idParam: 'activityId',
    summary: 'Confirmó la administración del medicamento',
  },
  'DELETE /patients/:id/portal_lock': {
    resource: 'patient',
    action: 'unlock',
    idParam: 'id',
    summary: 'Desbloqueó el acceso al portal del paciente',
  },
  'POST /patients/:id/messages': { action: 'send' },
  'POST /patients/:id/welcome': { resource: 'message', action: 'send', summary: 'Envió el mensaje de bienvenida' },
  'PUT /patients/:id/sme_info': { resource: 'messaging', idParam: 'id' },
  'PATCH /patients/:id/sme_info': { resource: 'messaging', idParam: 'id' },
  'POST /patients/create_Encounter_vacunation': {
    resource: 'encounter',
    patient: { kind: 'answer', table: 'encounters' },
    summary: 'Registró una vacunación',
  },
  'PUT /encounters/:id': { patient: { kind: 'answer', table: 'encounters', param: 'id' } },
  'PATCH /encounters/:id': { patient: { kind: 'answer', table: 'encounters', param: 'id' } },
  'POST /observations': { resource: 'encounter_observation', patient: { kind: 'answer' } },
  'PUT /observations/:id': { resource: 'encounter_observation', patient: { kind: 'answer', table: 'encounter_observations', param: 'id' } },
  'PATCH /observations/:id': {
    resource: 'encounter_observation',
    patient: { kind: 'answer', table: 'encounter_observations', param: 'id' },
  },
  'POST /devices/:id/secret': { action: 'rotate_secret' },
  'POST /webhooks/deliveries/:id/resend': { resource: 'webhook', action: 'resend', idParam: 'id' },
  // Issue 20: a user's own channels and priorities ('Mis notificaciones').
  'PUT /my_notifications': { resource: 'user', patient: { kind: 'none' }, summary: 'Cambió sus preferencias de notificación' },
  'PATCH /my_notifications': { resource: 'user', patient: { kind: 'none' }, summary: 'Cambió sus preferencias de notificación' },
};

const DEFAULT_ACTION: Record<string, AuditAction> = { POST: 'create', PUT: 'update', PATCH: 'update', DELETE: 'delete' };

/** The generic reading of a route: its last collection segment is the resource, the param after it the row. */
export function ruleFor(method: string, pattern: string): RouteRule | null {
  const m = method.toUpperCase();
  if (!DEFAULT_ACTION[m]) return null;
  const override = OVERRIDES[`${m} ${pattern}`];
  if (override === 'skip') return null;
  const segments = pattern.split('/').filter(Boolean);
  let resource: AuditResource | null = null;
  let idParam: string | undefined;
  for (let i = segments.length - 1; i >= 0; i--) {
    const found = RESOURCE_BY_SEGMENT[segments[i]];
    if (!found) continue;
    resource = found;
    const next = segments[i + 1];
    idParam = next?.startsWith(':') ? next.slice(1) : undefined;
    break;
  }
  const underPatient = segments[0] === 'patients' && segments[1] === ':id';
  const generic: RouteRule = {
    resource: resource ?? 'settings',
    action: DEFAULT_ACTION[m],
    idParam,
    patient: underPatient ? { kind: 'param', param: 'id' } : resource === 'patient' ? { kind: 'answer' } : { kind: 'none' },
  };
  // A route nobody named (a later addition) is still recorded, under its own first segment.
  if (!resource && !override) return { ...generic, resource: 'settings', summary: `${VERB[generic.action]} ${pattern}` };
  return { ...generic, ...(override ?? {}) };
}

/** Fields whose values are secrets (D20 and sign-in material): never stored, whatever the route. */
const SECRET_KEY = /pass(word)?|secret|phrase|otp|token|api[_-]?key|private|credential|authorization|^code$|verifier/i;
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
export function describeRequest(input: AuditInput): AuditDraft | null {
  const rule = ruleFor(input.method, input.pattern);
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
