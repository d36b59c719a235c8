import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import {
  EXPORT_TYPES,
  exportFileRows,
  newExportBody,
  pollInterval,
  POLL_MS,
  scopeText,
  sinceText,
  statusChip,
  TYPE_OPTIONS,
} from './fhir-exports';

// The app imports openapi.yaml through Vite's YAML plugin, which the unit project lacks: the same contract, parsed here.
vi.mock('../../crud/contract-doc', () => ({
  contractDoc: parse(readFileSync(new URL('../../../../openapi.yaml', import.meta.url), 'utf8')) as unknown,
}));

describe('the new-export form', () => {
  it('offers the ten FHIR types of the contract, in its order, with their Spanish names', () => {
    expect(EXPORT_TYPES).toEqual([
      'Patient',
      'Observation',
      'DetectedIssue',
      'Condition',
      'Device',
      'RelatedPerson',
      'MedicationRequest',
      'ServiceRequest',
      'Group',
      'Composition',
    ]);
    expect(TYPE_OPTIONS[0]).toEqual({ value: 'Patient', label: 'Pacientes (Patient)' });
    expect(TYPE_OPTIONS.every((o) => o.label !== `${o.value} (${o.value})`)).toBe(true);
    expect(TYPE_OPTIONS.at(-1)).toEqual({ value: 'Composition', label: 'Resúmenes digitales de atención (RDA) (Composition)' });
  });

  it.each([
    [{ types: ['Patient', 'Observation'] }, { types: ['Patient', 'Observation'] }],
    [
      { types: ['Patient'], since: new Date('2026-11-01T05:00:00Z'), group_id: 7 },
      { types: ['Patient'], since: '2026-11-01T05:00:00.000Z', group_id: 7 },
    ],
    [{ types: ['Device'], since: null, group_id: null }, { types: ['Device'] }],
  ] as const)('sends %j as %j (no date: the whole history; no tag: every patient)', (values, body) => {
    expect(newExportBody({ ...values, types: [...values.types] })).toEqual(body);
  });
});

describe('the list', () => {
  it('reads itself again every 2 s only while an export is queued or running', () => {
    expect(POLL_MS).toBe(2_000);
    expect(pollInterval([{ status: 'completed' }, { status: 'running' }])).toBe(2_000);
    expect(pollInterval([{ status: 'queued' }])).toBe(2_000);
    expect(pollInterval([{ status: 'completed' }, { status: 'failed' }, { status: 'cancelled' }, { status: 'expired' }])).toBe(false);
    expect(pollInterval([])).toBe(false);
    expect(pollInterval(undefined)).toBe(false);
  });

  it.each([
    ['queued', 'En cola', 'default'],
    ['running', 'En curso', 'processing'],
    ['completed', 'Terminada', 'success'],
    ['failed', 'Fallida', 'error'],
    ['cancelled', 'Cancelada', 'warning'],
    ['expired', 'Caducada', 'default'],
  ] as const)("labels '%s' with the contract's x-label '%s'", (status, text, tone) => {
    expect(statusChip(status)).toEqual({ text, tone });
  });

  it('names the scope: the organisation, every patient, or the tag', () => {
    expect(scopeText({ level: 'system', group_id: null, group_name: null })).toBe('Toda la institución');
    expect(scopeText({ level: 'patient', group_id: null, group_name: null })).toBe('Todos los pacientes');
    expect(scopeText({ level: 'group', group_id: 4, group_name: 'Diabetes' })).toBe('Etiqueta «Diabetes»');
  });

  it('shows the start date d/m/y in the user zone, or the whole history', () => {
    expect(sinceText('2026-11-01T05:00:00Z', 'America/Bogota')).toBe('01/11/2026 00:00');
    expect(sinceText(null, 'America/Bogota')).toBe('Todo el historial');
  });
});

describe("an export's files (issue 50: 'Todos (9)' listed 8 files)", () => {
  const file = (type: string, n: number, count: number) => ({ type, file: `${type}.${n}.ndjson`, count }) as never;
  it.each([
    [
      'every type asked, one without resources (no file written)',
      EXPORT_TYPES,
      EXPORT_TYPES.filter((t) => t !== 'Device').map((t) => file(t, 1, 5)),
      10,
      [{ type: 'Device', file: null, count: 0 }],
    ],
    [
      'a big type split in two files',
      ['Patient', 'Observation'],
      [file('Patient', 1, 3), file('Observation', 1, 20_000), file('Observation', 2, 7)],
      3,
      [],
    ],
    [
      'two types, neither with resources',
      ['Patient', 'Group'],
      [],
      2,
      [
        { type: 'Patient', file: null, count: 0 },
        { type: 'Group', file: null, count: 0 },
      ],
    ],
  ] as const)('%s: %i lines, the types without data among them', (_name, types, files, lines, withoutData) => {
    const rows = exportFileRows({ types: [...types], files: [...files] });
    expect(rows).toHaveLength(lines);
    // Every type asked is there, in the order asked.
    expect([...new Set(rows.map((r) => r.type))]).toEqual(types);
    expect(rows.filter((r) => r.file === null)).toEqual(withoutData);
  });
});
