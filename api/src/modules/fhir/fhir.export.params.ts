import { FHIR_TYPES, type FhirType } from '../api_clients/api-clients.rules.js';

/** Bulk Data kick-off parameters (issue 37): Prefer, _outputFormat, _type, _since, with Spanish errors. */
/** Every type the FHIR API serves can be exported (one list: api-clients.rules.ts, which the scopes use too). */
export const EXPORT_TYPES = FHIR_TYPES;
export type ExportType = FhirType;

const FORMATS = new Set(['application/fhir+ndjson', 'application/ndjson', 'ndjson']);

export type KickOff = { ok: true; types: ExportType[]; since: Date | null } | { ok: false; field: string; message: string };

export function parseKickOff(prefer: string | undefined, query: Record<string, unknown>): KickOff {
  const prefs = (prefer ?? '').split(',').map((p) => p.trim().toLowerCase());
  if (!prefs.includes('respond-async')) {
    return { ok: false, field: 'Prefer', message: 'La exportación requiere la cabecera Prefer: respond-async' };
  }
  const fmt = query._outputFormat;
  if (fmt !== undefined && (typeof fmt !== 'string' || !FORMATS.has(fmt))) {
    return { ok: false, field: '_outputFormat', message: 'Formato de salida no admitido: use application/fhir+ndjson' };
  }
  let types: ExportType[] = [...EXPORT_TYPES];
  const t = query._type;
  if (t !== undefined) {
    if (typeof t !== 'string' || t.trim() === '') {
      return { ok: false, field: '_type', message: '_type debe ser una lista de tipos separados por comas' };
    }
    const asked = t.split(',').map((s) => s.trim());
    const bad = asked.find((s) => !(EXPORT_TYPES as readonly string[]).includes(s));
    if (bad !== undefined) return { ok: false, field: '_type', message: `Tipo de recurso no exportable: ${bad}` };
    types = [...new Set(asked)] as ExportType[];
  }
  let since: Date | null = null;
  const s = query._since;
  if (s !== undefined) {
    const ok = typeof s === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(s);
    const d = ok ? new Date(s) : null;
    if (!d || Number.isNaN(d.getTime())) {
      return { ok: false, field: '_since', message: '_since debe ser un instante FHIR con zona horaria' };
    }
    since = d;
  }
  return { ok: true, types, since };
}
