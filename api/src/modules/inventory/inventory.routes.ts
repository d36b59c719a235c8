import { Router, type Request, type Response } from 'express';
import { requireStaff, staffOf } from '../../http/auth.js';
import { readListParams, sendList, type ListParams } from '../../http/list-params.js';
import { readIntParam } from '../../http/params.js';
import type { components } from '@vigia/contract/openapi';
import { findStock, findSupply, type InventoryDeps } from './inventory.common.js';
import { createSupply, listSupplies, toSupplyDto, updateSupply } from './inventory.supplies.js';
import { createStock, getStock, listStocks, updateStock } from './inventory.stocks.js';
import { createMove, listMoves } from './inventory.moves.js';

const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
const num = (v: unknown) => (v != null && v !== '' ? Number(v) : undefined);
const flag = (v: unknown) => (v === undefined ? undefined : v === true || v === 'true');

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
  r.get('/supplies', requireStaff(), async (req, res) => {
    const q = req.query;
    const { rows, total } = await listSupplies(staffOf(req).clientId, readListParams(req, 20), {
      type: str(q.type),
      generic_name: str(q.generic_name),
      active: flag(q.active),
    });
    sendList(res, rows, total);
  });
  r.post('/supplies', requireStaff('administer'), async (req, res) => {
    res.status(201).json(await createSupply(staffOf(req).clientId, req.body));
  });
  r.get('/supplies/:id', requireStaff(), async (req, res) => {
    res.json(toSupplyDto(await findSupply(staffOf(req).clientId, readIntParam(req, 'id'))));
  });
  const saveSupply = async (req: Request, res: Response) => {
    res.json(await updateSupply(staffOf(req).clientId, readIntParam(req, 'id'), req.body));
  };
  r.put('/supplies/:id', requireStaff('administer'), saveSupply);
  r.patch('/supplies/:id', requireStaff('administer'), saveSupply);

  r.get('/stocks', requireStaff(), async (req, res) => {
    const q = req.query;
    const { rows, total } = await listStocks(deps, staffOf(req).clientId, readListParams(req, 10), {
      type: str(q.type),
      medical_supply_id: num(q.medical_supply_id),
      active: flag(q.active),
    });
    sendList(res, rows, total);
  });
  r.post('/stocks', requireStaff('administer'), async (req, res) => {
    res.status(201).json(await createStock(deps, staffOf(req), req.body));
  });
  r.get('/stocks/:id', requireStaff(), async (req, res) => {
    res.json(await getStock(deps, staffOf(req).clientId, readIntParam(req, 'id')));
  });
  const saveStock = async (req: Request, res: Response) => {
    res.json(await updateStock(deps, staffOf(req), readIntParam(req, 'id'), req.body));
  };
  r.put('/stocks/:id', requireStaff('administer'), saveStock);
  r.patch('/stocks/:id', requireStaff('administer'), saveStock);
  r.get('/stocks/:id/applications', requireStaff(), async (req, res) => {
    const clientId = staffOf(req).clientId;
    await findStock(clientId, readIntParam(req, 'id'));
    const { rows, total } = await deps.listStockApplications(clientId, readIntParam(req, 'id'), readListParams(req, 10), {
      date1: str(req.query.date1),
      date2: str(req.query.date2),
    });
    sendList(res, rows, total);
  });

  r.get('/moves', requireStaff(), async (req, res) => {
    const q = req.query;
    const { rows, total } = await listMoves(staffOf(req).clientId, readListParams(req, 10), {
      date1: str(q.date1),
      date2: str(q.date2),
      serial: str(q.serial),
      type: str(q.type),
      stock_id: num(q.stock_id),
    });
    sendList(res, rows, total);
  });
  r.post('/moves', requireStaff('administer'), async (req, res) => {
    res.status(201).json(await createMove(deps, staffOf(req), req.body));
  });
  return r;
}
