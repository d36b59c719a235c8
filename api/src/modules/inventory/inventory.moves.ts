import { Op, type Transaction, type WhereOptions } from 'sequelize';
import { execute, select } from '../../db/sql.js';
import { badRequest } from '../../http/errors.js';
import { likeSafe, sortOrder } from '../../http/list-params.js';
import { defineResource } from '../../resources/resource.js';
import { User } from '../../db/models/users.model.js';
import { Move, Stock } from '../../db/models/inventory.model.js';
import * as rules from './inventory.rules.js';
import { bool, dayRange, findStock, type InventoryDeps } from './inventory.common.js';
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

/** What a move's creation answers beyond its row: the batch's quantity after it (a list shows none). */
const quantityAfter = new WeakMap<Move, number>();

/** The one place moves rows become the contract's Move: serials and authors' names read in bulk. */
async function toMoveDtos(moves: Move[]): Promise<S['Move'][]> {
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
    cuantity_after: quantityAfter.get(m) ?? null,
    created_at: new Date(m.created_at).toISOString(),
  }));
}

const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/**
 * Moves (03 §2): the log of every unit in or out of a batch; created, never edited. `serial=` (the
 * batch's serial, from its start), `date1` and `date2` (days of the client's zone) keep their own meaning.
 */
export const movesResource = (deps: InventoryDeps) =>
  defineResource<Move, S['Move'], S['MoveInput']>({
    name: 'moves',
    model: Move,
    tenant: 'client_id',
    access: { write: 'administer' },
    operations: { list: 'listMoves', create: 'createMove' },
    fields: {
      id: { column: 'id', kind: 'integer', sort: true },
      stock_id: { column: 'stock_id', kind: 'integer' },
      type: { column: 'type', kind: 'enum', sort: true },
      amount: { column: 'amount', kind: 'integer', sort: true },
      notes: { column: 'notes', kind: 'text' },
      author: { column: 'author', kind: 'integer' },
      encounter_id: { column: 'encounter_id', kind: 'integer' },
      created_at: { column: 'created_at', kind: 'datetime', sort: true },
    },
    defaultLimit: 10,
    notFound: 'El movimiento no existe.',
    // Newest first unless sorted.
    order: (p) => sortOrder(p, [['created_at', 'DESC']], ['id', p.sort ? p.order : 'DESC']),
    async where(query, ctx) {
      const and: WhereOptions<Move>[] = [];
      const range = dayRange(text(query.date1), text(query.date2), await deps.clientTimeZone(ctx.clientId));
      if (range) and.push({ created_at: range });
      const serial = text(query.serial);
      if (serial) {
        const stocks = await Stock.findAll({
          where: { client_id: ctx.clientId, serial: { [Op.like]: `${likeSafe(serial.toUpperCase())}%` } },
          attributes: ['id'],
        });
        and.push({ stock_id: stocks.map((s) => s.id) });
      }
      return and.length ? { [Op.and]: and } : null;
    },

    present: (moves) => toMoveDtos(moves),
    async create(input, ctx) {
      const { move, cuantityAfter } = await deps.sequelize.transaction((transaction) =>
        applyMove(
          deps,
          {
            clientId: ctx.clientId,
            stockId: input.stock_id,
            type: input.type,
            amount: input.amount,
            notes: input.notes,
            author: ctx.actor.userId,
          },
          transaction,
        ),
      );
      quantityAfter.set(move, cuantityAfter);
      return move;
    },
  });
