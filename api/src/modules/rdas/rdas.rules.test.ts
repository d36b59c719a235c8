import { describe, expect, it } from 'vitest';
import {
  canResend,
  correctionRoute,
  issueOf,
  RDA_RANGE_ORDER,
  RDA_RETRY_MAX_MS,
  rdaDateRange,
  rdaIdentifierOf,
  rdaRetryDelayMs,
  statementRunAt,
  type CorrectionRoute,
} from './rdas.rules';

const MIN = 60_000;

describe('rdaRetryDelayMs', () => {
  it.each([
    [1, null, 1 * MIN],
    [2, null, 2 * MIN],
    [3, null, 4 * MIN],
    [5, null, 16 * MIN],
    [9, null, 256 * MIN],
    [10, null, RDA_RETRY_MAX_MS],
    [1000, null, RDA_RETRY_MAX_MS],
    // The platform's Retry-After when it asks for longer, never beyond the maximum.
    [1, 5 * MIN, 5 * MIN],
    [3, 1000, 4 * MIN],
    [1, 24 * 3600_000, RDA_RETRY_MAX_MS],
  ])('waits after try %i (Retry-After %s) %i ms', (attempts, retryAfter, expected) => {
    expect(rdaRetryDelayMs(attempts, retryAfter)).toBe(expected);
  });
});

describe('issueOf', () => {
  it.each([
    [
      {
        severity: 'error',
        code: 'required',
        details: { text: 'Falta Patient.identifier' },
        expression: ['Bundle.entry[1].resource.identifier'],
      },
      { severity: 'error', code: 'required', location: 'Bundle.entry[1].resource.identifier', message: 'Falta Patient.identifier' },
    ],
    [
      { severity: 'fatal', code: 'invalid', diagnostics: 'JSON mal formado', location: ['line 1'] },
      { severity: 'fatal', code: 'invalid', location: 'line 1', message: 'JSON mal formado' },
    ],
    [
      { code: 'code-invalid' },
      { severity: 'error', code: 'code-invalid', location: null, message: 'Un código no pertenece a la lista que exige el perfil.' },
    ],
    [
      { severity: 'bogus', code: 'x-unknown' },
      { severity: 'error', code: 'x-unknown', location: null, message: 'La plataforma señaló un problema en el documento.' },
    ],
    [{}, { severity: 'error', code: 'processing', location: null, message: 'La plataforma no pudo procesar el documento.' }],
  ])('reads %j in Spanish', (issue, expected) => {
    expect(issueOf(issue)).toEqual(expected);
  });
});

describe('rdaIdentifierOf', () => {
  const doc = (value: unknown, type = 'document') => ({ resourceType: 'Bundle', type, identifier: { value } });
  it.each([
    [doc('0F8FAD5B-D9CB-469F-A165-70867728950E'), '0f8fad5b-d9cb-469f-a165-70867728950e'],
    [doc('not-a-uuid'), null],
    [doc(42), null],
    [doc('0f8fad5b-d9cb-469f-a165-70867728950e', 'collection'), null],
    [{ resourceType: 'Composition' }, null],
    [null, null],
  ])('answers the identifier of %j', (bundle, expected) => {
    expect(rdaIdentifierOf(bundle)).toBe(expected);
  });
});

describe('canResend', () => {
  it.each([
    ['sin_enviar', true],
    ['pendiente', true],
    ['rechazado', true],
    ['enviado', false],
    ['corregido', false],
  ])('%s → %s', (status, expected) => expect(canResend(status)).toBe(expected));
});

describe('statementRunAt', () => {
  it.each([
    ['2026-12-05T10:00:00.000Z', '2026-12-05T10:05:00.000Z'],
    ['2026-12-05T10:00:00.001Z', '2026-12-05T10:05:00.000Z'],
    ['2026-12-05T10:04:59.999Z', '2026-12-05T10:05:00.000Z'],
    ['2026-12-05T10:05:00.000Z', '2026-12-05T10:10:00.000Z'],
    ['2026-12-31T23:58:00.000Z', '2027-01-01T00:00:00.000Z'],
  ])('a change at %s is written at %s (the end of its five-minute slot)', (at, runAt) => {
    expect(statementRunAt(new Date(at)).toISOString()).toBe(runAt);
  });
});

describe('correctionRoute', () => {
  const v = (version: number, status: string, remote_id: string | null = null) => ({
    id: version * 10,
    version,
    status,
    identifier: `doc-${version}`,
    remote_id,
  });
  // Each row: the versions before a correction → how it goes.
  it.each<[string, ReturnType<typeof v>[], CorrectionRoute]>([
    [
      'the original accepted: a nota aclaratoria on its platform id',
      [v(1, 'enviado', 'R1')],
      { kind: 'nota', targetId: 'R1', replacedId: 10, retire: [] },
    ],
    [
      'the original accepted without an id: on its identifier',
      [v(1, 'enviado')],
      { kind: 'nota', targetId: 'doc-1', replacedId: 10, retire: [] },
    ],
    ['the original still on its way: waits for it', [v(1, 'pendiente')], { kind: 'wait', version: 1 }],
    ['the original never sent: a new document, the original retired', [v(1, 'sin_enviar')], { kind: 'first', retire: [10] }],
    ['the original refused: a new document, the original retired', [v(1, 'rechazado')], { kind: 'first', retire: [10] }],
    [
      'v1 corrected by an accepted v2: corrects v2',
      [v(1, 'corregido', 'R1'), v(2, 'enviado', 'R2')],
      { kind: 'nota', targetId: 'R2', replacedId: 20, retire: [] },
    ],
    [
      'v1 accepted, v2 refused: corrects v1, v2 retired',
      [v(2, 'rechazado'), v(1, 'enviado', 'R1')],
      { kind: 'nota', targetId: 'R1', replacedId: 10, retire: [20] },
    ],
    ['v1 accepted, v2 on its way: waits for v2', [v(1, 'enviado', 'R1'), v(2, 'pendiente')], { kind: 'wait', version: 2 }],
    ['v1 retired unsent, v2 never sent: a new document', [v(1, 'corregido'), v(2, 'sin_enviar')], { kind: 'first', retire: [20] }],
    ['nothing before (a closed teleconsultation without a kept RDA)', [], { kind: 'first', retire: [] }],
  ])('%s', (_, earlier, route) => {
    expect(correctionRoute(earlier)).toEqual(route);
  });
});

describe('rdaDateRange', () => {
  const at = (iso: string) => new Date(iso);
  it.each([
    // Bogotá is UTC−5 all year: its day starts at 05:00 UTC; 'Hasta' is the whole day (before the next one starts).
    ['2026-12-01', '2026-12-03', 'America/Bogota', { since: at('2026-12-01T05:00:00Z'), before: at('2026-12-04T05:00:00Z') }],
    ['2026-12-01', '2026-12-01', 'America/Bogota', { since: at('2026-12-01T05:00:00Z'), before: at('2026-12-02T05:00:00Z') }],
    ['2026-12-01', undefined, 'America/Bogota', { since: at('2026-12-01T05:00:00Z'), before: null }],
    [undefined, '2026-12-31', 'America/Bogota', { since: null, before: at('2027-01-01T05:00:00Z') }],
    [undefined, undefined, 'America/Bogota', { since: null, before: null }],
    // Madrid in winter is UTC+1: its day starts at 23:00 UTC the day before.
    ['2026-12-01', '2026-12-01', 'Europe/Madrid', { since: at('2026-11-30T23:00:00Z'), before: at('2026-12-01T23:00:00Z') }],
    ['2026-12-03', '2026-12-01', 'America/Bogota', { field: 'to', message: RDA_RANGE_ORDER }],
  ])('from %s to %s in %s', (from, to, zone, expected) => {
    expect(rdaDateRange(from, to, zone)).toEqual(expected);
  });
});
