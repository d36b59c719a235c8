import { Op, type WhereOptions } from 'sequelize';
import { badRequest } from '../../http/errors.js';
import { filterWhere, sortOrder, type ListFields, type ListParams } from '../../http/list-params.js';
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

/**
 * What GET /supplies sorts and filters by (openapi.yaml listSupplies declares the same).
 * `generic_name=` keeps its own meaning (the name as typed, compared in capitals).
 */
export const SUPPLY_FIELDS: ListFields = {
  id: { column: 'id', kind: 'integer', sort: true },
  type: { column: 'type', kind: 'enum', sort: true },
  tradename: { column: 'tradename', kind: 'text', sort: true },
  generic_name: { column: 'generic_name', kind: 'text', sort: true, operators: ['ne', 'like'] },
  invima_register: { column: 'invima_register', kind: 'text' },
  date_register: { column: 'date_register', kind: 'date', sort: true },
  active: { column: 'active', kind: 'boolean' },
  created_at: { column: 'created_at', kind: 'datetime', sort: true },
};

export async function listSupplies(clientId: number, p: ListParams, f: { generic_name?: string }) {
  const where: WhereOptions<Supply> = { client_id: clientId, [Op.and]: filterWhere(p.filters) };
  if (f.generic_name) Object.assign(where, { generic_name: f.generic_name.trim().toUpperCase() });
  if (p.q) {
    const like = `%${likeSafe(p.q.toUpperCase())}%`;
    Object.assign(where, { [Op.or]: [{ tradename: { [Op.like]: like } }, { generic_name: { [Op.like]: like } }] });
  }
  const { rows, count } = await Supply.findAndCountAll({
    where,
    order: sortOrder(p, [['tradename', p.order]], ['id', 'ASC']),
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
