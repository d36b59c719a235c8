import { Op, type WhereOptions } from 'sequelize';
import { badRequest } from '../../http/errors.js';
import type { ListParams } from '../../http/list-params.js';
import { likeSafe } from '../catalogues/catalogues.service.js';
import { Supply } from '../../db/models/inventory.model.js';
import * as rules from './inventory.rules.js';
import { bool, findSupply } from './inventory.common.js';
import type { components } from '@vigia/contract/openapi';

type S = components['schemas'];

export function toSupplyDto(s: Supply): S['Supply'] {
  return {
    id: s.id,
    type: s.type as S['SupplyType'],
    type_name: rules.SUPPLY_TYPE_NAMES[s.type] ?? s.type,
    tradename: s.tradename,
    generic_name: s.generic_name,
    invima_register: s.invima_register,
    date_register: s.date_register,
    active: bool(s.active),
    created_at: new Date(s.created_at).toISOString(),
  };
}

const SUPPLY_SORT = new Set(['id', 'type', 'tradename', 'generic_name', 'date_register', 'created_at']);

export async function listSupplies(clientId: number, p: ListParams, f: { type?: string; generic_name?: string; active?: boolean }) {
  const where: WhereOptions<Supply> = { client_id: clientId };
  if (f.type) Object.assign(where, { type: f.type });
  if (f.generic_name) Object.assign(where, { generic_name: f.generic_name.trim().toUpperCase() });
  if (f.active !== undefined) Object.assign(where, { active: f.active });
  if (p.q) {
    const like = `%${likeSafe(p.q.toUpperCase())}%`;
    Object.assign(where, { [Op.or]: [{ tradename: { [Op.like]: like } }, { generic_name: { [Op.like]: like } }] });
  }
  const { rows, count } = await Supply.findAndCountAll({
    where,
    order: [
      [p.sort && SUPPLY_SORT.has(p.sort) ? p.sort : 'tradename', p.order],
      ['id', 'ASC'],
    ],
    offset: p.offset,
    limit: p.limit,
  });
  return { rows: rows.map(toSupplyDto), total: count };
}

const upper = (v: string | null | undefined) => (v == null ? v : v.trim().replace(/\s+/g, ' ').toUpperCase());

function checkSupply(type: string, genericName: string | null | undefined) {
  if (type === 'biologico' && !genericName) throw badRequest('generic_name', '¡El campo es requerido!');
}

export async function createSupply(clientId: number, input: S['SupplyInput']) {
  checkSupply(input.type, input.generic_name);
  const s = await Supply.create({
    client_id: clientId,
    type: input.type,
    tradename: upper(input.tradename)!,
    generic_name: upper(input.generic_name) ?? null,
    invima_register: input.invima_register?.trim() || null,
    date_register: input.date_register ?? null,
    active: input.active ?? true,
  });
  return toSupplyDto(s);
}

export async function updateSupply(clientId: number, id: number, input: S['SupplyUpdate']) {
  const s = await findSupply(clientId, id);
  if (input.type !== undefined) s.type = input.type;
  if (input.tradename !== undefined) s.tradename = upper(input.tradename)!;
  if (input.generic_name !== undefined) s.generic_name = upper(input.generic_name) ?? null;
  if (input.invima_register !== undefined) s.invima_register = input.invima_register?.trim() || null;
  if (input.date_register !== undefined) s.date_register = input.date_register;
  if (input.active !== undefined) s.active = input.active;
  checkSupply(s.type, s.generic_name);
  await s.save();
  return toSupplyDto(s);
}
