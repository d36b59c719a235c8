import { Op, type Sequelize, type Transaction, type WhereOptions } from 'sequelize';
import { execute } from '../../db/sql.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import { filterWhere, sortOrder, type ListFields, type ListParams } from '../../http/list-params.js';
import type { StaffPrincipal } from '../../http/auth.js';
import { ROLE_LABELS, likeSafe, type Catalogues } from '../catalogues/catalogues.service.js';
import { hashPassword } from '../sessions/passwords.js';
import { normaliseName, validateName } from '@vigia/contract/rules/validation';
import { User } from '../../db/models/users.model.js';
import { USER_STATUS, USER_STATUS_NAMES } from '@vigia/contract/rules/access';
import * as rules from './users.rules.js';
import { PREFERENCE_FLAGS } from './users.preferences.js';
import type { components } from '@vigia/contract/openapi';

type UserDto = components['schemas']['User'];
type UserInput = components['schemas']['UserInput'];
type UserUpdate = components['schemas']['UserUpdate'];
type UserUpdated = components['schemas']['UserUpdated'];

export interface UserDeps {
  sequelize: Sequelize;
  catalogues: Catalogues;
  now: () => Date;
}

/** What GET /users sorts and filters by (openapi.yaml listUsers declares the same). */
export const USER_FIELDS: ListFields = {
  id: { column: 'id', kind: 'integer', sort: true },
  first_name: { column: 'first_name', kind: 'text', sort: true },
  last_name: { column: 'last_name', kind: 'text', sort: true },
  email: { column: 'email', kind: 'text', sort: true },
  cellphone: { column: 'cellphone', kind: 'text' },
  country_id: { column: 'country_id', kind: 'integer' },
  city_id: { column: 'city_id', kind: 'integer' },
  status: { column: 'status', kind: 'enum', sort: true },
  role_name: { column: 'role_name', kind: 'enum', sort: true },
  created_at: { column: 'created_at', kind: 'datetime', sort: true },
};
const FLAGS = PREFERENCE_FLAGS;

/** The one place a users row becomes the contract's User (never the password hash). */
function toUserDto(deps: UserDeps, u: User): UserDto {
  return {
    id: u.id,
    first_name: u.first_name,
    last_name: u.last_name,
    email: u.email,
    cellphone: u.cellphone,
    prefix: u.prefix,
    country_id: u.country_id,
    country_name: deps.catalogues.country(u.country_id)?.name ?? '',
    city_id: u.city_id,
    city_name: deps.catalogues.city(u.city_id)?.name ?? null,
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
    created_at: new Date(u.created_at).toISOString(),
  };
}

export async function listUsers(deps: UserDeps, clientId: number, p: ListParams) {
  const where: WhereOptions<User> = { client_id: clientId, [Op.and]: filterWhere(p.filters) };
  if (p.q) {
    const like = `%${likeSafe(p.q)}%`;
    Object.assign(where, {
      [Op.or]: [
        { first_name: { [Op.like]: `%${likeSafe(p.q.toUpperCase())}%` } },
        { last_name: { [Op.like]: `%${likeSafe(p.q.toUpperCase())}%` } },
        { email: { [Op.like]: like.toLowerCase() } },
      ],
    });
  }
  const { rows, count } = await User.findAndCountAll({
    where,
    order: sortOrder(p, [['last_name', p.order]], ['id', 'ASC']),
    offset: p.offset,
    limit: p.limit,
  });
  return { rows: rows.map((u) => toUserDto(deps, u)), total: count };
}

async function findUser(clientId: number, id: number): Promise<User> {
  const user = await User.findOne({ where: { id, client_id: clientId } });
  if (!user) throw notFound('El usuario no existe.');
  return user;
}

export async function getUser(deps: UserDeps, clientId: number, id: number): Promise<UserDto> {
  return toUserDto(deps, await findUser(clientId, id));
}

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
function placeOf(deps: UserDeps, countryId: number, cityId: number | null) {
  const country = deps.catalogues.country(countryId);
  if (!country) throw badRequest('country_id', 'El país no existe.');
  if (cityId != null) {
    const city = deps.catalogues.city(cityId);
    if (!city || city.country_id !== countryId) throw badRequest('city_id', 'La ciudad no pertenece al país seleccionado.');
  }
  return { time_zone: country.time_zone };
}

function checkPassword(input: { password?: string; password_confirmation?: string }, required: boolean) {
  const problem = rules.checkPassword(input.password, input.password_confirmation, required);
  if (problem) throw badRequest(problem.field, problem.message);
}

export async function createUser(deps: UserDeps, actor: StaffPrincipal, input: UserInput): Promise<UserDto> {
  const first_name = checkName('first_name', input.first_name)!;
  const last_name = checkName('last_name', input.last_name)!;
  checkPassword(input, true);
  const email = input.email.trim().toLowerCase();
  await assertEmailFree(email);
  const { time_zone } = placeOf(deps, input.country_id, input.city_id);
  const user = await User.create({
    client_id: actor.clientId,
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
    ...Object.fromEntries(FLAGS.filter((f) => input[f] !== undefined).map((f) => [f, input[f]])),
  });
  return toUserDto(deps, user);
}

export async function updateUser(deps: UserDeps, actor: StaffPrincipal, id: number, input: UserUpdate): Promise<UserUpdated> {
  const user = await findUser(actor.clientId, id);
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
  const { time_zone } = placeOf(deps, countryId, cityId);
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
  for (const f of FLAGS) if (input[f] !== undefined) user[f] = input[f]!;
  user.country_id = countryId;
  user.city_id = cityId;
  user.time_zone = time_zone;
  const passwordChanged = input.password !== undefined;
  await deps.sequelize.transaction(async (transaction) => {
    if (passwordChanged) user.password_hash = await hashPassword(input.password!);
    await user.save({ transaction });
    // A new password set by an administrator ends the user's sessions, and so does disabling the
    // user: enabling them again must not revive an old token (ASVS 5.0 V7.4.2).
    if ((passwordChanged && !self) || input.status === USER_STATUS.inactive) {
      await deps.sequelize.query(
        "UPDATE sessions SET revoked_at = :now WHERE subject_type = 'staff' AND subject_id = :id AND revoked_at IS NULL",
        {
          replacements: { now: deps.now(), id: user.id },
          transaction,
        },
      );
    }
  });
  const relogin = rules.ownCityChanged(actor.userId, user.id, cityBefore, cityId);
  return {
    ...toUserDto(deps, user),
    relogin_required: relogin,
    notification: relogin
      ? { type: 'success', message: rules.OWN_CITY_LOGOUT_MESSAGE }
      : { type: 'success', message: 'Usuario actualizado correctamente' },
  };
}

/** Password recovery (issue 38) stores the new hash through here: the users table has one writer. */
export async function setUserPassword(
  deps: Pick<UserDeps, 'sequelize' | 'now'>,
  userId: number,
  passwordHash: string,
  transaction: Transaction,
): Promise<void> {
  await execute(
    deps.sequelize,
    'UPDATE users SET password_hash = :hash, updated_at = :now WHERE id = :id',
    {
      hash: passwordHash,
      now: deps.now(),
      id: userId,
    },
    transaction,
  );
}
