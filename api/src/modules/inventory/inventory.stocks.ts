import { badRequest, conflict } from '../../http/errors.js';
import { sortOrder } from '../../http/list-params.js';
import { Stock, Supply } from '../../db/models/inventory.model.js';
import { defineResource, type ResourceContext } from '../../resources/resource.js';
import * as rules from './inventory.rules.js';
import { bool, findStock, findSupply, type InventoryDeps } from './inventory.common.js';
import { applyMove } from './inventory.moves.js';
import type { components } from '@vigia/contract/openapi';
import { localDate } from '@vigia/contract/rules/dates';

type S = components['schemas'];

async function suppliesById(ids: Array<number | null>) {
  const wanted = [...new Set(ids.filter((x): x is number => x != null))];
  const rows = wanted.length ? await Supply.findAll({ where: { id: wanted } }) : [];
  return new Map(rows.map((s) => [s.id, s]));
}

/** The one place a stocks row becomes the contract's Stock; `today` (the client's) says whether it expired. */
function toStockDto(s: Stock, supply: Supply | undefined, today: string): S['Stock'] {
  const active = bool(s.active);
  return {
    id: s.id,
    client_id: s.client_id,
    serial: s.serial,
    type: s.type as S['SupplyType'],
    type_name: rules.SUPPLY_TYPE_NAMES[s.type] ?? s.type,
    medical_supply_id: s.medical_supply_id,
    medical_supply_name: supply?.tradename ?? null,
    generic_name: supply?.generic_name ?? null,
    expiration_date: s.expiration_date,
    formated_expiration_date: rules.formatDate(s.expiration_date),
    cuantity: Number(s.cuantity),
    active,
    status_name: active ? 'Activo' : 'Inactivo',
    batch: bool(s.batch),
    expired: s.expiration_date < today,
    created_at: new Date(s.created_at).toISOString(),
  };
}

async function checkStockSupply(clientId: number, type: string, supplyId: number | null) {
  if (supplyId == null) return;
  const supply = await findSupply(clientId, supplyId, 'medical_supply_id');
  if (supply.type !== type)
    throw badRequest('medical_supply_id', `El insumo elegido no es de tipo ${rules.SUPPLY_TYPE_NAMES[type] ?? type}.`);
}

async function assertSerialFree(clientId: number, serial: string, exceptId?: number) {
  const other = await Stock.findOne({ where: { client_id: clientId, serial } });
  if (other && other.id !== exceptId) throw conflict('Ya existe un lote con ese serial.', 'serial');
}

/** The client's today, in its own time zone. */
const today = async (deps: InventoryDeps, ctx: ResourceContext) => localDate(ctx.now, await deps.clientTimeZone(ctx.clientId));

/**
 * Stocks (03 §2, §4): batches and references of a supply. The quantity changes only through moves
 * (inventory.moves.ts applyMove, never below zero); a new batch's quantity is its first entry.
 */
export const stocksResource = (deps: InventoryDeps) =>
  defineResource<Stock, S['Stock'], S['StockInput'], S['StockUpdate']>({
    name: 'stocks',
    model: Stock,
    tenant: 'client_id',
    access: { write: 'administer' },
    operations: { list: 'listStocks', get: 'getStock', create: 'createStock', update: 'updateStock', patch: 'patchStock' },
    fields: {
      id: { column: 'id', kind: 'integer', sort: true },
      serial: { column: 'serial', kind: 'text', sort: true },
      type: { column: 'type', kind: 'enum', sort: true },
      medical_supply_id: { column: 'medical_supply_id', kind: 'integer' },
      expiration_date: { column: 'expiration_date', kind: 'date', sort: true },
      cuantity: { column: 'cuantity', kind: 'integer', sort: true },
      active: { column: 'active', kind: 'boolean' },
      batch: { column: 'batch', kind: 'boolean' },
      created_at: { column: 'created_at', kind: 'datetime', sort: true },
    },
    defaultLimit: 10,
    search: { columns: ['serial'], fold: 'upper' },
    notFound: 'El lote no existe.',
    order: (p) => sortOrder(p, [['expiration_date', p.order]], ['id', 'ASC']),

    async present(stocks, ctx) {
      const supplies = await suppliesById(stocks.map((r) => r.medical_supply_id));
      const day = await today(deps, ctx);
      return stocks.map((s) => toStockDto(s, supplies.get(s.medical_supply_id ?? 0), day));
    },
    async create(input, ctx) {
      const shape = {
        type: input.type,
        serial: input.serial.toUpperCase(),
        expiration_date: input.expiration_date,
        medical_supply_id: input.medical_supply_id ?? null,
        batch: rules.normaliseBatch(input.type, input.batch),
      };
      const problem = rules.checkStock(shape, await today(deps, ctx));
      if (problem) throw badRequest(problem.field, problem.message);
      await checkStockSupply(ctx.clientId, shape.type, shape.medical_supply_id);
      await assertSerialFree(ctx.clientId, shape.serial);
      const cuantity = input.cuantity ?? 0;
      const stock = await deps.sequelize.transaction(async (transaction) => {
        const s = await Stock.create({ client_id: ctx.clientId, ...shape, cuantity: 0, active: input.active ?? true }, { transaction });
        // The initial quantity is an entry like any other, so the move log explains every unit.
        if (cuantity > 0)
          await applyMove(
            deps,
            {
              clientId: ctx.clientId,
              stockId: s.id,
              type: 'entrada',
              amount: cuantity,
              notes: 'Cantidad inicial',
              author: ctx.actor.userId,
              allowInactive: true,
            },
            transaction,
          );
        return s;
      });
      return findStock(ctx.clientId, stock.id);
    },
    async update(s, input, ctx) {
      const type = input.type ?? s.type;
      const shape = {
        type,
        serial: (input.serial ?? s.serial).toUpperCase(),
        expiration_date: input.expiration_date ?? s.expiration_date,
        medical_supply_id: input.medical_supply_id !== undefined ? input.medical_supply_id : s.medical_supply_id,
        batch: rules.normaliseBatch(type, input.batch ?? bool(s.batch)),
      };
      const problem = rules.checkStock(
        shape,
        await today(deps, ctx),
        input.expiration_date !== undefined && input.expiration_date !== s.expiration_date,
      );
      if (problem) throw badRequest(problem.field, problem.message);
      if (input.type !== undefined || input.medical_supply_id !== undefined)
        await checkStockSupply(ctx.clientId, shape.type, shape.medical_supply_id);
      await assertSerialFree(ctx.clientId, shape.serial, s.id);
      Object.assign(s, shape);
      if (input.active !== undefined) s.active = input.active;
      await s.save();
    },
  });
