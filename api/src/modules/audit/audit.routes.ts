import { Router, type Request } from 'express';
import { requireStaff, staffOf } from '../../http/auth.js';
import { readListParams, sendList } from '../../http/list-params.js';
import { route } from '../../http/operations.js';
import { readIntParam } from '../../http/params.js';
import type { Sequelize } from 'sequelize';
import type { QueryParams } from '@vigia/contract/rules/operations';
import { listAuditEvents, listPatientAuditEvents, type AuditFilters } from './audit.service.js';
import { isValidTimeZone } from '@vigia/contract/rules/dates';

// The contract validator has already checked and coerced every query value; an empty text is no filter.
const text = (v: string | undefined) => v || undefined;

/** The staff user's zone, which the 'Desde'/'Hasta' days are read in; Bogotá if the stored one is unusable. */
function zoneOf(zone: string | null | undefined): string {
  return zone && isValidTimeZone(zone) ? zone : 'America/Bogota';
}

/** The filters of either list; the patient's own list has no `patient_id`. */
function filtersOf(req: Pick<Request, 'user'> & { query: QueryParams<'listAuditEvents'> }): AuditFilters {
  const q = req.query;
  return {
    patient_id: q.patient_id,
    user_id: q.user_id,
    resource: text(q.resource),
    from: text(q.from),
    to: text(q.to),
    timeZone: zoneOf(staffOf(req).user.time_zone),
  };
}

/** The audit trail (issue 8): administrators only (D13), always within their own client. */
export function auditRouter(sequelize: Sequelize): Router {
  const r = Router();
  route(r, 'listAuditEvents', [requireStaff('administer')], async (req, res) => {
    const { rows, total } = await listAuditEvents(sequelize, staffOf(req).clientId, readListParams(req, 20), filtersOf(req));
    sendList(res, rows, total);
  });
  route(r, 'listPatientAuditEvents', [requireStaff('administer')], async (req, res) => {
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
