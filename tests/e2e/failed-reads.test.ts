import { beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page, Route } from 'playwright-core';
import { apiCall, createStaffSession, DEMO_PATIENT, findPatientByNid, listSmsOutbox, readLatestCode } from './support/api';
import { failReadsWhere, openPage, SCREENSHOT_DIR } from './support/browser';
import { useProductInBrowser } from './support/product';
import { expectAccessible } from './support/accessibility';

/**
 * Issue 50 (P212): a read that fails is never shown as an empty list. Each read of each screen
 * that reads data fails in turn (500 from the API), and once the network goes away after the
 * screen loaded; the screen must then say, in place, that it could not read, offer 'Reintentar',
 * and show none of its empty-state texts. On a phone and on a desktop.
 *
 * One server and one browser for the file; one signed-in page per viewport, moved from case to case.
 */

const VIEWPORTS = [
  { name: 'teléfono', width: 390, height: 844 },
  { name: 'escritorio', width: 1440, height: 900 },
] as const;

/** Every empty-state text of the screens below: none may show while their read has failed. */
const EMPTY_TEXTS = {
  openAlerts: 'No existen Alertas por gestionar',
  closedAlerts: 'No hay alertas cerradas',
  assignedAlarms: 'No Hay alertas asignadas',
  ordersToManage: 'No tiene órdenes por programar',
  table: 'No hay datos',
  chart: 'No existen datos que mostrar',
  notFound: 'Página no encontrada',
  patients: 'No hay pacientes en esta lista',
  encounters: 'Sin atenciones registradas',
  triage: 'No hay pacientes que cumplan el filtro',
  managerOpen: 'No hay alertas abiertas',
  activities: 'No hay actividades programadas para este día.',
  indicators: 'Los indicadores aún no se han calculado',
  crudEmpty: 'No hay registros',
  noResults: 'Sin resultados',
  tags: 'Aún no hay etiquetas',
  ordersToRun: 'No hay órdenes por gestionar.',
  alertEntries: 'No existen entradas',
  observations: 'No hay ninguna observación registrada',
  variables: 'No hay variables clínicas disponibles para este paciente.',
  notifications: 'No hay notificaciones',
  unknownMessages: 'No hay mensajes de números desconocidos.',
  fhirExports: 'Aún no hay exportaciones',
  caregivers: 'Sin cuidadores registrados',
  audit: 'No hay eventos de auditoría para mostrar.',
  priorityConditions: 'No refiere antecedentes prioritarios',
  otherConditions: 'Sin otros antecedentes registrados',
  chat: 'No hay mensajes aún',
  chatWelcome: 'Enviar Bienvenida',
  prompts: 'Aún no hay instrucciones',
  sessions: 'No hay sesiones abiertas.',
  webhook: 'No hay un webhook registrado.',
  webhookForm: 'URL Webhook',
  prescription: 'Sin órdenes vigentes',
  history: 'Sin resumen de historia clínica.',
  patientTags: 'Sin etiquetas.',
  factorsOff: 'La verificación en dos pasos está desactivada.',
  breakGlass: 'Ninguna cuenta marcada',
  secondFactorForm: 'Roles que deben usar segundo factor',
  resident: 'El paciente no está asociado a un residente.',
} as const;

interface ReadCase {
  /** The screen and the read, for the failure report. */
  name: string;
  /** The address, relative to the app (the patient's id filled in). */
  path: (ids: Ids) => string;
  /** Which GETs fail: matched against the path and query after /api/v1. */
  read: RegExp;
  /** What the screen must say once the read failed (after react-query's one retry). */
  message: RegExp;
  /** Empty states that must not show. */
  forbidden: string[];
  /** Something the loaded screen shows, to know it has loaded before the network goes (the offline case). */
  loaded: RegExp;
  /** What the user does after the screen opens to reach the read (a tab). */
  prepare?: (page: Page) => Promise<void>;
  /**
   * The read is the page's own record, read once with it: it fails only once the screen has
   * loaded, when it is read again (the network comes back), as a refresh that fails.
   */
  afterLoad?: boolean;
  /** The signed-in user's profile (GET /me) with these settings, for a card shown only with one. */
  profile?: Record<string, unknown>;
  /** The part of the screen that must say it (one card of several fed by the same read); the whole page if none. */
  within?: (page: Page) => Locator;
}

interface Ids {
  patient: number;
  /** An open alert of the demo data, and its patient. */
  alert: number;
  alertPatient: number;
  /** An order of the demo patient. */
  order: number;
}

const FAILED = (what: string) => new RegExp(`No fue posible cargar ${what}\\.`);
/** A refresh that failed: the last data kept, marked with when it was read (or, with nothing worth keeping, failed). */
const STALE_OR_FAILED = (what: string) =>
  new RegExp(`No fue posible cargar ${what}\\.|Datos (de las|del) [^;]+; no fue posible actualizarlos\\.`);
/** A card of the patient page by its title. */
const patientCard = (title: string) => (page: Page) =>
  page.locator('.patient-card').filter({ has: page.locator('.ant-card-head-title', { hasText: new RegExp(`^${title}$`) }) });
/** A card of 'Seguridad' by its title. */
const securityCard = (title: string) => (page: Page) =>
  page.locator('.vigia-security .ant-card').filter({ has: page.locator('.ant-card-head-title', { hasText: title }) });

const STAFF_CASES: ReadCase[] = [
  {
    name: 'Dashboard: alertas por prioridad',
    path: () => '/dashboard',
    read: /^\/reports\/client_alerts_metrics(\?|$)/,
    message: FAILED('las alertas por prioridad'),
    forbidden: [],
    loaded: /Indicadores/,
  },
  {
    name: 'Dashboard: indicadores',
    path: () => '/dashboard',
    read: /^\/reports\/indicators(\?|$)/,
    message: FAILED('los indicadores'),
    forbidden: [EMPTY_TEXTS.indicators],
    loaded: /Indicadores/,
  },
  {
    name: 'Priorización',
    path: () => '/triage',
    read: /^\/triage\?/,
    message: FAILED('la priorización'),
    forbidden: [EMPTY_TEXTS.triage, '0 pacientes'],
    loaded: /pacientes?\b/,
  },
  {
    name: 'Gestor de alertas: abiertas',
    path: () => '/alerts_management',
    read: /^\/reports\/client_alerts_list\?(.*&)?status=active(&|$)/,
    message: FAILED('las alertas abiertas'),
    forbidden: [EMPTY_TEXTS.managerOpen, 'Abiertas (0)'],
    loaded: /Abiertas \(\d+\)/,
  },
  {
    name: 'Gestor de alertas: cerradas',
    path: () => '/alerts_management',
    read: /^\/reports\/client_alerts_list\?(.*&)?status=closed(&|$)/,
    message: FAILED('las alertas cerradas'),
    forbidden: [EMPTY_TEXTS.closedAlerts],
    loaded: /Aplicar Filtros/,
    prepare: (page) => page.getByRole('tab', { name: 'Cerradas' }).click(),
  },
  {
    name: 'Actividades del día',
    path: () => '/activities',
    read: /^\/activities\?/,
    message: FAILED('las actividades'),
    forbidden: [EMPTY_TEXTS.activities, EMPTY_TEXTS.noResults],
    loaded: /Actividades por página/,
  },
  {
    name: 'Gestión de órdenes (lista de la declaración)',
    path: () => '/orders',
    read: /^\/orders\?/,
    message: FAILED('la lista «Gestión de órdenes»'),
    forbidden: [EMPTY_TEXTS.ordersToRun, EMPTY_TEXTS.crudEmpty, EMPTY_TEXTS.noResults],
    loaded: /de \d+|Sin resultados/,
  },
  {
    name: 'Etiquetas (lista de la declaración)',
    path: () => '/tags',
    read: /^\/tags\?/,
    message: FAILED('la lista «Etiquetas»'),
    forbidden: [EMPTY_TEXTS.tags, EMPTY_TEXTS.crudEmpty, EMPTY_TEXTS.noResults],
    loaded: /de \d+|Sin resultados/,
  },
  {
    name: 'Detalle de la orden',
    path: (ids) => `/patients/${ids.patient}/orders/${ids.order}`,
    read: /^\/patients\/\d+\/orders\/\d+$/,
    message: FAILED('la orden'),
    forbidden: [EMPTY_TEXTS.notFound],
    loaded: /Programada|Cancelada|Realizada|Fallida/,
  },
  {
    name: 'Detalle de la orden: actividades',
    path: (ids) => `/patients/${ids.patient}/orders/${ids.order}`,
    read: /^\/patients\/\d+\/orders\/\d+\/activities(\?|$)/,
    message: FAILED('las actividades'),
    forbidden: [EMPTY_TEXTS.notFound],
    loaded: /Programada|Cancelada|Realizada|Fallida/,
  },
  {
    name: 'Notificaciones (solo administradores)',
    path: () => '/notifications',
    read: /^\/notifications\?/,
    message: FAILED('la lista «Notificaciones»'),
    forbidden: [EMPTY_TEXTS.notifications],
    loaded: /Actualizar/,
  },
  {
    name: 'Mensajes de números desconocidos',
    path: () => '/unknown_messages',
    read: /^\/messaging\/unknown_messages\?/,
    message: FAILED('la lista «Mensajes de números desconocidos»'),
    forbidden: [EMPTY_TEXTS.unknownMessages],
    loaded: /mensaje\(s\)|No hay mensajes/,
  },
  {
    name: 'Exportaciones FHIR',
    path: () => '/fhir_exports',
    read: /^\/fhir_exports\?/,
    message: FAILED('la lista «Exportaciones FHIR»'),
    forbidden: [EMPTY_TEXTS.fhirExports],
    loaded: /Nueva exportación/,
  },
  {
    name: 'Detalle de la alerta',
    path: (ids) => `/patients/${ids.alertPatient}/alerts/${ids.alert}`,
    read: /^\/patients\/\d+\/alerts\/\d+$/,
    message: FAILED('la alerta'),
    forbidden: [EMPTY_TEXTS.notFound, EMPTY_TEXTS.alertEntries],
    loaded: /Gestionar alerta/,
  },
  {
    name: 'Pacientes: la lista',
    path: () => '/patients',
    read: /^\/patients\?/,
    message: FAILED('los pacientes'),
    forbidden: [EMPTY_TEXTS.patients],
    loaded: /Pacientes/,
  },
  {
    name: 'Paciente: Atenciones',
    path: (ids) => `/patients/${ids.patient}`,
    read: /^\/patients\/\d+\/encounters(\?|$)/,
    message: FAILED('las atenciones'),
    forbidden: [EMPTY_TEXTS.encounters, EMPTY_TEXTS.notFound],
    loaded: /Atenciones/,
  },
  {
    name: 'Paciente › Signos: las lecturas',
    path: (ids) => `/patients/${ids.patient}?tab=signs`,
    read: /^\/patients\/\d+\/measurements\?/,
    message: /Error al cargar los datos\. Intente nuevamente\./,
    forbidden: [EMPTY_TEXTS.chart, EMPTY_TEXTS.notFound],
    loaded: /Registrar medición/,
  },
  {
    name: 'Paciente › Alertas: abiertas',
    path: (ids) => `/patients/${ids.patient}?tab=alerts`,
    read: /^\/patients\/\d+\/alerts\?(.*&)?status=1(&|$)/,
    message: FAILED('las alertas abiertas'),
    forbidden: [EMPTY_TEXTS.openAlerts, EMPTY_TEXTS.notFound],
    loaded: /Alertas cerradas/,
  },
  {
    name: 'Paciente › Alertas: cerradas',
    path: (ids) => `/patients/${ids.patient}?tab=alerts`,
    read: /^\/patients\/\d+\/alerts\?(.*&)?status=2(&|$)/,
    message: FAILED('las alertas cerradas'),
    forbidden: [EMPTY_TEXTS.closedAlerts, EMPTY_TEXTS.notFound],
    loaded: /Alertas cerradas/,
  },
  {
    name: 'Paciente › Alertas: asignadas',
    path: (ids) => `/patients/${ids.patient}?tab=alerts`,
    read: /^\/patients\/\d+\/alarms$/,
    message: FAILED('las alertas asignadas'),
    forbidden: [EMPTY_TEXTS.assignedAlarms, EMPTY_TEXTS.notFound],
    loaded: /Asignación de alertas/,
  },
  {
    name: 'Paciente › Órdenes: por programar',
    path: (ids) => `/patients/${ids.patient}?tab=orders`,
    read: /^\/patients\/\d+\/orders\?(.*&)?filter=0(&|$)/,
    message: FAILED('las órdenes por programar'),
    forbidden: [EMPTY_TEXTS.ordersToManage, EMPTY_TEXTS.notFound],
    loaded: /Historial/,
  },
  {
    name: 'Paciente › Órdenes: historial',
    path: (ids) => `/patients/${ids.patient}?tab=orders`,
    read: /^\/patients\/\d+\/orders\?(.*&)?filter=3(&|$)/,
    message: FAILED('el historial de órdenes'),
    forbidden: [EMPTY_TEXTS.table, EMPTY_TEXTS.notFound],
    loaded: /Historial/,
  },
  {
    name: 'Paciente › Anotaciones',
    path: (ids) => `/patients/${ids.patient}?tab=observations`,
    read: /^\/patients\/\d+\/observations(\?|$)/,
    message: FAILED('las anotaciones'),
    forbidden: [EMPTY_TEXTS.observations, EMPTY_TEXTS.notFound],
    loaded: /Crear Anotación/,
  },
  {
    name: 'Paciente › Variables',
    path: (ids) => `/patients/${ids.patient}?tab=variables`,
    read: /^\/patients\/\d+\/clinical_observations(\?|$)/,
    message: FAILED('las variables clínicas'),
    forbidden: [EMPTY_TEXTS.variables, EMPTY_TEXTS.notFound],
    loaded: /Registrar valor/,
  },
  {
    name: 'Paciente › Ajustes: cuidadores',
    path: (ids) => `/patients/${ids.patient}?tab=settings`,
    read: /^\/patients\/\d+\/caregivers(\?|$)/,
    message: FAILED('los cuidadores'),
    forbidden: [EMPTY_TEXTS.caregivers, EMPTY_TEXTS.notFound],
    loaded: /Cuidadores/,
  },
  {
    name: 'Paciente › Auditoría',
    path: (ids) => `/patients/${ids.patient}?tab=audit`,
    read: /^\/patients\/\d+\/audit_events(\?|$)/,
    message: FAILED('la auditoría'),
    forbidden: [EMPTY_TEXTS.audit, EMPTY_TEXTS.notFound],
    loaded: /eventos?\b|No hay eventos/,
  },
  {
    name: 'Paciente › Actividades',
    path: (ids) => `/patients/${ids.patient}?tab=activities`,
    read: /^\/patients\/\d+\/activities(\?|$)/,
    message: FAILED('las actividades'),
    forbidden: [EMPTY_TEXTS.notFound],
    loaded: /Programada/,
  },
  {
    // The record's first read: the page says it could not read the patient, never 'Página no encontrada'.
    name: 'Paciente: la ficha (primera lectura)',
    path: (ids) => `/patients/${ids.patient}`,
    read: /^\/patients\/\d+$/,
    message: FAILED('la ficha del paciente'),
    forbidden: [EMPTY_TEXTS.notFound, EMPTY_TEXTS.prescription],
    loaded: /Prescripción actual/,
  },
  {
    name: 'Paciente: Prescripción (la ficha, al actualizarse)',
    path: (ids) => `/patients/${ids.patient}`,
    read: /^\/patients\/\d+$/,
    message: /No fue posible cargar la prescripción\.|Datos (de las|del) [^;]+; no fue posible actualizarlos\./,
    forbidden: [EMPTY_TEXTS.prescription, EMPTY_TEXTS.notFound],
    loaded: /Prescripción actual/,
    afterLoad: true,
  },
  ...(
    [
      ['Datos básicos', 'los datos básicos', []],
      ['Información de contacto', 'la información de contacto', []],
      ['Historia clínica', 'la historia clínica', [EMPTY_TEXTS.history]],
      ['Etiquetas', 'las etiquetas', [EMPTY_TEXTS.patientTags]],
    ] as const
  ).map(([title, what, forbidden]): ReadCase => ({
    name: `Paciente: ${title} (la ficha, al actualizarse)`,
    path: (ids) => `/patients/${ids.patient}`,
    read: /^\/patients\/\d+$/,
    message: STALE_OR_FAILED(what),
    forbidden: [...forbidden, EMPTY_TEXTS.notFound],
    loaded: /Prescripción actual/,
    afterLoad: true,
    within: patientCard(title),
  })),
  {
    name: 'Paciente › Ajustes: residente (la ficha, al actualizarse)',
    path: (ids) => `/patients/${ids.patient}?tab=settings`,
    read: /^\/patients\/\d+$/,
    message: /No fue posible cargar el residente asociado\.|Datos (de las|del) [^;]+; no fue posible actualizarlos\./,
    forbidden: [EMPTY_TEXTS.resident, EMPTY_TEXTS.notFound],
    loaded: /Sistema de residentes/,
    afterLoad: true,
    profile: { residents_enabled: true },
  },
  {
    name: 'Paciente › Antecedentes',
    path: (ids) => `/patients/${ids.patient}?tab=conditions`,
    read: /^\/patients\/\d+\/conditions(\?|$)/,
    message: FAILED('los antecedentes'),
    forbidden: [EMPTY_TEXTS.priorityConditions, EMPTY_TEXTS.otherConditions, EMPTY_TEXTS.notFound],
    loaded: /Otros Antecedentes/,
  },
  {
    name: 'Paciente › Chat',
    path: (ids) => `/patients/${ids.patient}?tab=chat`,
    read: /^\/patients\/\d+\/messages\?/,
    message: FAILED('los mensajes'),
    forbidden: [EMPTY_TEXTS.chat, EMPTY_TEXTS.chatWelcome, EMPTY_TEXTS.notFound],
    loaded: /Última actividad|No hay mensajes aún/,
  },
  {
    name: 'Paciente › Instrucciones IA',
    path: (ids) => `/patients/${ids.patient}?tab=prompts`,
    read: /^\/patients\/\d+\/prompts(\?|$)/,
    message: FAILED('las instrucciones'),
    forbidden: [EMPTY_TEXTS.prompts, EMPTY_TEXTS.notFound],
    loaded: /Activo|Inactivo|Aún no hay instrucciones/,
  },
  {
    name: 'Mis notificaciones',
    path: () => '/my_notifications',
    read: /^\/my_notifications(\?|$)/,
    message: FAILED('sus preferencias de notificación'),
    forbidden: [],
    loaded: /Alertas que quiero recibir/,
  },
  {
    name: 'Sesiones activas',
    path: () => '/sessions',
    read: /^\/sessions\/mine(\?|$)/,
    message: FAILED('sus sesiones'),
    forbidden: [EMPTY_TEXTS.sessions],
    loaded: /Esta sesión/,
  },
  {
    name: 'Seguridad: la verificación en dos pasos',
    path: () => '/security',
    read: /^\/me\/factors$/,
    message: FAILED('su verificación en dos pasos'),
    forbidden: [EMPTY_TEXTS.factorsOff],
    loaded: /Aplicación de autenticación/,
  },
  {
    name: 'Seguridad: la política de segundo factor',
    path: () => '/security',
    read: /^\/clients\/\d+$/,
    message: FAILED('la política de segundo factor'),
    // Not the form with no role ticked: saving it would clear the stored roles.
    forbidden: [EMPTY_TEXTS.secondFactorForm],
    loaded: /Roles que deben usar segundo factor/,
    within: securityCard('Segundo factor obligatorio'),
  },
  {
    name: 'Seguridad: las cuentas de emergencia',
    path: () => '/security',
    read: /^\/users\?/,
    message: FAILED('las cuentas de emergencia'),
    forbidden: [EMPTY_TEXTS.breakGlass],
    loaded: /Cuentas de emergencia/,
    within: securityCard('Cuentas de emergencia'),
  },
  {
    name: 'Webhooks: el receptor',
    path: () => '/webhooks',
    read: /^\/clients\/\d+$/,
    message: FAILED('el webhook'),
    // Neither 'none registered' nor the empty form to register one.
    forbidden: [EMPTY_TEXTS.webhook, EMPTY_TEXTS.webhookForm],
    loaded: /URL Webhook/,
  },
  {
    name: 'Integraciones',
    path: () => '/integrations',
    read: /^\/clients\/\d+$/,
    message: FAILED('la integración'),
    forbidden: [],
    loaded: /Habilitado|Deshabilitado/,
  },
];

/**
 * `FAILED_READS_ONLY=<regexp>` runs only the staff cases whose name matches (a screen being worked
 * on); the portal's and the phone's screenshots run as always. Unset: every case.
 */
const ONLY = process.env.FAILED_READS_ONLY ? new RegExp(process.env.FAILED_READS_ONLY) : null;
const CHOSEN_STAFF_CASES = ONLY ? STAFF_CASES.filter((c) => ONLY.test(c.name)) : STAFF_CASES;

/**
 * At 1440 × 900 one case of each kind of place a failed read is said (a card of the dashboard, a
 * list, a table of the declarative screens, a tab, the charts, the record's first read and its
 * refresh, a detail, a form): every case at 390 × 844, where the layouts are the tightest, and the
 * same components at the desk. The whole walk at both widths took 336-517 s of CI's 80 minutes.
 */
const DESK_CASES = new Set([
  'Dashboard: alertas por prioridad',
  'Priorización',
  'Gestor de alertas: abiertas',
  'Gestión de órdenes (lista de la declaración)',
  'Pacientes: la lista',
  'Detalle de la alerta',
  'Paciente › Signos: las lecturas',
  'Paciente › Alertas: abiertas',
  'Paciente: la ficha (primera lectura)',
  'Paciente: Prescripción (la ficha, al actualizarse)',
  'Seguridad: las cuentas de emergencia',
]);
const casesAt = (width: number) => (ONLY || width === 390 ? CHOSEN_STAFF_CASES : CHOSEN_STAFF_CASES.filter((c) => DESK_CASES.has(c.name)));

const PORTAL_CASES: ReadCase[] = [
  {
    name: 'Portal: la ficha',
    path: () => '/portal_patient',
    read: /^\/patients\/\d+$/,
    message: /No fue posible cargar sus datos\./,
    forbidden: [],
    loaded: /Mis mediciones/,
  },
  // Issue 50: the first thing on the portal; its readings and the alarm rules for their ranges.
  {
    name: 'Portal › Mis últimas mediciones: las lecturas',
    path: () => '/portal_patient',
    read: /^\/patients\/\d+\/measurements\?.*_end=1(&|$)/,
    // Read before on this page (an earlier case), the card keeps that copy, marked (P212).
    message: STALE_OR_FAILED('sus últimas mediciones'),
    forbidden: ['Aún no tiene mediciones registradas.'],
    loaded: /Mis últimas mediciones/,
    within: (page) => page.locator('section.latest'),
  },
  {
    name: 'Portal › Mis últimas mediciones: los rangos',
    path: () => '/portal_patient',
    read: /^\/patients\/\d+\/alarms$/,
    // Read before on this page (an earlier case), the card keeps that copy, marked (P212).
    message: STALE_OR_FAILED('sus últimas mediciones'),
    forbidden: ['Aún no tiene mediciones registradas.'],
    loaded: /Mis últimas mediciones/,
    within: (page) => page.locator('section.latest'),
  },
  {
    name: 'Portal › Glucosa: las lecturas',
    path: () => '/portal_patient',
    read: /^\/patients\/\d+\/measurements\?/,
    message: /Error al cargar los datos\. Intente nuevamente\./,
    forbidden: [EMPTY_TEXTS.chart],
    loaded: /Últimas lecturas|No existen datos que mostrar/,
  },
  {
    name: 'Portal › Glucosa: los rangos de alarma',
    path: () => '/portal_patient',
    read: /^\/patients\/\d+\/alarms\?/,
    message: /No fue posible cargar los rangos de alarma/,
    forbidden: [],
    loaded: /Últimas lecturas|No existen datos que mostrar/,
  },
];

/** Opens the portal's glucose chart (its reads start when it is opened). */
async function openGlucose(page: Page): Promise<void> {
  await page.getByRole('button', { name: /Glucosa/ }).click();
}

/** What is wrong with the screen now, or null once it says the read failed as it must. */
async function problemOf(page: Page, c: ReadCase): Promise<string | null> {
  const part = c.within ? c.within(page) : page.locator('body');
  if (c.within && (await part.count()) !== 1) return `shows ${await part.count()} of the part that must say it`;
  const text = (await part.innerText()).replace(/\s+/g, ' ');
  const shown = c.forbidden.filter((t) => text.includes(t));
  if (shown.length) return `shows the empty state ${shown.map((t) => `'${t}'`).join(', ')}`;
  if (!c.message.test(text)) return `does not say ${c.message}`;
  if (!/Reintentar/.test(text)) return "offers no 'Reintentar'";
  return null;
}

/** Polls the screen until it says what it must (react-query retries a failed read once, 1 s later). */
async function checkScreen(page: Page, c: ReadCase, label: string, problems: string[]): Promise<void> {
  const deadline = Date.now() + 10_000;
  let problem: string | null = 'not checked';
  while (Date.now() < deadline) {
    problem = await problemOf(page, c);
    if (!problem) return;
    await page.waitForTimeout(300);
  }
  problems.push(`${label} ${c.name}: ${problem}`);
}

/** A POST of the patient's sign-in (no token). */
async function post<T>(baseUrl: string, path: string, body: unknown): Promise<T> {
  const response = await fetch(`${baseUrl}/api/v1${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`POST ${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

async function waitForText(page: Page, pattern: RegExp): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (pattern.test(await page.locator('body').innerText())) return;
    await page.waitForTimeout(200);
  }
  throw new Error(`The screen never showed ${pattern}`);
}

describe('Lecturas fallidas (issue 50): nunca como una lista vacía', () => {
  const product = useProductInBrowser();
  const ids: Ids = { patient: 0, alert: 0, alertPatient: 0, order: 0 };
  let staffSession = '';
  let patientSession = '';

  beforeAll(async () => {
    const baseUrl = product.server().baseUrl;
    const session = await createStaffSession(baseUrl);
    staffSession = JSON.stringify(session);
    ids.patient = (await findPatientByNid(baseUrl, session.token, DEMO_PATIENT.nid)).id;
    // An open alert of the demo data, whichever patient it is of.
    const [alert] = await apiCall<{ id: number; patient: { id: number } }[]>(
      baseUrl,
      session.token,
      'GET',
      '/reports/client_alerts_list?status=active&per_page=1',
    );
    ids.alert = alert.id;
    ids.alertPatient = alert.patient.id;
    const [order] = await apiCall<{ id: number }[]>(baseUrl, session.token, 'GET', `/patients/${ids.patient}/orders?filter=3`);
    ids.order = order.id;
    // The patient's own session, as the portal's sign-in leaves it.
    const [previous] = await listSmsOutbox(baseUrl, session.token, DEMO_PATIENT.cellphone);
    const challenge = await post<{ challenge_id: string }>(baseUrl, '/request_otp', { nid: DEMO_PATIENT.nid });
    const { code } = await readLatestCode(baseUrl, session.token, DEMO_PATIENT.cellphone, previous?.id);
    const answer = await post<{ token: string; id: number }>(baseUrl, '/verify_otp', {
      nid: DEMO_PATIENT.nid,
      otp_code: code,
      challenge_id: challenge.challenge_id,
    });
    patientSession = JSON.stringify({ token: answer.token, patient_id: answer.id });
  });

  /** A page of `viewport` with the session in its storage (as a sign-in leaves it). */
  async function sessionPage(viewport: (typeof VIEWPORTS)[number], key: string, value: string): Promise<Page> {
    const page = await openPage(product.browser(), product.server().baseUrl, {
      viewport: { width: viewport.width, height: viewport.height },
    });
    await page.addInitScript({ content: `localStorage.setItem(${JSON.stringify(key)}, ${JSON.stringify(value)});` });
    return page;
  }

  async function runCases(page: Page, cases: ReadCase[], label: string, prepare: (page: Page) => Promise<void> = async () => {}) {
    const problems: string[] = [];
    for (const c of cases) {
      if (c.afterLoad) {
        const me = (url: URL) => url.pathname === '/api/v1/me';
        const withProfile = async (route: Route) => {
          const answer = await route.fetch();
          await route.fulfill({ response: answer, json: { ...(await answer.json()), ...c.profile } });
        };
        if (c.profile) await page.route(me, withProfile);
        await page.goto(c.path(ids));
        await prepare(page);
        await c.prepare?.(page);
        await waitForText(page, c.loaded);
        // A 500 for this read once the screen shows it; react-query reads it again when the network
        // comes back (Refine turns off the read on coming back into view).
        const stop = await failReadsWhere(page, (path) => c.read.test(path));
        await page.context().setOffline(true);
        await page.waitForTimeout(200);
        await page.context().setOffline(false);
        await checkScreen(page, c, `${label} (500)`, problems);
        await stop();
        if (c.profile) await page.unroute(me, withProfile);
        continue;
      }
      // A 500 for this read only, from the first request on.
      const stop = await failReadsWhere(page, (path) => c.read.test(path));
      await page.goto(c.path(ids));
      await prepare(page);
      await c.prepare?.(page);
      await checkScreen(page, c, `${label} (500)`, problems);
      await stop();
    }
    return problems;
  }

  /** The screen loads, then the network goes: every read it shows says it could not be refreshed. */
  async function runOffline(
    page: Page,
    cases: ReadCase[],
    label: string,
    prepare: (page: Page) => Promise<void> = async () => {},
    banner = false,
  ) {
    const problems: string[] = [];
    const offline: ReadCase = {
      name: 'sin conexión',
      path: () => '',
      read: /$^/,
      message: /Sin conexión: no fue posible cargar|sin conexión, no fue posible actualizarlos/,
      forbidden: [],
      loaded: /$^/,
    };
    const paths = [...new Set(cases.map((c) => c.path(ids)))];
    for (const path of paths) {
      const c = cases.find((x) => x.path(ids) === path)!;
      await page.goto(path);
      await prepare(page);
      await c.prepare?.(page);
      await waitForText(page, c.loaded);
      await page.context().setOffline(true);
      // The empty states of every read of the screen, except what is data kept as read: the alert's
      // own entries (part of the alert), the user's factors as they were (off is a real answer), and
      // the policy form with the roles it read.
      const keptAsRead: string[] = [EMPTY_TEXTS.alertEntries, EMPTY_TEXTS.factorsOff, EMPTY_TEXTS.secondFactorForm];
      const forbidden = [...new Set(cases.filter((x) => x.path(ids) === path).flatMap((x) => x.forbidden))].filter(
        (t) => !keptAsRead.includes(t),
      );
      await checkScreen(page, { ...offline, forbidden, name: `${c.name.split(':')[0]} sin conexión` }, label, problems);
      if (banner) {
        // The staff app says it once, above the screen, with the time of its last good read; and
        // goes by itself when the network is back.
        const said = page.getByText(/^Sin conexión: los datos pueden no estar al día\. Última lectura correcta: \d{2}:\d{2}\.$/);
        await said
          .first()
          .waitFor({ timeout: 5_000 })
          .catch(() => undefined);
        const shown = await said.count();
        if (shown !== 1) problems.push(`${label} ${c.name}: the offline banner shows ${shown} times`);
        await page.context().setOffline(false);
        await said.waitFor({ state: 'detached' }).catch(() => problems.push(`${label} ${c.name}: the offline banner stays online`));
      }
      await page.context().setOffline(false);
    }
    return problems;
  }

  for (const viewport of VIEWPORTS) {
    it(`el personal, ${viewport.name} (${viewport.width} × ${viewport.height})`, async () => {
      // A renamed case would leave the desk's walk silently.
      expect(
        STAFF_CASES.filter((c) => DESK_CASES.has(c.name))
          .map((c) => c.name)
          .sort(),
      ).toEqual([...DESK_CASES].sort());
      const page = await sessionPage(viewport, 'vigia.session', staffSession);
      const problems = await runCases(page, casesAt(viewport.width), viewport.name);
      // The network drops on a nurse's phone (issue 50): every screen offline at 390 × 844. At
      // 1440 × 900 the same component says the same, so the desk walks the 500s only (CI's time).
      if (viewport.width === 390) problems.push(...(await runOffline(page, CHOSEN_STAFF_CASES, viewport.name, undefined, true)));
      expect(problems).toEqual([]);
      if (viewport.width === 390) {
        // The header cards once a refresh of the record failed (kept and marked), and 'Seguridad'
        // with every read failed: looked at on a phone, and axe-clean.
        await page.goto(`/patients/${ids.patient}`);
        await waitForText(page, /Prescripción actual/);
        const stopRecord = await failReadsWhere(page, (path) => /^\/patients\/\d+$/.test(path));
        await page.context().setOffline(true);
        await page.waitForTimeout(200);
        await page.context().setOffline(false);
        await waitForText(page, /no fue posible actualizarlos/);
        await page.waitForTimeout(2_500);
        await page.locator('.patient-cards').screenshot({ path: `${SCREENSHOT_DIR}/failed-reads-patient-cards-390.png` });
        await expectAccessible(page);
        await stopRecord();
        const stopSecurity = await failReadsWhere(page, (path) => /^\/(me\/factors|clients\/\d+|users\?)/.test(path));
        await page.goto('/security');
        await waitForText(page, /No fue posible cargar las cuentas de emergencia/);
        await page.waitForTimeout(2_500);
        await page.screenshot({ path: `${SCREENSHOT_DIR}/failed-reads-security-390.png`, fullPage: true });
        await expectAccessible(page);
        await stopSecurity();
        // Every read of the patient's tabs failing at once: looked at on a phone, and axe-clean.
        await failReadsWhere(page, (path) => /^\/patients\/\d+\/(alerts|alarms|orders|activities|measurements)(\?|$)/.test(path));
        for (const tab of ['alerts', 'orders', 'activities', 'signs']) {
          await page.goto(`/patients/${ids.patient}?tab=${tab}`);
          await waitForText(page, /Reintentar/);
          await page.waitForTimeout(2_500); // react-query's retry, then every read of the tab has failed
          await page.locator('.patient-tabs').screenshot({ path: `${SCREENSHOT_DIR}/failed-reads-${tab}-390.png` });
          await expectAccessible(page);
        }
      }
    }, 900_000); // 336 s on CI's machine, 496 s at load 14

    it(`el portal, ${viewport.name} (${viewport.width} × ${viewport.height})`, async () => {
      const page = await sessionPage(viewport, 'vigia.patient', patientSession);
      const problems = await runCases(page, PORTAL_CASES.slice(0, 3), viewport.name);
      problems.push(...(await runOffline(page, PORTAL_CASES.slice(1, 2), viewport.name)));
      problems.push(...(await runCases(page, PORTAL_CASES.slice(3), viewport.name, openGlucose)));
      problems.push(...(await runOffline(page, PORTAL_CASES.slice(3, 4), viewport.name, openGlucose)));
      expect(problems).toEqual([]);
      if (viewport.width === 390) {
        await failReadsWhere(page, (path) => /^\/patients\/\d+\/measurements\?/.test(path));
        await page.goto('/portal_patient');
        await openGlucose(page);
        await waitForText(page, /Error al cargar los datos/);
        await page.screenshot({ path: `${SCREENSHOT_DIR}/failed-reads-portal-390.png`, fullPage: true });
        await expectAccessible(page);
      }
    }, 120_000);
  }
});
