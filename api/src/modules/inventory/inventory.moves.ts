import { Op, type Transaction, type WhereOptions } from 'sequelize';
import { execute, select } from '../../db/sql.js';
import { badRequest } from '../../http/errors.js';
import { filterWhere, sortOrder, type ListFields, type ListParams } from '../../http/list-params.js';
import type { StaffPrincipal } from '../../http/auth.js';
import { likeSafe } from '../catalogues/catalogues.service.js';
import { User } from '../../db/models/users.model.js';
import { Move, Stock } from '../../db/models/inventory.model.js';
import * as rules from './inventory.rules.js';
import { bool, clientZone, dayRange, findStock, type InventoryDeps } from './inventory.common.js';
import type { components } from '@vigia/contract/openapi';

type S = components['schemas'];

/** Largest quantity a batch may hold (fits a 32-bit integer column on both databases). */
const MAX_CUANTITY = 2_000_000_000;

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

/**
 * What GET /moves sorts and filters by (openapi.yaml listMoves declares the same). `serial=` (the
 * batch's serial, from its start), `date1` and `date2` (days of the client's zone) keep their own meaning.
 */
export const MOVE_FIELDS: ListFields = {
  id: { column: 'id', kind: 'integer', sort: true },
  stock_id: { column: 'stock_id', kind: 'integer' },
  type: { column: 'type', kind: 'enum', sort: true },
  amount: { column: 'amount', kind: 'integer', sort: true },
  notes: { column: 'notes', kind: 'text' },
  author: { column: 'author', kind: 'integer' },
  encounter_id: { column: 'encounter_id', kind: 'integer' },
  created_at: { column: 'created_at', kind: 'datetime', sort: true },
};

export async function listMoves(clientId: number, p: ListParams, f: { date1?: string; date2?: string; serial?: string }) {
  const where: WhereOptions<Move> = { client_id: clientId, [Op.and]: filterWhere(p.filters) };
  const range = dayRange(f.date1, f.date2, await clientZone(clientId));
  if (range) Object.assign(where, { created_at: range });
  if (f.serial) {
    const ids = (
      await Stock.findAll({
        where: { client_id: clientId, serial: { [Op.like]: `${likeSafe(f.serial.toUpperCase())}%` } },
        attributes: ['id'],
      })
    ).map((s) => s.id);
    Object.assign(where, { stock_id: ids });
  }
  const { rows, count } = await Move.findAndCountAll({
    where,
    // Newest first unless sorted.
    order: sortOrder(p, [['created_at', 'DESC']], ['id', p.sort ? p.order : 'DESC']),
    offset: p.offset,
    limit: p.limit,
  });
  return { rows: await toMoveDtos(rows), total: count };
}
