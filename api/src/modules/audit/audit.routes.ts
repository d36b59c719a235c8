import { Router, type Request } from 'express';
import { requireStaff, staffOf } from '../../http/auth.js';
import { readListParams, sendList } from '../../http/list-params.js';
import { readIntParam } from '../../http/params.js';
import type { Sequelize } from 'sequelize';
import { listAuditEvents, listPatientAuditEvents, type AuditFilters } from './audit.service.js';
import { isValidTimeZone } from '@vigia/contract/rules/dates';

// The contract validator has already checked (and may have coerced) every query value.
const positive = (v: unknown) => (typeof v === 'number' || (typeof v === 'string' && /^\d+$/.test(v)) ? Number(v) : undefined);
const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

/** The staff user's zone, which the 'Desde'/'Hasta' days are read in; Bogotá if the stored one is unusable. */
function zoneOf(zone: string | null | undefined): string {
  return zone && isValidTimeZone(zone) ? zone : 'America/Bogota';
}

function filtersOf(req: Request): AuditFilters {
  const q = req.query as Record<string, unknown>;
  return {
    patient_id: positive(q.patient_id),
    user_id: positive(q.user_id),
    resource: text(q.resource),
    from: text(q.from),
    to: text(q.to),
    timeZone: zoneOf(staffOf(req).user.time_zone),
  };
}

/** The audit trail (issue 8): administrators only (D13), always within their own client. */
export function auditRouter(sequelize: Sequelize): Router {
  const r = Router();
  r.get('/audit_events', requireStaff('administer'), async (req, res) => {
    const { rows, total } = await listAuditEvents(sequelize, staffOf(req).clientId, readListParams(req, 20), filtersOf(req));
    sendList(res, rows, total);
  });
  r.get('/patients/:id/audit_events', requireStaff('administer'), async (req, res) => {
    const { patient_id: _ignored, ...filters } = filtersOf(req);
    const { rows, total } = await listPatientAuditEvents(
      sequelize,
      staffOf(req).clientId,
      readIntParam(req, 'id'),
      readListParams(req, 20),
      filters,
    );
    sendList(res, rows, total);
  });
  return r;
}
