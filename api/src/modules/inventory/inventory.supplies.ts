import { badRequest } from '../../http/errors.js';
import { sortOrder } from '../../http/list-params.js';
import { Supply } from '../../db/models/inventory.model.js';
import { defineResource } from '../../resources/resource.js';
import * as rules from './inventory.rules.js';
import { bool } from './inventory.common.js';
import type { components } from '@vigia/contract/openapi';

type S = components['schemas'];

const upper = (v: string | null | undefined) => (v == null ? v : v.trim().replace(/\s+/g, ' ').toUpperCase());

function checkSupply(type: string, genericName: string | null | undefined) {
  if (type === 'biologico' && !genericName) throw badRequest('generic_name', '¡El campo es requerido!');
}

/**
 * Supplies (03 §2): names kept in capitals; a biological names its generic. Any staff reads, `admin`
 * writes (D13). `generic_name=` keeps its own meaning (the name as typed, compared in capitals).
 */
export const suppliesResource = defineResource<Supply, S['Supply'], S['SupplyInput'], S['SupplyUpdate']>({
  name: 'supplies',
  model: Supply,
  tenant: 'client_id',
  access: { write: 'administer' },
  operations: { list: 'listSupplies', get: 'getSupply', create: 'createSupply', update: 'updateSupply', patch: 'patchSupply' },
  fields: {
    id: { column: 'id', kind: 'integer', sort: true },
    type: { column: 'type', kind: 'enum', sort: true },
    tradename: { column: 'tradename', kind: 'text', sort: true },
    generic_name: { column: 'generic_name', kind: 'text', sort: true, operators: ['ne', 'like'] },
    invima_register: { column: 'invima_register', kind: 'text' },
    date_register: { column: 'date_register', kind: 'date', sort: true },
    active: { column: 'active', kind: 'boolean' },
    created_at: { column: 'created_at', kind: 'datetime', sort: true },
  },
  defaultLimit: 20,
  search: { columns: ['tradename', 'generic_name'], fold: 'upper' },
  notFound: 'El insumo no existe.',
  order: (p) => sortOrder(p, [['tradename', p.order]], ['id', 'ASC']),
  where: (query) => {
    const name = typeof query.generic_name === 'string' ? query.generic_name.trim() : '';
    return name ? { generic_name: name.toUpperCase() } : null;
  },

  async present(supplies) {
    return supplies.map(toSupplyDto);
  },
  async create(input, ctx) {
    checkSupply(input.type, input.generic_name);
    return Supply.create({
      client_id: ctx.clientId,
      type: input.type,
      tradename: upper(input.tradename)!,
      generic_name: upper(input.generic_name) ?? null,
      invima_register: input.invima_register?.trim() || null,
      date_register: input.date_register ?? null,
      active: input.active ?? true,
    });
  },
  async update(s, input) {
    if (input.type !== undefined) s.type = input.type;
    if (input.tradename !== undefined) s.tradename = upper(input.tradename)!;
    if (input.generic_name !== undefined) s.generic_name = upper(input.generic_name) ?? null;
    if (input.invima_register !== undefined) s.invima_register = input.invima_register?.trim() || null;
    if (input.date_register !== undefined) s.date_register = input.date_register;
    if (input.active !== undefined) s.active = input.active;
    checkSupply(s.type, s.generic_name);
    await s.save();
  },
});

/** The one place a supplies row becomes the contract's Supply. */
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
