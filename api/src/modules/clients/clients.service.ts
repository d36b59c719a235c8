import type { Sequelize } from 'sequelize';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import { Client } from '../../db/models/clients.model.js';
import { planClientSettings } from './clients.rules.js';
import { User } from '../../db/models/users.model.js';
import { createFirstAdmin } from '../users/users.first-admin.js';
import { isRole } from '@vigia/contract/rules/access';
import type { Catalogues } from '../catalogues/catalogues.service.js';
import { hashPassword } from '../sessions/passwords.js';
import { normaliseName, validateEmail, validateName, validatePassword } from '@vigia/contract/rules/validation';
import type { components } from '@vigia/contract/openapi';
import { isValidTimeZone } from '@vigia/contract/rules/dates';
import { triageSettingsOf } from '@vigia/contract/rules/triage';

type ClientDto = components['schemas']['Client'];

/** The stored JSON list of roles that must have a second factor; anything unreadable is none. */
export function secondFactorRolesOf(text: string | null | undefined): ClientDto['second_factor_roles'] & object {
  try {
    const list: unknown = JSON.parse(text ?? '[]');
    return Array.isArray(list) ? list.filter(isRole) : [];
  } catch {
    return [];
  }
}

/** Patient-page tabs a new client gets; vaccines stays hidden by default (01 §2). */
export const DEFAULT_CLINICAL_ELEMENTS = [
  'signs',
  'assistant',
  'observations',
  'conditions',
  'variables',
  'alerts',
  'activities',
  'orders',
  'settings',
  'reports',
];

/** The one place a clients row becomes the contract's Client (secrets never leave, D20). */
function toClientDto(c: Client): ClientDto {
  return {
    id: c.id,
    name: c.name,
    logo_url: c.logo_url,
    country_id: c.country_id,
    time_zone: c.time_zone,
    clinical_elements: c.clinical_elements as ClientDto['clinical_elements'],
    client_with_multipatient_glady: c.multipatient,
    residents_enabled: c.residents_enabled,
    have_metabase: c.have_metabase,
    metabase_url: c.metabase_url,
    webhook_url: c.webhook_url,
    security_phrase_set: Boolean(c.security_phrase),
    validate: Boolean(c.webhook_validated),
    webhook_measurements: Boolean(c.webhook_measurements),
    webhook_alerts: Boolean(c.webhook_alerts),
    webhook_disabled_at: c.webhook_disabled_at ? new Date(c.webhook_disabled_at).toISOString() : null,
    webhook_disabled_reason: c.webhook_disabled_reason ?? null,
    residents_url: c.residents_url,
    residents_user: c.residents_user,
    residents_password_set: Boolean(c.residents_password),
    escalation_minutes: Number(c.escalation_minutes ?? 30),
    message_full_name: Boolean(c.message_full_name),
    message_rule_name: Boolean(c.message_rule_name),
    second_factor_roles: secondFactorRolesOf(c.second_factor_roles),
    triage_settings: triageSettingsOf(c.triage_settings ? JSON.parse(c.triage_settings) : null),
  };
}

function mergeTriageSettings(saved: unknown, input: components['schemas']['TriageSettingsInput']) {
  const current = triageSettingsOf(saved);
  return triageSettingsOf({ ...current, ...input, weights: { ...current.weights, ...input.weights } });
}

/** PUT/PATCH /clients/{id}: webhook and integration settings (03 §2), checked by clients.rules. */
export async function updateClientSettings(
  clientId: number,
  id: number,
  input: components['schemas']['ClientSettingsInput'],
  opts: { allowHttp: boolean },
): Promise<ClientDto> {
  if (clientId !== id) throw notFound('El cliente no existe.');
  const c = await Client.findByPk(id);
  if (!c) throw notFound('El cliente no existe.');
  const result = planClientSettings(
    {
      webhook_url: c.webhook_url,
      security_phrase_set: Boolean(c.security_phrase),
      residents_enabled: Boolean(c.residents_enabled),
      residents_url: c.residents_url,
      residents_user: c.residents_user,
      residents_password_set: Boolean(c.residents_password),
    },
    input,
    opts,
  );
  if (!result.ok) throw badRequest(result.field, result.message);
  // 'Priorización' (issue 21): what is sent over what was saved; the contract bounds each number.
  const triage = input.triage_settings
    ? JSON.stringify(mergeTriageSettings(c.triage_settings ? JSON.parse(c.triage_settings) : null, input.triage_settings))
    : undefined;
  if (Object.keys(result.patch).length || triage) await c.update({ ...result.patch, ...(triage ? { triage_settings: triage } : {}) });
  return toClientDto(c);
}

export async function getClient(clientId: number, id: number): Promise<ClientDto> {
  if (clientId !== id) throw notFound('El cliente no existe.');
  const c = await Client.findByPk(id);
  if (!c) throw notFound('El cliente no existe.');
  return toClientDto(c);
}

export interface NewClient {
  name: string;
  countryId: number;
  timeZone?: string;
  logoUrl?: string | null;
  multipatient?: boolean;
  /** Roles that must have a second factor (issue 38); none unless given. */
  secondFactorRoles?: string[];
  admin: { email: string; password: string; firstName: string; lastName: string; role?: string };
}

/** Operators create a client with its first admin user (npm run client:create). */
export async function createClientWithAdmin(sequelize: Sequelize, catalogues: Catalogues, input: NewClient) {
  const country = catalogues.country(input.countryId);
  if (!country) throw badRequest('country_id', 'El país no existe.');
  const timeZone = input.timeZone ?? country.time_zone;
  if (!isValidTimeZone(timeZone)) throw badRequest('time_zone', 'Zona horaria no válida');
  if (!input.name.trim()) throw badRequest('name', '¡El campo es requerido!');
  const checks: Array<[string, string | null]> = [
    ['email', validateEmail(input.admin.email)],
    ['password', validatePassword(input.admin.password)],
    ['first_name', validateName(input.admin.firstName)],
    ['last_name', validateName(input.admin.lastName)],
  ];
  for (const [field, msg] of checks) if (msg) throw badRequest(field, msg);
  const role = input.admin.role ?? 'admin';
  if (!isRole(role)) throw badRequest('role_name', 'Rol no válido');
  const email = input.admin.email.trim().toLowerCase();
  if (await User.findOne({ where: { email } })) throw conflict('Ya existe un usuario con ese correo.', 'email');
  const passwordHash = await hashPassword(input.admin.password);
  return sequelize.transaction(async (transaction) => {
    const client = await Client.create(
      {
        name: input.name.trim(),
        logo_url: input.logoUrl ?? null,
        country_id: country.id,
        time_zone: timeZone,
        clinical_elements: DEFAULT_CLINICAL_ELEMENTS,
        multipatient: input.multipatient ?? false,
        residents_url: null,
        residents_user: null,
        residents_password: null,
        metabase_url: null,
        webhook_url: null,
        security_phrase: null,
        second_factor_roles: JSON.stringify(secondFactorRolesOf(JSON.stringify(input.secondFactorRoles ?? []))),
      },
      { transaction },
    );
    const user = await createFirstAdmin(
      {
        clientId: client.id,
        email,
        passwordHash,
        firstName: normaliseName(input.admin.firstName),
        lastName: normaliseName(input.admin.lastName),
        role,
        prefix: country.phone_prefix,
        countryId: country.id,
        timeZone,
      },
      transaction,
    );
    return { client, user };
  });
}
