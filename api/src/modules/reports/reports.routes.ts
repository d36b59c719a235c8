import { Router } from 'express';
import type { Sequelize } from 'sequelize';
import { requireStaff, staffOf } from '../../http/auth.js';
import type { Downloads } from '../../http/downloads.js';
import { badRequest } from '../../http/errors.js';
import { route } from '../../http/operations.js';
import { select } from '../../db/sql.js';
import { rangeBound } from '../measurements/measurements.rules.js';
import { PRIORITY_KEYS, ALERT_STATUS } from '@vigia/contract/rules/alarms';
import { isVitalSignGroup, REPORT_MESSAGES, validateStatusChangeRange } from './reports.rules.js';
import { streamClientMeasurements, streamStatusChanges, streamVitalSigns } from './reports.csv.js';

export interface ReportsDeps {
  sequelize: Sequelize;
  now: () => Date;
  downloads: Downloads;
}

/** The reports page (03 §2, §7): each CSV answers a signed download link (D4); the alert metrics answer counts. */
export function reportsRouter(deps: ReportsDeps): Router {
  const { sequelize, downloads } = deps;
  downloads.register('report.client_measurements', (claims, res) => streamClientMeasurements(sequelize, claims, res));
  downloads.register('report.vital_signs', (claims, res) => streamVitalSigns(sequelize, claims, res));
  downloads.register('report.patient_status_changes', (claims, res) => streamStatusChanges(sequelize, claims, res));

  const r = Router();
  route(r, 'reportClientMeasurements', [requireStaff('reports.get')], (req, res) => {
    const hours = req.query.hours;
    const end = deps.now();
    const start = new Date(end.getTime() - hours * 3600_000);
    res.json(
      downloads.link(staffOf(req).clientId, 'report.client_measurements', { hours, start: start.toISOString(), end: end.toISOString() }),
    );
  });
  route(r, 'reportVitalSigns', [requireStaff('reports.get')], (req, res) => {
    const group = req.query.group;
    if (!isVitalSignGroup(group)) throw badRequest('group', REPORT_MESSAGES.group);
    res.json(downloads.link(staffOf(req).clientId, 'report.vital_signs', { group }));
  });
  route(r, 'reportPatientStatusChanges', [requireStaff('reports.get')], (req, res) => {
    const p = staffOf(req);
    const startDate = req.query.start_date;
    const endDate = req.query.end_date;
    const problem = validateStatusChangeRange(startDate, endDate);
    if (problem) throw badRequest(problem.field, problem.message);
    const tz = p.user.time_zone;
    res.json(
      downloads.link(p.clientId, 'report.patient_status_changes', {
        time_zone: tz,
        start: rangeBound(startDate, tz, 'start')?.toISOString() ?? null,
        end: rangeBound(endDate, tz, 'end')?.toISOString() ?? null,
      }),
    );
  });
  route(r, 'reportClientOpenedAlerts', [requireStaff('reports.get')], async (req, res) => {
    const rows = await select<{ priority: number; n: number }>(
      sequelize,
      `SELECT priority, COUNT(*) AS n FROM alerts WHERE client_id = :c AND status = ${ALERT_STATUS.open} GROUP BY priority`,
      { c: staffOf(req).clientId },
    );
    const by_priority = { low: 0, medium: 0, high: 0 };
    for (const row of rows) {
      const key = PRIORITY_KEYS[Number(row.priority)];
      if (key) by_priority[key] += Number(row.n);
    }
    res.json({ by_priority, total: by_priority.low + by_priority.medium + by_priority.high });
  });
  return r;
}
