import { formatWhen } from '@vigia/contract/rules/dates';
import type { Schemas } from '../../contract';
import { contractDoc } from '../../crud/contract-doc';
import { enumLabel, objectSchema } from '../../crud/schema-rules';
import type { StatusValue, Tone } from '../../crud/types';
import { fhirTypeName } from '../../components/fhir-types';

export type FhirExport = Schemas['FhirExport'];
export type FhirExportType = Schemas['FhirExportType'];
export type FhirExportStatus = Schemas['FhirExportStatus'];
export type FhirExportInput = Schemas['FhirExportInput'];

/** How often the list is read again while an export is queued or running (the API's Retry-After is 2 s). */
export const POLL_MS = 2_000;

/** The nine types in the contract's order (FhirExportType), every one ticked in a new export's form. */
export const EXPORT_TYPES = (objectSchema(contractDoc, 'FhirExportType').enum ?? []) as FhirExportType[];

/** The checkbox options of the form: 'Pacientes (Patient)'. */
export const TYPE_OPTIONS = EXPORT_TYPES.map((type) => ({ value: type, label: `${typeName(type)} (${type})` }));

/** The Spanish name of a type ('Pacientes'): one table with 'Clientes de API' (components/fhir-types.ts). */
export function typeName(type: string): string {
  return fhirTypeName(type);
}

/** Each status's tone; its text is the contract's x-label ('Terminada'). */
const STATUS_TONES: Record<FhirExportStatus, Tone> = {
  queued: 'default',
  running: 'processing',
  completed: 'success',
  failed: 'error',
  cancelled: 'warning',
  expired: 'default',
};

export function statusChip(status: FhirExportStatus): StatusValue {
  return { text: enumLabel(objectSchema(contractDoc, 'FhirExportStatus'), status) ?? status, tone: STATUS_TONES[status] };
}

/** Queued or running: the job still works on it, so the list keeps reading and 'Cancelar' applies. */
export const isActive = (status: FhirExportStatus) => status === 'queued' || status === 'running';

/** Only a completed export's files are served (a deleted one is 'expired'). */
export const hasFiles = (record: Pick<FhirExport, 'status' | 'files'>) => record.status === 'completed' && record.files.length > 0;

/** One line of an export's files: a file of a requested type, or a requested type that had nothing to write. */
export interface ExportFileRow {
  type: FhirExportType;
  /** The file's name; null for a type with no resources (Bulk Data writes no empty file). */
  file: string | null;
  count: number;
}

/**
 * The lines under 'Ver archivos' (issue 50): every type the export asked for, in the order it
 * asked, with its files (a big type has several) or, when it had no resources, one line saying so.
 * 'Todos (9)' then lists nine types even when only eight had data to write.
 */
export function exportFileRows(record: Pick<FhirExport, 'types' | 'files'>): ExportFileRow[] {
  const rows: ExportFileRow[] = [];
  const listed = new Set<string>();
  for (const type of record.types) {
    const files = record.files.filter((f) => f.type === type);
    if (files.length) rows.push(...files.map((f) => ({ type, file: f.file, count: f.count })));
    else rows.push({ type, file: null, count: 0 });
    listed.add(type);
  }
  // A file of a type not asked for (never, by the contract) is still shown rather than hidden.
  for (const f of record.files) if (!listed.has(f.type)) rows.push({ type: f.type, file: f.file, count: f.count });
  return rows;
}

/** react-query's refetchInterval for the list: every POLL_MS while one of the rows on screen is queued or running, else none. */
export function pollInterval(rows: readonly Pick<FhirExport, 'status'>[] | undefined): number | false {
  return rows?.some((r) => isActive(r.status)) ? POLL_MS : false;
}

/** 'Alcance': the whole organisation, every patient, or one tag's patients by its name. */
export function scopeText(record: Pick<FhirExport, 'level' | 'group_name' | 'group_id'>): string {
  if (record.level === 'group') return `Etiqueta «${record.group_name ?? `#${record.group_id ?? ''}`}»`;
  return enumLabel(objectSchema(contractDoc, 'FhirExportLevel'), record.level) ?? record.level;
}

/** 'Desde': the date-time it starts from in the user's zone, or the whole history. */
export function sinceText(since: string | null, timeZone: string): string {
  return since ? formatWhen(since, timeZone) : 'Todo el historial';
}

export interface NewExportValues {
  types?: FhirExportType[];
  /** The picker's value (dayjs); only its instant is sent. */
  since?: { toISOString(): string } | null;
  group_id?: number | null;
}

/** The kick-off's body: the ticked types, and the date and tag only when given (empty tag = all patients). */
export function newExportBody(values: NewExportValues): FhirExportInput {
  return {
    types: values.types ?? [],
    ...(values.since ? { since: values.since.toISOString() } : {}),
    ...(values.group_id ? { group_id: values.group_id } : {}),
  };
}
