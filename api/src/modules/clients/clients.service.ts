import type { Sequelize, Transaction } from 'sequelize';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import { select } from '../../db/sql.js';
import { Client, ClientSite } from '../../db/models/clients.model.js';
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

type ClientSiteDto = components['schemas']['ClientSite'];
type ClientSettingsInput = components['schemas']['ClientSettingsInput'];

/** The one place a client_sites row becomes the contract's ClientSite. */
function toClientSiteDto(catalogues: Catalogues, s: ClientSite): ClientSiteDto {
  return {
    id: s.id,
    name: s.name,
    reps_site_code: s.reps_site_code,
    address: s.address,
    city_id: s.city_id,
    city_name: catalogues.city(s.city_id)?.name ?? null,
  };
}

async function sitesOf(clientId: number): Promise<ClientSite[]> {
  return ClientSite.findAll({ where: { client_id: clientId }, order: [['id', 'ASC']] });
}

/** The one place a clients row becomes the contract's Client (secrets never leave, D20). */
function toClientDto(catalogues: Catalogues, c: Client, sites: ClientSite[]): ClientDto {
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
    nit: c.nit ?? null,
    reps_code: c.reps_code ?? null,
    provider_class: c.provider_class ?? null,
    provider_class_name: catalogues.code('provider_classes', c.provider_class)?.name ?? null,
    legal_nature: c.legal_nature ?? null,
    legal_nature_name: catalogues.code('legal_natures', c.legal_nature)?.name ?? null,
    care_level: c.care_level ?? null,
    care_level_name: catalogues.code('care_levels', c.care_level)?.name ?? null,
    address: c.address ?? null,
    city_id: c.city_id ?? null,
    city_name: catalogues.city(c.city_id ?? null)?.name ?? null,
    sites: sites.map((s) => toClientSiteDto(catalogues, s)),
  };
}

const RDA_CODE_FIELDS = [
  ['provider_class', 'provider_classes'],
  ['legal_nature', 'legal_natures'],
  ['care_level', 'care_levels'],
] as const;

/**
 * The provider's RDA data (issue 51): codes from the guide's lists, the municipality in the
 * client's country, the sites' cities too. Answers the columns to write, only those sent.
 */
function rdaPatchOf(catalogues: Catalogues, c: Client, input: ClientSettingsInput) {
  const patch: Partial<Pick<Client, 'nit' | 'reps_code' | 'provider_class' | 'legal_nature' | 'care_level' | 'address' | 'city_id'>> = {};
  const cityOk = (id: number | null | undefined) => id == null || catalogues.city(id)?.country_id === c.country_id;
  for (const [field, list] of RDA_CODE_FIELDS) {
    const value = input[field];
    if (value === undefined) continue;
    if (value != null && !catalogues.code(list, value)) throw badRequest(field, 'El valor seleccionado no existe.');
    patch[field] = value;
  }
  if (input.nit !== undefined) patch.nit = input.nit;
  if (input.reps_code !== undefined) patch.reps_code = input.reps_code;
  if (input.address !== undefined) patch.address = input.address?.trim() ? normaliseName(input.address) : null;
  if (input.city_id !== undefined) {
    if (!cityOk(input.city_id)) throw badRequest('city_id', 'La ciudad no corresponde al país del cliente.');
    patch.city_id = input.city_id;
  }
  input.sites?.forEach((site, index) => {
    if (!cityOk(site.city_id)) throw badRequest(`sites[${index}].city_id`, 'La ciudad no corresponde al país del cliente.');
  });
  return patch;
}

/**
 * The sites sent replace the client's list: one with an id of this client is updated, one without
 * is created, the client's others are deleted. An id of another client is answered as missing.
 */
async function replaceSites(clientId: number, sites: NonNullable<ClientSettingsInput['sites']>, transaction: Transaction) {
  const current = await ClientSite.findAll({ where: { client_id: clientId }, transaction });
  const byId = new Map(current.map((s) => [s.id, s]));
  const seen = new Set<number>();
  for (const [index, site] of sites.entries()) {
    if (site.id == null) continue;
    if (!byId.has(site.id)) throw badRequest(`sites[${index}].id`, 'La sede no existe.');
    if (seen.has(site.id)) throw badRequest(`sites[${index}].id`, 'La sede está repetida.');
    seen.add(site.id);
  }
  const kept = new Set<number>();
  for (const site of sites) {
    const values = {
      name: normaliseName(site.name),
      reps_site_code: site.reps_site_code ?? null,
      address: site.address?.trim() ? normaliseName(site.address) : null,
      city_id: site.city_id ?? null,
    };
    if (site.id != null) {
      kept.add(site.id);
      await byId.get(site.id)!.update(values, { transaction });
    } else await ClientSite.create({ client_id: clientId, ...values }, { transaction });
  }
  const gone = current.filter((s) => !kept.has(s.id)).map((s) => s.id);
  if (gone.length) await ClientSite.destroy({ where: { client_id: clientId, id: gone }, transaction });
}

function mergeTriageSettings(saved: unknown, input: components['schemas']['TriageSettingsInput']) {
  const current = triageSettingsOf(saved);
  return triageSettingsOf({ ...current, ...input, weights: { ...current.weights, ...input.weights } });
}

/** PUT/PATCH /clients/{id}: webhook and integration settings (03 §2), checked by clients.rules. */
export async function updateClientSettings(
  sequelize: Sequelize,
  catalogues: Catalogues,
  clientId: number,
  id: number,
  input: ClientSettingsInput,
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
  const rda = rdaPatchOf(catalogues, c, input);
  const patch = { ...result.patch, ...rda, ...(triage ? { triage_settings: triage } : {}) };
  await sequelize.transaction(async (transaction) => {
    if (Object.keys(patch).length) await c.update(patch, { transaction });
    if (input.sites) await replaceSites(c.id, input.sites, transaction);
  });
  return toClientDto(catalogues, c, await sitesOf(c.id));
}

/**
 * The organisation's time zone, the one its lists and figures read their days in (P12): the one
 * reader, handed to the other modules through their deps (app.ts). Every client has one (NOT NULL,
 * checked when saved); Bogotá for a client not found or a zone this runtime does not know.
 */
export async function clientTimeZone(sequelize: Sequelize, clientId: number): Promise<string> {
  const [row] = await select<{ time_zone: string | null }>(sequelize, 'SELECT time_zone FROM clients WHERE id = :clientId', { clientId });
  return row?.time_zone && isValidTimeZone(row.time_zone) ? row.time_zone : 'America/Bogota';
}

export async function getClient(catalogues: Catalogues, clientId: number, id: number): Promise<ClientDto> {
  if (clientId !== id) throw notFound('El cliente no existe.');
  const c = await Client.findByPk(id);
  if (!c) throw notFound('El cliente no existe.');
  return toClientDto(catalogues, c, await sitesOf(c.id));
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
