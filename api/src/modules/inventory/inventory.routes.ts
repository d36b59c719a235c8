import { Router } from 'express';
import { requireStaff, staffOf } from '../../http/auth.js';
import { readListParams, sendList, type ListParams } from '../../http/list-params.js';
import { route } from '../../http/operations.js';
import { readIntParam } from '../../http/params.js';
import { resourceRouter } from '../../resources/resource.engine.js';
import type { components } from '@vigia/contract/openapi';
import { findStock, type InventoryDeps } from './inventory.common.js';
import { suppliesResource } from './inventory.supplies.js';
import { stocksResource } from './inventory.stocks.js';
import { movesResource } from './inventory.moves.js';

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
 * Inventory (03 §2): supplies, stocks (batches) and moves, three declared resources (the engine in
 * api/src/resources), plus a batch's applications. The spec's Rails-style `stocks.json` calls
 * become REST paths under /api/v1 (D1, P70). Any staff reads; only `admin` writes (D13).
 */
export function inventoryRouter(deps: InventoryRouterDeps): Router {
  const r = Router();
  r.use(resourceRouter(suppliesResource, deps), resourceRouter(stocksResource(deps), deps), resourceRouter(movesResource(deps), deps));
  route(r, 'listStockApplications', [requireStaff()], async (req, res) => {
    const clientId = staffOf(req).clientId;
    await findStock(clientId, readIntParam(req, 'id'));
    const { rows, total } = await deps.listStockApplications(clientId, readIntParam(req, 'id'), readListParams(req, 10), {
      date1: str(req.query.date1),
      date2: str(req.query.date2),
    });
    sendList(res, rows, total);
  });
  return r;
}
