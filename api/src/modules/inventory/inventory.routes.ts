import { Router } from 'express';
import { requireStaff, staffOf } from '../../http/auth.js';
import { readListParams, sendList, type ListParams } from '../../http/list-params.js';
import { route, type OperationHandler } from '../../http/operations.js';
import { readIntParam } from '../../http/params.js';
import type { components } from '@vigia/contract/openapi';
import { findStock, findSupply, type InventoryDeps } from './inventory.common.js';
import { SUPPLY_FIELDS, createSupply, listSupplies, toSupplyDto, updateSupply } from './inventory.supplies.js';
import { STOCK_FIELDS, createStock, getStock, listStocks, updateStock } from './inventory.stocks.js';
import { MOVE_FIELDS, createMove, listMoves } from './inventory.moves.js';

// The contract validator has already checked and coerced every query value; texts are trimmed, a blank one is no filter.
const str = (v: string | undefined) => v?.trim() || undefined;

export interface InventoryRouterDeps extends InventoryDeps {
  /** A batch's applications are encounters: the encounters module answers them (composition root). */
  listStockApplications(
    clientId: number,
    stockId: number,
    p: ListParams,
    f: { date1?: string; date2?: string },
  ): Promise<{ rows: components['schemas']['StockApplication'][]; total: number }>;
}

/**
 * Inventory (03 §2): supplies, stocks (batches) and moves. The spec's Rails-style `stocks.json`
 * calls become REST paths under /api/v1 (D1, P70). Any staff reads; only `admin` writes (D13).
 */
export function inventoryRouter(deps: InventoryRouterDeps): Router {
  const r = Router();
  route(r, 'listSupplies', [requireStaff()], async (req, res) => {
    const q = req.query;
    const { rows, total } = await listSupplies(staffOf(req).clientId, readListParams(req, 20, SUPPLY_FIELDS), {
      generic_name: str(q.generic_name),
    });
    sendList(res, rows, total);
  });
  route(r, 'createSupply', [requireStaff('administer')], async (req, res) => {
    res.status(201).json(await createSupply(staffOf(req).clientId, req.body));
  });
  route(r, 'getSupply', [requireStaff()], async (req, res) => {
    res.json(toSupplyDto(await findSupply(staffOf(req).clientId, readIntParam(req, 'id'))));
  });
  const saveSupply: OperationHandler<'updateSupply'> = async (req, res) => {
    res.json(await updateSupply(staffOf(req).clientId, readIntParam(req, 'id'), req.body));
  };
  route(r, 'updateSupply', [requireStaff('administer')], saveSupply);
  route(r, 'patchSupply', [requireStaff('administer')], saveSupply);

  route(r, 'listStocks', [requireStaff()], async (req, res) => {
    const { rows, total } = await listStocks(deps, staffOf(req).clientId, readListParams(req, 10, STOCK_FIELDS));
    sendList(res, rows, total);
  });
  route(r, 'createStock', [requireStaff('administer')], async (req, res) => {
    res.status(201).json(await createStock(deps, staffOf(req), req.body));
  });
  route(r, 'getStock', [requireStaff()], async (req, res) => {
    res.json(await getStock(deps, staffOf(req).clientId, readIntParam(req, 'id')));
  });
  const saveStock: OperationHandler<'updateStock'> = async (req, res) => {
    res.json(await updateStock(deps, staffOf(req), readIntParam(req, 'id'), req.body));
  };
  route(r, 'updateStock', [requireStaff('administer')], saveStock);
  route(r, 'patchStock', [requireStaff('administer')], saveStock);
  route(r, 'listStockApplications', [requireStaff()], async (req, res) => {
    const clientId = staffOf(req).clientId;
    await findStock(clientId, readIntParam(req, 'id'));
    const { rows, total } = await deps.listStockApplications(clientId, readIntParam(req, 'id'), readListParams(req, 10), {
      date1: str(req.query.date1),
      date2: str(req.query.date2),
    });
    sendList(res, rows, total);
  });

  route(r, 'listMoves', [requireStaff()], async (req, res) => {
    const q = req.query;
    const { rows, total } = await listMoves(staffOf(req).clientId, readListParams(req, 10, MOVE_FIELDS), {
      date1: str(q.date1),
      date2: str(q.date2),
      serial: str(q.serial),
    });
    sendList(res, rows, total);
  });
  route(r, 'createMove', [requireStaff('administer')], async (req, res) => {
    res.status(201).json(await createMove(deps, staffOf(req), req.body));
  });
  return r;
}
