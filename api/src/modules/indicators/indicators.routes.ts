import { Router } from 'express';
import { requireStaff, staffOf } from '../../http/auth.js';
import { route } from '../../http/operations.js';
import { readIndicators, type IndicatorReadDeps } from './indicators.service.js';

/** The dashboard's 'Indicadores' card (issue 21): whoever reads the reports reads them. */
export function indicatorsRouter(deps: IndicatorReadDeps & { now: () => Date }): Router {
  const r = Router();
  route(r, 'getIndicators', [requireStaff('reports.get')], async (req, res) => {
    res.json(await readIndicators(deps, staffOf(req).clientId, deps.now()));
  });
  return r;
}
