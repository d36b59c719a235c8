import type { Sequelize, Transaction } from 'sequelize';
import { badRequest, conflict } from '../../http/errors.js';
import { sortOrder } from '../../http/list-params.js';
import { ROLE_LABELS, type Catalogues } from '../catalogues/catalogues.service.js';
import { hashPassword } from '../sessions/passwords.js';
import { normaliseName, normaliseNid, validateName, validateNid } from '@vigia/contract/rules/validation';
import { User } from '../../db/models/users.model.js';
import { USER_STATUS, USER_STATUS_NAMES } from '@vigia/contract/rules/access';
import { defineResource } from '../../resources/resource.js';
import * as rules from './users.rules.js';
import { PREFERENCE_FLAGS } from './users.preferences.js';
import type { components } from '@vigia/contract/openapi';

type S = components['schemas'];
type UserDto = S['User'];

export interface UserDeps {
  catalogues: Catalogues;
  /** Ends a user's open sessions (a new password set by an administrator, a disabled user): the sessions module writes them. */
  endStaffSessions(sequelize: Sequelize, userId: number, now: Date, transaction?: Transaction): Promise<number>;
}

/** The one place a users row becomes the contract's User (never the password hash). */
export function toUserDto(catalogues: Catalogues, u: User): UserDto {
  return {
    id: u.id,
    first_name: u.first_name,
    last_name: u.last_name,
    email: u.email,
    cellphone: u.cellphone,
    prefix: u.prefix,
    country_id: u.country_id,
    country_name: catalogues.country(u.country_id)?.name ?? '',
    city_id: u.city_id,
    city_name: catalogues.city(u.city_id)?.name ?? null,
    time_zone: u.time_zone,
    status: u.status as UserDto['status'],
    status_name: USER_STATUS_NAMES[u.status] ?? '',
    role_name: u.role_name,
    role_label: ROLE_LABELS[u.role_name] ?? u.role_name,
    media_email: u.media_email,
    media_whatsapp: u.media_whatsapp,
    priority_high: u.priority_high,
    priority_medium: u.priority_medium,
    priority_low: u.priority_low,
    break_glass: u.break_glass,
    created_at: new Date(u.created_at).toISOString(),
    id_type: u.id_type ?? null,
    id_type_name: u.id_type == null ? null : (catalogues.idType(u.id_type)?.name ?? null),
    nid: u.nid ?? null,
    profession: u.profession ?? null,
    profession_name: catalogues.code('professions', u.profession)?.name ?? null,
    rethus_number: u.rethus_number ?? null,
  };
}

type PractitionerFields = Pick<S['UserUpdate'], 'id_type' | 'nid' | 'profession' | 'rethus_number'>;

/**
 * The practitioner's data the RDA asks for (issue 51): a document whose type belongs to the user's
 * country and whose number that type accepts, sent together; a RETHUS profession from the guide's
 * list. Answers the columns to write (only those sent); a document another user of the
 * organisation has is refused.
 */
async function practitionerOf(
  catalogues: Catalogues,
  clientId: number,
  input: PractitionerFields,
  current: User | null,
  countryId: number,
) {
  const out: Partial<Pick<User, 'id_type' | 'nid' | 'profession' | 'rethus_number'>> = {};
  if (input.id_type !== undefined || input.nid !== undefined || (current?.id_type != null && current.country_id !== countryId)) {
    const idType = input.id_type !== undefined ? input.id_type : (current?.id_type ?? null);
    const nid = input.nid !== undefined ? (input.nid == null ? null : normaliseNid(input.nid)) : (current?.nid ?? null);
    if ((idType == null) !== (nid == null || nid === ''))
      throw badRequest(idType == null ? 'id_type' : 'nid', 'El tipo y el número de documento van juntos: escriba los dos o ninguno.');
    if (idType != null && nid) {
      const type = catalogues.idType(idType);
      if (!type || type.country_id !== countryId) throw badRequest('id_type', 'El tipo de documento no corresponde al país.');
      const message = validateNid(nid, type.validation_regex);
      if (message) throw badRequest('nid', message);
      const taken = await User.findOne({ where: { client_id: clientId, id_type: idType, nid }, attributes: ['id'] });
      if (taken && taken.id !== current?.id) throw conflict('Ya existe un usuario con ese tipo y número de documento.', 'nid');
    }
    out.id_type = idType;
    out.nid = nid || null;
  }
  if (input.profession !== undefined) {
    if (input.profession != null && !catalogues.code('professions', input.profession))
      throw badRequest('profession', 'El valor seleccionado no existe.');
    out.profession = input.profession;
  }
  if (input.rethus_number !== undefined) out.rethus_number = input.rethus_number?.trim().toUpperCase() || null;
  return out;
}

/** E-mail addresses are unique across organisations (they sign in with it alone). */
async function assertEmailFree(email: string, exceptId?: number) {
  const existing = await User.findOne({ where: { email } });
  if (existing && existing.id !== exceptId) throw conflict('Ya existe un usuario con ese correo electrónico.', 'email');
}

function checkName(field: 'first_name' | 'last_name', value: string | undefined) {
  if (value === undefined) return undefined;
  const problem = validateName(value);
  if (problem) throw badRequest(field, problem);
  return normaliseName(value);
}

/** Country and city must exist and agree; the user's time zone follows the country (D5). */
function placeOf(catalogues: Catalogues, countryId: number, cityId: number | null) {
  const country = catalogues.country(countryId);
  if (!country) throw badRequest('country_id', 'El país no existe.');
  if (cityId != null) {
    const city = catalogues.city(cityId);
    if (!city || city.country_id !== countryId) throw badRequest('city_id', 'La ciudad no pertenece al país seleccionado.');
  }
  return { time_zone: country.time_zone };
}

function checkPassword(input: { password?: string; password_confirmation?: string }, required: boolean) {
  const problem = rules.checkPassword(input.password, input.password_confirmation, required);
  if (problem) throw badRequest(problem.field, problem.message);
}

/**
 * Users of the signed-in user's organisation (03 §2 'Usuarios'): any staff reads, only `admin`
 * writes (D13). Its own rules: names in capitals, a unique e-mail, the password hashed, the place
 * and time zone from the catalogues, an administrator never disables or demotes themself, and a new
 * password or a disabled user ends the user's sessions.
 */
export const usersResource = (deps: UserDeps) =>
  defineResource<User, UserDto, S['UserInput'], S['UserUpdate']>({
    name: 'users',
    model: User,
    tenant: 'client_id',
    access: { write: 'administer' },
    operations: { list: 'listUsers', get: 'getUser', create: 'createUser', update: 'updateUser', patch: 'patchUser' },
    fields: {
      id: { column: 'id', kind: 'integer', sort: true },
      first_name: { column: 'first_name', kind: 'text', sort: true },
      last_name: { column: 'last_name', kind: 'text', sort: true },
      email: { column: 'email', kind: 'text', sort: true },
      cellphone: { column: 'cellphone', kind: 'text' },
      country_id: { column: 'country_id', kind: 'integer' },
      city_id: { column: 'city_id', kind: 'integer' },
      status: { column: 'status', kind: 'enum', sort: true },
      role_name: { column: 'role_name', kind: 'enum', sort: true },
      break_glass: { column: 'break_glass', kind: 'boolean' },
      created_at: { column: 'created_at', kind: 'datetime', sort: true },
    },
    defaultLimit: 10,
    search: { columns: ['first_name', 'last_name', 'email'], fold: { first_name: 'upper', last_name: 'upper', email: 'lower' } },
    notFound: 'El usuario no existe.',
    order: (p) => sortOrder(p, [['last_name', p.order]], ['id', 'ASC']),

    async present(users) {
      return users.map((u) => toUserDto(deps.catalogues, u));
    },
    async create(input, ctx) {
      const first_name = checkName('first_name', input.first_name)!;
      const last_name = checkName('last_name', input.last_name)!;
      checkPassword(input, true);
      const email = input.email.trim().toLowerCase();
      await assertEmailFree(email);
      const { time_zone } = placeOf(deps.catalogues, input.country_id, input.city_id);
      const practitioner = await practitionerOf(deps.catalogues, ctx.clientId, input, null, input.country_id);
      return User.create({
        ...practitioner,
        client_id: ctx.clientId,
        email,
        password_hash: await hashPassword(input.password),
        first_name,
        last_name,
        role_name: input.role_name,
        status: input.status ?? USER_STATUS.active,
        cellphone: input.cellphone,
        prefix: input.prefix,
        country_id: input.country_id,
        city_id: input.city_id,
        time_zone,
        ...Object.fromEntries(PREFERENCE_FLAGS.filter((f) => input[f] !== undefined).map((f) => [f, input[f]])),
      });
    },
    async update(user, input, ctx): Promise<Omit<S['UserUpdated'], keyof UserDto>> {
      const { actor } = ctx;
      const self = actor.userId === user.id;
      if (self && input.status === USER_STATUS.inactive) throw badRequest('status', 'No puede desactivar su propio usuario.');
      if (self && input.role_name !== undefined && input.role_name !== 'admin') {
        throw badRequest('role_name', 'No puede quitarse a sí mismo el rol de administrador.');
      }
      const first_name = checkName('first_name', input.first_name);
      const last_name = checkName('last_name', input.last_name);
      checkPassword(input, false);
      const cityBefore = user.city_id;
      const countryId = input.country_id ?? user.country_id;
      // Changing the country clears the city unless a new one comes with it (03 §5).
      const cityId =
        input.city_id !== undefined
          ? input.city_id
          : input.country_id !== undefined && input.country_id !== user.country_id
            ? null
            : user.city_id;
      const { time_zone } = placeOf(deps.catalogues, countryId, cityId);
      const practitioner = await practitionerOf(deps.catalogues, ctx.clientId, input, user, countryId);
      if (input.email !== undefined) {
        const email = input.email.trim().toLowerCase();
        await assertEmailFree(email, user.id);
        user.email = email;
      }
      if (first_name) user.first_name = first_name;
      if (last_name) user.last_name = last_name;
      if (input.role_name !== undefined) user.role_name = input.role_name;
      if (input.status !== undefined) user.status = input.status;
      if (input.cellphone !== undefined) user.cellphone = input.cellphone;
      if (input.prefix !== undefined) user.prefix = input.prefix;
      for (const f of PREFERENCE_FLAGS) if (input[f] !== undefined) user[f] = input[f]!;
      user.set(practitioner);
      user.country_id = countryId;
      user.city_id = cityId;
      user.time_zone = time_zone;
      const passwordChanged = input.password !== undefined;
      await ctx.sequelize.transaction(async (transaction) => {
        if (passwordChanged) user.password_hash = await hashPassword(input.password!);
        await user.save({ transaction });
        // A new password set by an administrator ends the user's sessions, and so does disabling the
        // user: enabling them again must not revive an old token (ASVS 5.0 V7.4.2).
        if ((passwordChanged && !self) || input.status === USER_STATUS.inactive)
          await deps.endStaffSessions(ctx.sequelize, user.id, ctx.now, transaction);
      });
      const relogin = rules.ownCityChanged(actor.userId, user.id, cityBefore, cityId);
      return {
        relogin_required: relogin,
        notification: relogin
          ? { type: 'success', message: rules.OWN_CITY_LOGOUT_MESSAGE }
          : { type: 'success', message: 'Usuario actualizado correctamente' },
      };
    },
  });
