import { Router } from 'express';
import { principalOf, requireStaff, staffOf, type Principal } from '../../http/auth.js';
import { sendList } from '../../http/list-params.js';
import { badRequest, forbidden } from '../../http/errors.js';
import type { Downloads } from '../../http/downloads.js';
import { idempotent } from '../../http/idempotency.js';
import { route, type OperationHandler } from '../../http/operations.js';
import { readIntParam } from '../../http/params.js';
import { can } from '@vigia/contract/rules/access';
import type { IngestDeps } from './measurements.ingest.js';
import * as measurements from './measurements.service.js';
import * as devices from './devices.service.js';
import { streamMeasurementsCsv } from './measurements.csv.js';
import { streamMeasurementsPdf } from './measurements.pdf.js';
import { defaultReportRange, MAX_EXPORT_DAYS, rangeBound } from './measurements.rules.js';

export interface MeasurementDeps extends IngestDeps {
  downloads: Downloads;
}

const CSV_KIND = 'patient_measurements_csv';
const PDF_KIND = 'patient_measurements_pdf';

/** The download kinds of this module (D4); the files are read with the link's own client. */
export function registerMeasurementDownloads(deps: MeasurementDeps): void {
  deps.downloads.register(CSV_KIND, (claims, res) => streamMeasurementsCsv(deps.sequelize, claims, res));
  deps.downloads.register(PDF_KIND, (claims, res) => streamMeasurementsPdf(deps.sequelize, claims, res, deps.now()));
}

/** Staff with report rights, or the patient's own token (portal 'Descargar CSV/PDF'). */
async function reportLink(
  deps: MeasurementDeps,
  principal: Principal,
  patientId: number,
  query: { start_at?: string; end_at?: string; clinical_element?: number },
  kind: string,
) {
  if (principal.kind === 'staff' && !can(principal.role, 'reports.get')) throw forbidden();
  const patient = await measurements.findPatientFor(deps.sequelize, principal, patientId);
  const fallback = defaultReportRange(deps.now(), patient.time_zone);
  const start = rangeBound(query.start_at, patient.time_zone, 'start') ?? fallback.start;
  const end = rangeBound(query.end_at, patient.time_zone, 'end') ?? fallback.end;
  if (start >= end) throw badRequest('end_at', 'La fecha final debe ser posterior a la inicial.');
  if (end.getTime() - start.getTime() > (MAX_EXPORT_DAYS + 1) * 86_400_000)
    throw badRequest('end_at', `El periodo no puede superar ${MAX_EXPORT_DAYS} días.`);
  const element = query.clinical_element != null && kind === CSV_KIND ? query.clinical_element : null;
  return deps.downloads.link(patient.client_id, kind, {
    patient_id: patient.id,
    start: start.toISOString(),
    end: end.toISOString(),
    clinical_element: element,
  });
}

export function measurementsRouter(deps: MeasurementDeps): Router {
  const r = Router();
  route(r, 'listMeasurements', [], async (req, res) => {
    const q = req.query;
    if (q.format === 'csv') {
      res.json(await reportLink(deps, principalOf(req), readIntParam(req, 'id'), q, CSV_KIND));
      return;
    }
    const { rows, total } = await measurements.listMeasurements(deps.sequelize, principalOf(req), readIntParam(req, 'id'), {
      clinical_element: q.clinical_element,
      order: q.order ?? 'desc',
      start_at: q.start_at,
      end_at: q.end_at,
      include_deleted: q.include_deleted === true,
      // page/per_page (as every list) or _start/_end.
      ...(q.page != null || q.per_page != null
        ? { _start: ((q.page ?? 1) - 1) * (q.per_page ?? 100), _end: (q.page ?? 1) * (q.per_page ?? 100) }
        : { _start: q._start, _end: q._end }),
    });
    sendList(res, rows, total);
  });
  // A reading typed by hand and sent again after a lost answer is stored once (Idempotency-Key, issue 50).
  route(
    r,
    'createMeasurements',
    [requireStaff('clinical.write')],
    idempotent(deps, async (req, res) => {
      res.status(201).json(await measurements.recordMeasurements(deps, staffOf(req), readIntParam(req, 'id'), req.body));
    }),
  );
  const remove: OperationHandler<'deleteMeasurement'> = async (req, res) => {
    res.json(
      await measurements.deleteMeasurement(deps.sequelize, staffOf(req), readIntParam(req, 'id'), readIntParam(req, 'mid'), req.body),
    );
  };
  route(r, 'deleteMeasurement', [requireStaff('clinical.write')], remove);
  route(r, 'patchMeasurement', [requireStaff('clinical.write')], remove);
  route(r, 'getMeasurementsPdf', [], async (req, res) => {
    res.json(await reportLink(deps, principalOf(req), readIntParam(req, 'id'), req.query, PDF_KIND));
  });

  route(r, 'listDevices', [requireStaff('administer')], async (req, res) => {
    const rows = await devices.listDevices(deps.sequelize, staffOf(req).clientId);
    sendList(res, rows, rows.length);
  });
  route(r, 'registerDevice', [requireStaff('administer')], async (req, res) => {
    res.status(201).json(await devices.registerDevice(deps.sequelize, staffOf(req).clientId, deps.now(), req.body));
  });
  route(r, 'rotateDeviceSecret', [requireStaff('administer')], async (req, res) => {
    res.json(await devices.rotateDeviceSecret(deps.sequelize, staffOf(req).clientId, readIntParam(req, 'id'), deps.now()));
  });
  route(r, 'deleteDevice', [requireStaff('administer')], async (req, res) => {
    await devices.deleteDevice(deps.sequelize, staffOf(req).clientId, readIntParam(req, 'id'));
    res.status(204).end();
  });
  return r;
}

/** Device ingestion: authenticated by the device's own secret, not a session (mounted before it). */
export function deviceReadingsRouter(deps: IngestDeps): Router {
  const r = Router();
  route(r, 'receiveDeviceReadings', [], async (req, res) => {
    res.status(201).json(await devices.receiveDeviceReadings(deps, req.params.card_id, req.get('x-device-secret') ?? undefined, req.body));
  });
  return r;
}
