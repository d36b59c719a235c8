import { Router, type Request, type Response } from 'express';
import { can } from '@vigia/contract/rules/access';
import { FhirError, baseUrl, fhirErrors, operationOutcome, readerOf, send, type FhirDeps, type Reader } from '../fhir/fhir.routes.js';
import { parseKickOff } from '../fhir/fhir.export.params.js';
import { MAX_INT_ID, isStrict } from '../fhir/fhir.search.rules.js';
import { scopeCovers } from '../api_clients/api-clients.rules.js';
import type { FhirType } from '../api_clients/api-clients.rules.js';
import { RETRY_AFTER_S, manifestOf, type ExportLevel } from './fhir-exports.rules.js';
import { cancelExport, findExport, startExport, type ExportRow, type FhirExportDeps } from './fhir-exports.service.js';
import { sendExportFile, typesOfLevel } from './fhir-exports.routes.js';

/**
 * FHIR Bulk Data export (issue 37; Bulk Data Access IG 2.0) at /fhir/R4: the kick-offs `$export`,
 * `Patient/$export` and `Group/g<id>/$export` (Prefer: respond-async → 202 and Content-Location),
 * the status URL (202 with X-Progress and Retry-After, then 200 with the manifest and Expires;
 * DELETE cancels) and the files, served only to the API client that asked (or an administrator of
 * the organisation, who sees its exports in 'Integraciones').
 */

export type BulkDeps = FhirExportDeps & Omit<FhirDeps, 'sequelize' | 'now' | 'log'> & { publicUrl: string | null };

const KICK_OFF_PARAMS = new Set(['_type', '_since', '_outputFormat']);

/** An API client, or a staff user whose role administers (exports are the organisation's whole data). */
async function exporterOf(deps: BulkDeps, req: Request, res: Response): Promise<Reader> {
  const reader = await readerOf(deps, req, res);
  if (reader.apiClientId === null && !(reader.role && can(reader.role, 'administer')))
    throw new FhirError(403, 'forbidden', 'Solo un cliente de API o un administrador pueden exportar datos.');
  return reader;
}

/** The export, when this reader may see it: its own API client's, or any of the organisation's for an administrator. */
async function exportFor(deps: BulkDeps, reader: Reader, rawId: string): Promise<ExportRow> {
  const id = /^[1-9]\d{0,9}$/.test(rawId) && Number(rawId) <= MAX_INT_ID ? Number(rawId) : 0;
  const row = id ? await findExport(deps.sequelize, reader.clientId, id) : null;
  if (!row || (reader.apiClientId !== null && row.api_client_id !== reader.apiClientId))
    throw new FhirError(404, 'not-found', `No existe la exportación ${rawId}`);
  return row;
}

function httpDate(d: Date): string {
  return d.toUTCString();
}

export function bulkExportRouter(deps: BulkDeps): Router {
  const r = Router();

  const kickOff = (level: ExportLevel) => async (req: Request, res: Response) => {
    const reader = await exporterOf(deps, req, res);
    const unknown = Object.keys(req.query).filter((k) => !KICK_OFF_PARAMS.has(k));
    if (unknown.length && isStrict(req.get('prefer')))
      throw new FhirError(400, 'not-supported', `Parámetro de exportación no admitido: ${unknown.join(', ')}`, unknown[0]);
    const parsed = parseKickOff(req.get('prefer'), req.query as Record<string, unknown>);
    if (!parsed.ok) throw new FhirError(400, 'invalid', parsed.message, parsed.field);
    let groupId: number | null = null;
    if (level === 'group') {
      const m = /^g([1-9]\d{0,9})$/.exec(String(req.params.id));
      if (!m || Number(m[1]) > MAX_INT_ID) throw new FhirError(404, 'not-found', `No existe Group/${String(req.params.id)}`);
      groupId = Number(m[1]);
    }
    const named = req.query._type !== undefined;
    const allowed = typesOfLevel(level);
    const outside = parsed.types.find((t) => !allowed.includes(t));
    if (named && outside)
      throw new FhirError(400, 'invalid', `${outside} no pertenece al compartimento de los pacientes: quítelo de _type.`, '_type');
    const covered = (t: FhirType) => !reader.scopes || scopeCovers(reader.scopes, t, 'read');
    const uncovered = parsed.types.find((t) => !covered(t));
    if (named && uncovered) throw new FhirError(403, 'forbidden', `El token no tiene el alcance system/${uncovered}.r.`, '_type');
    // Without _type: every type of the level the client may read.
    const types = named ? parsed.types : allowed.filter(covered);
    if (!types.length) throw new FhirError(403, 'forbidden', 'El token no permite leer ningún tipo exportable.');
    const base = baseUrl(deps, req);
    const row = await startExport(
      deps,
      { clientId: reader.clientId, apiClientId: reader.apiClientId, userId: reader.userId },
      { level, groupId, types, since: parsed.since, request: `${base.replace(/\/fhir\/R4$/, '')}${req.originalUrl}` },
    );
    res.set('Content-Location', `${base}/$export-status/${row.id}`);
    send(res, 202, operationOutcome('informational', `Exportación ${row.id} en cola.`, 'information'));
  };

  r.get('/\\$export', kickOff('system'));
  r.get('/Patient/\\$export', kickOff('patient'));
  r.get('/Group/:id/\\$export', kickOff('group'));

  r.get('/\\$export-status/:id', async (req, res) => {
    const reader = await exporterOf(deps, req, res);
    const row = await exportFor(deps, reader, String(req.params.id));
    if (row.status === 'queued' || row.status === 'running') {
      res.set({ 'X-Progress': row.progress ?? 'En cola', 'Retry-After': String(RETRY_AFTER_S) });
      return res.status(202).end();
    }
    if (row.status === 'completed') {
      res.set('Expires', httpDate(row.expires_at!));
      return send(res, 200, manifestOf(row, baseUrl(deps, req)));
    }
    if (row.status === 'failed') return send(res, 500, operationOutcome('exception', `La exportación falló: ${row.error ?? ''}`.trim()));
    throw new FhirError(404, 'not-found', `La exportación ${row.id} fue cancelada o ya caducó.`);
  });

  r.delete('/\\$export-status/:id', async (req, res) => {
    const reader = await exporterOf(deps, req, res);
    const row = await exportFor(deps, reader, String(req.params.id));
    if (row.status === 'cancelled' || row.status === 'expired')
      throw new FhirError(404, 'not-found', `La exportación ${row.id} fue cancelada o ya caducó.`);
    await cancelExport(deps, reader.clientId, row.id);
    send(res, 202, operationOutcome('informational', `Exportación ${row.id} cancelada; sus archivos se borraron.`, 'information'));
  });

  r.get('/\\$export-file/:id/:file', async (req, res) => {
    const reader = await exporterOf(deps, req, res);
    const row = await exportFor(deps, reader, String(req.params.id));
    if (!(await sendExportFile(deps, row, String(req.params.file), res)))
      throw new FhirError(404, 'not-found', 'El archivo no existe o la exportación ya no lo conserva.');
  });

  r.use(fhirErrors(deps.log));
  return r;
}
