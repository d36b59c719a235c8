import type { RdaKind, RdaStatus } from './rda-status';

/**
 * The RDA list's filters as they live in its address (/rdas?status=rechazado&from=2026-12-01), so
 * a link lands filtered (the dashboard's counts) and a reload keeps them. Read leniently: a value
 * the list does not know is dropped, never sent to the API to be refused.
 */
export interface RdaFilters {
  status?: RdaStatus;
  kind?: RdaKind;
  patient_id?: number;
  /** 'Desde' / 'Hasta', YYYY-MM-DD, days of the organisation's zone (the API reads them so). */
  from?: string;
  to?: string;
}

const STATUSES: readonly string[] = ['sin_enviar', 'pendiente', 'enviado', 'rechazado', 'corregido'] satisfies RdaStatus[];
const KINDS: readonly string[] = ['consulta', 'paciente'] satisfies RdaKind[];

/** A calendar day that exists ('2026-02-30' does not). */
export function isCalendarDay(v: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}

export function readRdaFilters(params: URLSearchParams): RdaFilters {
  const f: RdaFilters = {};
  const status = params.get('status');
  if (status && STATUSES.includes(status)) f.status = status as RdaStatus;
  const kind = params.get('kind');
  if (kind && KINDS.includes(kind)) f.kind = kind as RdaKind;
  const patient = Number(params.get('patient_id'));
  if (Number.isInteger(patient) && patient > 0 && patient <= 2147483647) f.patient_id = patient;
  const from = params.get('from');
  const to = params.get('to');
  if (from && isCalendarDay(from)) f.from = from;
  if (to && isCalendarDay(to)) f.to = to;
  // A range backwards is the API's 400: the later day is dropped instead.
  if (f.from && f.to && f.to < f.from) delete f.to;
  return f;
}

/** The filters as URL parameters; a missing one removes its parameter. */
export function rdaFilterParams(f: RdaFilters): Record<string, string | undefined> {
  return {
    status: f.status,
    kind: f.kind,
    patient_id: f.patient_id === undefined ? undefined : String(f.patient_id),
    from: f.from,
    to: f.to,
  };
}

/** The RDA list filtered by a status: where the dashboard's counts lead. */
export const rdaListPath = (status?: RdaStatus) => (status ? `/rdas?status=${status}` : '/rdas');
