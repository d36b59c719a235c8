import { Router, type Request, type Response } from 'express';
import { principalOf, requireStaff, staffOf, type Principal } from '../../http/auth.js';
import { sendList } from '../../http/list-params.js';
import { badRequest, forbidden } from '../../http/errors.js';
import type { Downloads } from '../../http/downloads.js';
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
async function reportLink(deps: MeasurementDeps, principal: Principal, patientId: number, query: Record<string, unknown>, kind: string) {
  if (principal.kind === 'staff' && !can(principal.role, 'reports.get')) throw forbidden();
  const patient = await measurements.findPatientFor(deps.sequelize, principal, patientId);
  const fallback = defaultReportRange(deps.now(), patient.time_zone);
  const start = rangeBound(query.start_at as string | undefined, patient.time_zone, 'start') ?? fallback.start;
  const end = rangeBound(query.end_at as string | undefined, patient.time_zone, 'end') ?? fallback.end;
  if (start >= end) throw badRequest('end_at', 'La fecha final debe ser posterior a la inicial.');
  if (end.getTime() - start.getTime() > (MAX_EXPORT_DAYS + 1) * 86_400_000)
    throw badRequest('end_at', `El periodo no puede superar ${MAX_EXPORT_DAYS} días.`);
  const element = query.clinical_element != null && kind === CSV_KIND ? Number(query.clinical_element) : null;
  return deps.downloads.link(patient.client_id, kind, {
    patient_id: patient.id,
    start: start.toISOString(),
    end: end.toISOString(),
    clinical_element: element,
  });
}

export function measurementsRouter(deps: MeasurementDeps): Router {
  const r = Router();
  r.get('/patients/:id/measurements', async (req, res) => {
    const q = req.query as Record<string, unknown>;
    if (q.format === 'csv') {
      res.json(await reportLink(deps, principalOf(req), readIntParam(req, 'id'), q, CSV_KIND));
      return;
    }
    const { rows, total } = await measurements.listMeasurements(deps.sequelize, principalOf(req), readIntParam(req, 'id'), {
      clinical_element: q.clinical_element != null ? Number(q.clinical_element) : undefined,
      order: q.order === 'asc' ? 'asc' : 'desc',
      start_at: q.start_at as string | undefined,
      end_at: q.end_at as string | undefined,
      include_deleted: q.include_deleted === true || q.include_deleted === 'true',
      _start: q._start != null ? Number(q._start) : undefined,
      _end: q._end != null ? Number(q._end) : undefined,
    });
    sendList(res, rows, total);
  });
  r.post('/patients/:id/measurements', requireStaff(), async (req, res) => {
    res.status(201).json(await measurements.recordMeasurements(deps, staffOf(req), readIntParam(req, 'id'), req.body));
  });
  const remove = async (req: Request, res: Response) => {
    res.json(
      await measurements.deleteMeasurement(deps.sequelize, staffOf(req), readIntParam(req, 'id'), readIntParam(req, 'mid'), req.body),
    );
  };
  r.put('/patients/:id/measurements/:mid', requireStaff(), remove);
  r.patch('/patients/:id/measurements/:mid', requireStaff(), remove);
  r.get('/patients/:id/show_pdf', async (req, res) => {
    res.json(await reportLink(deps, principalOf(req), readIntParam(req, 'id'), req.query as Record<string, unknown>, PDF_KIND));
  });

  r.get('/devices', requireStaff('administer'), async (req, res) => {
    const rows = await devices.listDevices(deps.sequelize, staffOf(req).clientId);
    sendList(res, rows, rows.length);
  });
  r.post('/devices', requireStaff('administer'), async (req, res) => {
    res.status(201).json(await devices.registerDevice(deps.sequelize, staffOf(req).clientId, deps.now(), req.body));
  });
  r.post('/devices/:id/secret', requireStaff('administer'), async (req, res) => {
    res.json(await devices.rotateDeviceSecret(deps.sequelize, staffOf(req).clientId, readIntParam(req, 'id'), deps.now()));
  });
  r.delete('/devices/:id', requireStaff('administer'), async (req, res) => {
    await devices.deleteDevice(deps.sequelize, staffOf(req).clientId, readIntParam(req, 'id'));
    res.status(204).end();
  });
  return r;
}

/** Device ingestion: authenticated by the device's own secret, not a session (mounted before it). */
export function deviceReadingsRouter(deps: IngestDeps): Router {
  const r = Router();
  r.post('/devices/:card_id/readings', async (req, res) => {
    res
      .status(201)
      .json(await devices.receiveDeviceReadings(deps, String(req.params.card_id), req.get('x-device-secret') ?? undefined, req.body));
  });
  return r;
}
