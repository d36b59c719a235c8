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
