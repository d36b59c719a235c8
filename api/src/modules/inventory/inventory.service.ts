import { Op, type Sequelize, type Transaction, type WhereOptions } from 'sequelize';
import { execute, select } from '../../db/sql.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import type { ListParams } from '../../http/list-params.js';
import type { StaffPrincipal } from '../../http/auth.js';
import { likeSafe } from '../catalogues/catalogues.service.js';
import { Client } from '../../db/models/clients.model.js';
import { User } from '../../db/models/users.model.js';
import { localDate } from '../patients/patients.rules.js';
import { addDays, localToUtc } from '@vigia/contract/rules/activities';
import { Move, Stock, Supply } from '../../db/models/inventory.model.js';
import * as rules from './inventory.rules.js';
import type { components } from '@vigia/contract/openapi';

type S = components['schemas'];

export interface InventoryDeps {
  sequelize: Sequelize;
  now: () => Date;
}

/** Largest quantity a batch may hold (fits a 32-bit integer column on both databases). */
const MAX_CUANTITY = 2_000_000_000;

const bool = (v: unknown) => v === true || v === 1 || v === '1' || v === 'true';

async function clientZone(clientId: number): Promise<string> {
  return (await Client.findByPk(clientId))?.time_zone ?? 'America/Bogota';
}

/** From-to local dates of the client as a UTC half-open interval. */
export function dayRange(date1: string | undefined, date2: string | undefined, zone: string) {
  const range: Record<symbol, Date> = {};
  if (date1) range[Op.gte] = localToUtc(date1, 0, zone);
  if (date2) range[Op.lt] = localToUtc(addDays(date2, 1), 0, zone);
  return Object.getOwnPropertySymbols(range).length ? range : null;
}

// ── supplies ──

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

export async function findSupply(clientId: number, id: number, field?: string): Promise<Supply> {
  const s = await Supply.findOne({ where: { id, client_id: clientId } });
  if (!s) throw field ? badRequest(field, 'El insumo no existe.') : notFound('El insumo no existe.');
  return s;
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

// ── stocks ──

async function suppliesById(ids: Array<number | null>) {
  const wanted = [...new Set(ids.filter((x): x is number => x != null))];
  const rows = wanted.length ? await Supply.findAll({ where: { id: wanted } }) : [];
  return new Map(rows.map((s) => [s.id, s]));
}

export function toStockDto(s: Stock, supply: Supply | undefined, today: string): S['Stock'] {
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

const STOCK_SORT = new Set(['id', 'serial', 'type', 'expiration_date', 'cuantity', 'created_at']);

export async function listStocks(
  deps: InventoryDeps,
  clientId: number,
  p: ListParams,
  f: { type?: string; medical_supply_id?: number; active?: boolean },
) {
  const where: WhereOptions<Stock> = { client_id: clientId };
  if (f.type) Object.assign(where, { type: f.type });
  if (f.medical_supply_id) Object.assign(where, { medical_supply_id: f.medical_supply_id });
  if (f.active !== undefined) Object.assign(where, { active: f.active });
  if (p.q) Object.assign(where, { serial: { [Op.like]: `%${likeSafe(p.q.toUpperCase())}%` } });
  const { rows, count } = await Stock.findAndCountAll({
    where,
    order: [
      [p.sort && STOCK_SORT.has(p.sort) ? p.sort : 'expiration_date', p.order],
      ['id', 'ASC'],
    ],
    offset: p.offset,
    limit: p.limit,
  });
  const supplies = await suppliesById(rows.map((r) => r.medical_supply_id));
  const today = localDate(deps.now(), await clientZone(clientId));
  return { rows: rows.map((s) => toStockDto(s, supplies.get(s.medical_supply_id ?? 0), today)), total: count };
}

export async function findStock(clientId: number, id: number, field?: string, transaction?: Transaction): Promise<Stock> {
  const s = await Stock.findOne({ where: { id, client_id: clientId }, transaction });
  if (!s) throw field ? badRequest(field, 'El lote no existe.') : notFound('El lote no existe.');
  return s;
}

export async function getStock(deps: InventoryDeps, clientId: number, id: number) {
  const s = await findStock(clientId, id);
  const supply = s.medical_supply_id ? await Supply.findByPk(s.medical_supply_id) : null;
  return toStockDto(s, supply ?? undefined, localDate(deps.now(), await clientZone(clientId)));
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

export async function createStock(deps: InventoryDeps, actor: StaffPrincipal, input: S['StockInput']) {
  const zone = await clientZone(actor.clientId);
  const today = localDate(deps.now(), zone);
  const shape = {
    type: input.type,
    serial: input.serial.toUpperCase(),
    expiration_date: input.expiration_date,
    medical_supply_id: input.medical_supply_id ?? null,
    batch: rules.normaliseBatch(input.type, input.batch),
  };
  const problem = rules.checkStock(shape, today);
  if (problem) throw badRequest(problem.field, problem.message);
  await checkStockSupply(actor.clientId, shape.type, shape.medical_supply_id);
  await assertSerialFree(actor.clientId, shape.serial);
  const cuantity = input.cuantity ?? 0;
  const stock = await deps.sequelize.transaction(async (transaction) => {
    const s = await Stock.create({ client_id: actor.clientId, ...shape, cuantity: 0, active: input.active ?? true }, { transaction });
    // The initial quantity is an entry like any other, so the move log explains every unit.
    if (cuantity > 0)
      await applyMove(
        deps,
        {
          clientId: actor.clientId,
          stockId: s.id,
          type: 'entrada',
          amount: cuantity,
          notes: 'Cantidad inicial',
          author: actor.userId,
          allowInactive: true,
        },
        transaction,
      );
    return s;
  });
  return getStock(deps, actor.clientId, stock.id);
}

export async function updateStock(deps: InventoryDeps, actor: StaffPrincipal, id: number, input: S['StockUpdate']) {
  const s = await findStock(actor.clientId, id);
  const today = localDate(deps.now(), await clientZone(actor.clientId));
  const type = input.type ?? s.type;
  const shape = {
    type,
    serial: (input.serial ?? s.serial).toUpperCase(),
    expiration_date: input.expiration_date ?? s.expiration_date,
    medical_supply_id: input.medical_supply_id !== undefined ? input.medical_supply_id : s.medical_supply_id,
    batch: rules.normaliseBatch(type, input.batch ?? bool(s.batch)),
  };
  const problem = rules.checkStock(shape, today, input.expiration_date !== undefined && input.expiration_date !== s.expiration_date);
  if (problem) throw badRequest(problem.field, problem.message);
  if (input.type !== undefined || input.medical_supply_id !== undefined)
    await checkStockSupply(actor.clientId, shape.type, shape.medical_supply_id);
  await assertSerialFree(actor.clientId, shape.serial, s.id);
  Object.assign(s, shape);
  if (input.active !== undefined) s.active = input.active;
  await s.save();
  return getStock(deps, actor.clientId, id);
}

// ── moves ──

export interface MoveRequest {
  clientId: number;
  stockId: number;
  type: 'entrada' | 'salida' | 'aplicacion';
  amount: number;
  notes?: string | null;
  author: number | null;
  encounterId?: number | null;
  /** The initial quantity of a batch created inactive is still recorded. */
  allowInactive?: boolean;
}

/**
 * The one way a batch's quantity changes: a conditional UPDATE (so two concurrent moves can never
 * sell the same units) and the move row, in the caller's transaction. Answers the quantity after.
 */
export async function applyMove(
  deps: InventoryDeps,
  m: MoveRequest,
  transaction: Transaction,
): Promise<{ move: Move; cuantityAfter: number }> {
  const stock = await findStock(m.clientId, m.stockId, 'stock_id', transaction);
  if (!bool(stock.active) && !m.allowInactive)
    throw badRequest('stock_id', `El lote ${stock.serial} está inactivo; actívelo antes de registrar movimientos.`);
  const delta = rules.moveDelta(m.type, m.amount);
  const now = deps.now();
  const changed =
    delta >= 0
      ? await execute(
          deps.sequelize,
          'UPDATE stocks SET cuantity = cuantity + :amount, updated_at = :now WHERE id = :id AND client_id = :cid AND cuantity <= :max',
          { amount: delta, now, id: stock.id, cid: m.clientId, max: MAX_CUANTITY - delta },
          transaction,
        )
      : await execute(
          deps.sequelize,
          'UPDATE stocks SET cuantity = cuantity - :amount, updated_at = :now WHERE id = :id AND client_id = :cid AND cuantity >= :amount',
          { amount: -delta, now, id: stock.id, cid: m.clientId },
          transaction,
        );
  const [row] = await select<{ cuantity: number }>(
    deps.sequelize,
    'SELECT cuantity FROM stocks WHERE id = :id',
    { id: stock.id },
    transaction,
  );
  const current = Number(row.cuantity);
  if (changed !== 1) {
    if (delta >= 0) throw badRequest('amount', 'La cantidad del lote superaría el máximo permitido.');
    throw badRequest(m.type === 'aplicacion' ? 'stock_id' : 'amount', rules.insufficientStockMessage(stock.serial, current, -delta));
  }
  const move = await Move.create(
    {
      client_id: m.clientId,
      stock_id: stock.id,
      type: m.type,
      amount: m.amount,
      notes: m.notes?.trim() || null,
      author: m.author,
      encounter_id: m.encounterId ?? null,
      created_at: now,
    },
    { transaction },
  );
  return { move, cuantityAfter: current };
}

async function toMoveDtos(moves: Move[], after?: number): Promise<S['Move'][]> {
  const stockIds = [...new Set(moves.map((m) => m.stock_id))];
  const authorIds = [...new Set(moves.map((m) => m.author).filter((x): x is number => x != null))];
  const stocks = new Map(
    (stockIds.length ? await Stock.findAll({ where: { id: stockIds }, attributes: ['id', 'serial'] }) : []).map((s) => [s.id, s.serial]),
  );
  const authors = new Map(
    (authorIds.length ? await User.findAll({ where: { id: authorIds }, attributes: ['id', 'first_name', 'last_name'] }) : []).map((u) => [
      u.id,
      `${u.first_name} ${u.last_name}`,
    ]),
  );
  return moves.map((m) => ({
    id: m.id,
    stock_id: m.stock_id,
    serial: stocks.get(m.stock_id) ?? '',
    type: m.type as S['MoveType'],
    type_name: rules.MOVE_TYPE_NAMES[m.type] ?? m.type,
    amount: Number(m.amount),
    notes: m.notes,
    author: m.author,
    author_name: m.author != null ? (authors.get(m.author) ?? null) : null,
    encounter_id: m.encounter_id,
    cuantity_after: after ?? null,
    created_at: new Date(m.created_at).toISOString(),
  }));
}

export async function createMove(deps: InventoryDeps, actor: StaffPrincipal, input: S['MoveInput']) {
  const { move, cuantityAfter } = await deps.sequelize.transaction((transaction) =>
    applyMove(
      deps,
      {
        clientId: actor.clientId,
        stockId: input.stock_id,
        type: input.type,
        amount: input.amount,
        notes: input.notes,
        author: actor.userId,
      },
      transaction,
    ),
  );
  return (await toMoveDtos([move], cuantityAfter))[0];
}

const MOVE_SORT = new Set(['id', 'created_at', 'amount', 'type']);

export async function listMoves(
  clientId: number,
  p: ListParams,
  f: { date1?: string; date2?: string; serial?: string; type?: string; stock_id?: number },
) {
  const where: WhereOptions<Move> = { client_id: clientId };
  if (f.type) Object.assign(where, { type: f.type });
  if (f.stock_id) Object.assign(where, { stock_id: f.stock_id });
  const range = dayRange(f.date1, f.date2, await clientZone(clientId));
  if (range) Object.assign(where, { created_at: range });
  if (f.serial) {
    const ids = (
      await Stock.findAll({
        where: { client_id: clientId, serial: { [Op.like]: `${likeSafe(f.serial.toUpperCase())}%` } },
        attributes: ['id'],
      })
    ).map((s) => s.id);
    Object.assign(where, { stock_id: f.stock_id ? ids.filter((i) => i === f.stock_id) : ids });
  }
  const sort = p.sort && MOVE_SORT.has(p.sort) ? p.sort : 'created_at';
  const { rows, count } = await Move.findAndCountAll({
    where,
    order: [
      [sort, p.sort ? p.order : 'DESC'],
      ['id', p.sort ? p.order : 'DESC'],
    ],
    offset: p.offset,
    limit: p.limit,
  });
  return { rows: await toMoveDtos(rows), total: count };
}
