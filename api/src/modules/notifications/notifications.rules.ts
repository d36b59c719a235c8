import { PRIORITY_NAMES, elementName, elementUnit } from '@vigia/contract/rules/alarms';
import { formatWhen } from '@vigia/contract/rules/dates';
import { countOf, isOne } from '@vigia/contract/rules/plural';
import { STAFF_CHANNELS, preferenceColumn, type StaffChannel } from '../users/users.preferences.js';

/**
 * Who is told of an alert, and what the message says (issue 20), as pure functions: the service
 * reads the rows and sends; everything a test can state as a number or a text is here.
 */

/** A staff channel, as the contract names it; its preference column is `media_<channel>` (users.preferences.ts). */
export type Channel = StaffChannel;
export type Reason = 'alert' | 'escalation';

/** Issue 20: a high-priority alert with no entry is escalated after the client's delay, 30 minutes unless set. */
export const ESCALATION_DEFAULT_MINUTES = 30;
/** Alerts for one person and channel within this window are gathered into one digest (P171). */
export const DIGEST_WINDOW_MS = 60_000;
/** Tries of one message before it is 'fallido': 30 s, 1, 2, 4, 8 min back-off from each failure (jobs.rules.ts). */
export const SEND_MAX_ATTEMPTS = 6;
/** A digest lists this many alerts, worst first, and counts the rest. */
export const DIGEST_LISTED = 10;
/** A digest's link names at most this many alerts: the `id` filter's maxItems on listClientAlerts (openapi.yaml). */
export const DIGEST_LINKED = 200;

/** The user columns that decide who is told (03 §3). */
export type StaffPreferences = ContactDetails &
  Record<`media_${Channel}` | 'priority_high' | 'priority_medium' | 'priority_low', boolean | number> & { status: number };

/** What a person can be reached at. */
export interface ContactDetails {
  email: string | null;
  prefix: string | null;
  cellphone: string | null;
}

/** Each channel's address for a person, or null when they have none (a new channel is one more line). */
export const CHANNEL_ADDRESS: Record<Channel, (p: ContactDetails) => string | null> = {
  email: (p) => p.email || null,
  whatsapp: (p) => phoneAddress(p.prefix, p.cellphone),
};

const PRIORITY_FLAG: Record<number, 'priority_high' | 'priority_medium' | 'priority_low'> = {
  1: 'priority_high',
  2: 'priority_medium',
  3: 'priority_low',
};

/** The user's phone as the messaging channel addresses it (prefix and number, digits only), or null. */
export function phoneAddress(prefix: string | null | undefined, cellphone: string | null | undefined): string | null {
  const number = (cellphone ?? '').replace(/\D/g, '');
  if (number.length < 7) return null;
  return `${(prefix ?? '').replace(/\D/g, '')}${number}`;
}

/**
 * The channels on which a user hears of an alert of `priority`: none when the user is inactive
 * (status 1) or did not choose that priority; each channel whose `media_<channel>` is on and for
 * which the user has an address.
 */
export function staffChannels(user: StaffPreferences, priority: number): Channel[] {
  if (Number(user.status) !== 0) return [];
  const flag = PRIORITY_FLAG[priority];
  if (!flag || !user[flag]) return [];
  return STAFF_CHANNELS.filter((c) => Boolean(user[preferenceColumn(c)]) && CHANNEL_ADDRESS[c](user) != null);
}

/** A caregiver hears only of high-priority alerts (1 Alta), with `notification` on and a phone. */
export function caregiverTold(
  caregiver: { notification: boolean | number; prefix: string | null; cellphone: string | null },
  priority: number,
) {
  return priority === 1 && Boolean(caregiver.notification) && phoneAddress(caregiver.prefix, caregiver.cellphone) != null;
}

/** The automatic entry of an escalated alert, with the client's delay. */
export function escalationEntryText(minutes: number): string {
  return `Alerta escalada: sin gestión en ${minutes} minutos.`;
}

export function escalationDueAt(createdAt: Date, minutes: number): Date {
  return new Date(createdAt.getTime() + minutes * 60_000);
}

/** The digest window an instant falls in, and when that window ends. */
export function digestSlot(at: Date): { slot: number; endsAt: Date } {
  const slot = Math.floor(at.getTime() / DIGEST_WINDOW_MS);
  return { slot, endsAt: new Date((slot + 1) * DIGEST_WINDOW_MS) };
}

/** 'm***@e***.co' / '*******4567': enough for staff to recognise, not to copy. */
export function maskRecipient(channel: 'email' | 'whatsapp' | 'sms', value: string): string {
  if (channel === 'email') {
    const [local, domain = ''] = value.split('@');
    const dot = domain.lastIndexOf('.');
    const host = dot > 0 ? domain.slice(0, dot) : domain;
    const tld = dot > 0 ? domain.slice(dot) : '';
    return `${local.slice(0, 1)}***@${host.slice(0, 1)}***${tld}`;
  }
  const digits = value.replace(/\D/g, '');
  return `${'*'.repeat(Math.max(0, digits.length - 4))}${digits.slice(-4)}`;
}

/**
 * An SMS text with its one-time code hidden: the runs of 4 digits or more (codes are 4 to 8
 * digits), not every digit, so 'Vence en 5 minutos' still reads (issue 41).
 */
export const maskDigits = (text: string) => text.replace(/\d{4,}/g, (code) => '•'.repeat(code.length));

/** What a message says about one alert. */
export interface AlertFacts {
  id: number;
  patient_id: number;
  patient_name: string;
  /** 'M. P.': the first letter of the first given name and of the first surname. */
  patient_initials: string;
  /** The identity document's number (its last digits tell the patient apart without naming them). */
  patient_document: string | null;
  alert_type: number;
  priority: number;
  clinical_element: number | null;
  value: number | null;
  alarm_name: string | null;
  minimum_condition: number | null;
  maximum_condition: number | null;
  description: string | null;
  created_at: Date;
  /** The patient's zone: times are told as the patient lives them (D5). */
  time_zone: string;
}

const num = (v: number) => String(Number(v)).replace('.', ',');

/** What the care team's messages show of a patient and a rule (issue 41; the client's settings). */
export interface MessagePrivacy {
  /** The full name; otherwise the initials and the document's last digits. */
  fullName: boolean;
  /** The rule's name (it can reveal a condition); otherwise the value, its range and the priority. */
  ruleName: boolean;
}
export const DEFAULT_PRIVACY: MessagePrivacy = { fullName: false, ruleName: false };

/** 'M. P.' from 'maría josé' and 'pérez gómez'. */
export function initialsOf(firstName: string, lastName: string): string {
  return [firstName, lastName]
    .map((n) => n.trim().split(/\s+/)[0]?.charAt(0).toLocaleUpperCase('es') ?? '')
    .filter(Boolean)
    .map((c) => `${c}.`)
    .join(' ');
}

/** How a message names the patient: 'M. P. · doc. …4050' unless the organisation chose the full name. */
export function patientLabel(
  a: Pick<AlertFacts, 'patient_name' | 'patient_initials' | 'patient_document'>,
  privacy: MessagePrivacy,
): string {
  if (privacy.fullName) return a.patient_name;
  const digits = (a.patient_document ?? '').replace(/\s/g, '');
  return digits ? `${a.patient_initials} · doc. …${digits.slice(-4)}` : a.patient_initials;
}

/** The finding in one line: value and rule for a reading, else the compliance or AI text. */
export function findingOf(a: AlertFacts, privacy: MessagePrivacy = DEFAULT_PRIVACY): string {
  if (a.alert_type === 0 && a.value != null) {
    const unit = elementUnit(a.clinical_element);
    const value = `${elementName(a.clinical_element)}: ${num(a.value)}${unit ? ` ${unit}` : ''}`;
    const range =
      a.minimum_condition != null && a.maximum_condition != null
        ? `, fuera del rango ${num(a.minimum_condition)} - ${num(a.maximum_condition)}`
        : '';
    return `${value}${range}${a.alarm_name && privacy.ruleName ? ` (regla '${a.alarm_name}')` : ''}`;
  }
  if (a.description) return a.description;
  return a.alert_type === 3 ? 'Alerta del asistente IA' : a.alert_type === 2 ? 'Cumplimiento de medicación' : 'Cumplimiento de mediciones';
}

const priorityName = (p: number) => PRIORITY_NAMES[p] ?? '';

/** Worst first: priority 1 before 2 before 3, then the newest. */
export function rankAlerts<T extends Pick<AlertFacts, 'id' | 'priority' | 'created_at'>>(alerts: T[]): T[] {
  return [...alerts].sort((a, b) => a.priority - b.priority || b.created_at.getTime() - a.created_at.getTime() || b.id - a.id);
}

/**
 * WhatsApp's approved templates (issue 41): a message the business starts outside a conversation
 * the person opened in the last 24 hours must be one. Each kind's name is a setting
 * (notifications.channels.ts, README); its body parameters, in this order:
 * - alert: priority, patient, finding, date (patient's time), link;
 * - escalation: priority, patient, minutes, finding, link;
 * - digest: worst priority, count, link to the alerts manager;
 * - caregiver: patient, what happened (with the value), the organisation.
 */
export type TemplateKind = 'alert' | 'escalation' | 'digest' | 'caregiver';
export interface TemplateCall {
  kind: TemplateKind;
  params: string[];
}

export interface ComposedMessage {
  subject: string;
  text: string;
  /** The same message as an approved template, for a channel that needs one. */
  template: TemplateCall;
}

/**
 * The alerts manager showing exactly `ids` (its `?id=1&id=2` filter, issue 41), the whole manager
 * without them; absolute when the product knows its public address.
 */
export function alertsManagerLink(baseUrl: string | null, ids: number[] = []): string {
  const query = ids.length ? `?${ids.map((id) => `id=${id}`).join('&')}` : '';
  return `${(baseUrl ?? '').replace(/\/+$/, '')}/alerts_management${query}`;
}

/** The link to an alert's detail (02 §2.8), absolute when the product knows its public address. */
export function alertLink(baseUrl: string | null, a: Pick<AlertFacts, 'id' | 'patient_id'>): string {
  return `${(baseUrl ?? '').replace(/\/+$/, '')}/patients/${a.patient_id}/alerts/${a.id}`;
}

interface MessageOptions {
  baseUrl: string | null;
  minutes?: number;
  privacy?: MessagePrivacy;
}

/** The first line: what a phone's preview shows, so it says at once that it is urgent (issue 41). */
export const messageLead = (priority: number) => `Vigía · Alerta ${priorityName(priority)}`;

/** One alert for a member of staff (e-mail and WhatsApp say the same). */
export function staffMessage(a: AlertFacts, reason: Reason, opts: MessageOptions): ComposedMessage {
  const escalated = reason === 'escalation';
  const privacy = opts.privacy ?? DEFAULT_PRIVACY;
  const patient = patientLabel(a, privacy);
  const head = `Alerta de prioridad ${priorityName(a.priority)}: ${patient}`;
  const lines = [
    messageLead(a.priority),
    ...(escalated ? [`Escalada. ${escalationEntryText(opts.minutes ?? ESCALATION_DEFAULT_MINUTES)}`] : []),
    `Paciente: ${patient}`,
    findingOf(a, privacy),
    `Fecha: ${formatWhen(a.created_at, a.time_zone)} (hora del paciente)`,
    `Ver la alerta: ${alertLink(opts.baseUrl, a)}`,
  ];
  const minutes = String(opts.minutes ?? ESCALATION_DEFAULT_MINUTES);
  const when = formatWhen(a.created_at, a.time_zone);
  const link = alertLink(opts.baseUrl, a);
  const finding = findingOf(a, privacy);
  const priority = priorityName(a.priority);
  return {
    subject: escalated ? `Escalada: ${head}` : head,
    text: lines.join('\n'),
    template: escalated
      ? { kind: 'escalation', params: [priority, patient, minutes, finding, link] }
      : { kind: 'alert', params: [priority, patient, finding, when, link] },
  };
}

/** Several alerts for one person and channel: the count, then the worst ones first. */
export function digestMessage(alerts: AlertFacts[], reason: Reason, opts: MessageOptions): ComposedMessage {
  const ranked = rankAlerts(alerts);
  const privacy = opts.privacy ?? DEFAULT_PRIVACY;
  const count = countOf(ranked.length, 'alerta nueva', 'alertas nuevas');
  const escalated = reason === 'escalation';
  const subject = escalated ? `Escalada: ${countOf(ranked.length, 'alerta', 'alertas')} sin gestión` : `Vigía: ${count}`;
  const listed = ranked
    .slice(0, DIGEST_LISTED)
    .map(
      (a) =>
        `- [${priorityName(a.priority)}] ${patientLabel(a, privacy)}: ${findingOf(a, privacy)} · ${formatWhen(a.created_at, a.time_zone)} (hora del paciente) · ${alertLink(opts.baseUrl, a)}`,
    );
  const more = ranked.length > DIGEST_LISTED ? [`... y ${countOf(ranked.length - DIGEST_LISTED, 'alerta más', 'alertas más')}.`] : [];
  const intro = escalated
    ? `Escalada. ${countOf(ranked.length, 'alerta', 'alertas')} de prioridad Alta sin gestión en ${opts.minutes ?? ESCALATION_DEFAULT_MINUTES} minutos:`
    : `${count}, las más graves primero:`;
  // Every alert of the digest, in the manager filtered to them; beyond the filter's limit, the worst ones.
  const link = alertsManagerLink(
    opts.baseUrl,
    ranked.slice(0, DIGEST_LINKED).map((a) => a.id),
  );
  const linkLine =
    ranked.length > DIGEST_LINKED
      ? `Ver las ${DIGEST_LINKED} más graves en el gestor de alertas: ${link}`
      : `Ver ${isOne(ranked.length) ? 'la alerta' : `las ${ranked.length} alertas`} en el gestor de alertas: ${link}`;
  return {
    subject,
    text: [messageLead(ranked[0].priority), intro, ...listed, ...more, linkLine].join('\n'),
    // The count as a number: the approved template holds the words around it (README), and words
    // sent here too read twice ('2 alertas nuevas alertas nuevas', issue 49).
    template: { kind: 'digest', params: [priorityName(ranked[0].priority), String(ranked.length), link] },
  };
}

/**
 * A caregiver's short message (issue 20): who, that the care team was alerted and how to reach it;
 * no clinical detail beyond the value. Answers sent to this number reach the staff's inbox of
 * unknown numbers ('Números desconocidos'). The patient and the rule are shown as the
 * organisation lets the staff's messages show them (issue 41): a caregiver's phone has a lock
 * screen too.
 */
export function caregiverMessage(alerts: AlertFacts[], clientName: string, privacy: MessagePrivacy = DEFAULT_PRIVACY): string {
  const [patient, what] = caregiverTemplate(alerts, clientName, privacy).params;
  return `Vigía: ${patient} tiene ${what}. El equipo de atención de ${clientName} ya fue avisado. Para comunicarse con el equipo, responda a este mensaje.`;
}

/** The caregiver's message as its template: patient, what happened (with the value), organisation. */
export function caregiverTemplate(alerts: AlertFacts[], clientName: string, privacy: MessagePrivacy = DEFAULT_PRIVACY): TemplateCall {
  const ranked = rankAlerts(alerts);
  const a = ranked[0];
  const unit = elementUnit(a.clinical_element);
  const rule = a.alarm_name && privacy.ruleName ? `; regla '${a.alarm_name}'` : '';
  const value =
    a.alert_type === 0 && a.value != null ? ` (${elementName(a.clinical_element)}: ${num(a.value)}${unit ? ` ${unit}` : ''}${rule})` : '';
  const what =
    ranked.length > 1 ? countOf(ranked.length, 'alerta de prioridad alta', 'alertas de prioridad alta') : 'una alerta de prioridad alta';
  return { kind: 'caregiver', params: [patientLabel(a, privacy), `${what}${value}`, clientName] };
}

/** Why a send failed, in Spanish, for the record ('fallido' with the reason, or the retry note). */
export function failureText(kind: 'refused' | 'unavailable' | 'internal' | 'unknown', detail: number | null, final: boolean): string {
  // The provider may have accepted it: the retry carries the same Message-ID / idempotency key (issue 41).
  if (kind === 'unknown')
    return final
      ? 'Resultado desconocido: el proveedor no respondió a tiempo.'
      : 'Resultado desconocido: el proveedor no respondió a tiempo; se reintentará con la misma clave.';
  const base =
    kind === 'refused'
      ? `El proveedor rechazó el mensaje${detail ? ` (${detail})` : ''}`
      : kind === 'unavailable'
        ? `El proveedor no está disponible${detail ? ` (${detail})` : ''}`
        : 'Error interno al enviar';
  return final ? `${base}.` : `${base}; se reintentará.`;
}
