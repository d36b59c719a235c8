import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Router, type Response } from 'express';
import { route } from '../../http/operations.js';
import { requireStaff, staffOf } from '../../http/auth.js';
import { badRequest, notFound } from '../../http/errors.js';
import { FhirExport } from '../../db/models/fhir-exports.model.js';
import { resourceRouter, type EngineDeps } from '../../resources/resource.engine.js';
import { patientBound } from '../fhir/fhir.search.js';
import { baseUrl } from '../fhir/fhir.routes.js';
import { FHIR_TYPES, type FhirType } from '../api_clients/api-clients.rules.js';
import { fhirExportsResource } from './fhir-exports.resource.js';
import { cancelExport, exportFilePath, findExport, startExport, type ExportRow, type FhirExportDeps } from './fhir-exports.service.js';
import type { ExportLevel } from './fhir-exports.rules.js';

export interface FhirExportRouteDeps extends FhirExportDeps, EngineDeps {
  /** PUBLIC_URL when set: the `request` an export records is built on it, else on the request's own host. */
  publicUrl: string | null;
}

/** The types a level exports when none are named: a group's (or all patients') compartment; the whole organisation's. */
export function typesOfLevel(level: ExportLevel): FhirType[] {
  return level === 'system' ? [...FHIR_TYPES] : FHIR_TYPES.filter((t) => patientBound(t));
}

/** The kick-off URL an export stands for, as the manifest's `request` repeats it. */
export function requestUrl(base: string, level: ExportLevel, groupId: number | null, types: FhirType[], since: Date | null): string {
  const at = level === 'group' ? `Group/g${groupId}/$export` : level === 'patient' ? 'Patient/$export' : '$export';
  const q = new URLSearchParams({ _type: types.join(','), ...(since ? { _since: since.toISOString() } : {}) });
  return `${base}/${at}?${q.toString().replace(/%2C/g, ',')}`;
}

/** Streams one NDJSON file of a completed export. */
export async function sendExportFile(deps: Pick<FhirExportDeps, 'dir'>, row: ExportRow, file: string, res: Response): Promise<boolean> {
  const at = exportFilePath(deps, row, file);
  if (!at) return false;
  const info = await stat(at).catch(() => null);
  if (!info) return false;
  res.status(200).set({
    'Content-Type': 'application/fhir+ndjson',
    'Content-Length': String(info.size),
    'Content-Disposition': `attachment; filename="${file}"`,
    'Cache-Control': 'no-store',
  });
  await new Promise<void>((resolve, reject) => {
    const stream = createReadStream(at);
    stream.on('error', reject);
    res.on('close', () => {
      stream.destroy();
      resolve();
    });
    stream.pipe(res);
  });
  return true;
}

/**
 * The staff API of 'Exportaciones FHIR' (issue 37), for administrators: the list and one export
 * through the engine; start one (202, on the job queue), cancel it or delete its files, download a file.
 */
export function fhirExportsRouter(deps: FhirExportRouteDeps): Router {
  const resource = fhirExportsResource();
  const r = resourceRouter(resource, deps);

  route(r, 'createFhirExport', [requireStaff('administer')], async (req, res) => {
    const actor = staffOf(req);
    const groupId = req.body.group_id ?? null;
    const level: ExportLevel = groupId !== null ? 'group' : 'system';
    const types = req.body.types ?? typesOfLevel(level);
    const since = req.body.since ? new Date(req.body.since) : null;
    if (level === 'group') {
      const outside = types.find((t) => !patientBound(t));
      if (outside) throw badRequest('types', `Una exportación de una etiqueta incluye solo datos de sus pacientes: quite ${outside}.`);
    }
    const row = await startExport(
      deps,
      { clientId: actor.clientId, apiClientId: null, userId: actor.userId },
      { level, groupId, types, since, request: requestUrl(baseUrl(deps, req), level, groupId, types, since) },
    );
    const model = (await FhirExport.findByPk(row.id))!;
    const [dto] = await resource.present([model], { actor, clientId: actor.clientId, now: deps.now(), sequelize: deps.sequelize });
    res.status(202).json(dto);
  });

  route(r, 'cancelFhirExport', [requireStaff('administer')], async (req, res) => {
    const actor = staffOf(req);
    if (!(await cancelExport(deps, actor.clientId, Number(req.params.id)))) throw notFound('La exportación no existe.');
    res.status(204).end();
  });

  route(r, 'downloadFhirExportFile', [requireStaff('administer')], async (req, res) => {
    const actor = staffOf(req);
    const row = await findExport(deps.sequelize, actor.clientId, Number(req.params.id));
    if (!row || !(await sendExportFile(deps, row, req.params.file, res as unknown as Response)))
      throw notFound('El archivo no existe o la exportación ya no lo conserva.');
  });
  return r;
}
