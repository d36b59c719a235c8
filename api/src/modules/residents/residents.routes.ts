import { Router } from 'express';
import { requireStaff, staffOf } from '../../http/auth.js';
import { route } from '../../http/operations.js';
import { readIntParam } from '../../http/params.js';
import type { ResidentsAdapter } from '../../adapters/residents.js';
import { findResident } from './residents.service.js';

/** Residents-code query of the client (01 §7): 404 means not found. */
export function residentsRouter(adapter: ResidentsAdapter) {
  const r = Router();
  route(r, 'findResident', [requireStaff('patients.edit')], async (req, res) => {
    res.json(await findResident(adapter, staffOf(req), readIntParam(req, 'id'), req.params.code));
  });
  return r;
}
