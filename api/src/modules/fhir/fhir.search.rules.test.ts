import { describe, it, expect } from 'vitest';
import {
  SearchError,
  dateConditions,
  dayConditions,
  decodeCursor,
  encodeCursor,
  isStrict,
  observationKeyOf,
  patientBound,
  relatedPersonKeyOf,
  rowIdsOf,
  SEARCH_TYPES,
  statusesOf,
  parseCount,
  parseDateParam,
  parseReference,
  parseTokens,
  rowIdOf,
  splitParams,
} from './fhir.search.rules';

const iso = (d: Date) => d.toISOString();

describe('parseDateParam: a prefix and the range of the value’s precision (FHIR R4 §3.1.1.4.2)', () => {
  it.each([
    ['2026', 'eq', '2026-01-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z'],
    ['2026-02', 'eq', '2026-02-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z'],
    ['ge2026-12', 'ge', '2026-12-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z'],
    ['le2024-02-29', 'le', '2024-02-29T00:00:00.000Z', '2024-03-01T00:00:00.000Z'],
    ['gt2026-11-20T10:00Z', 'gt', '2026-11-20T10:00:00.000Z', '2026-11-20T10:01:00.000Z'],
    ['lt2026-11-20T10:00:30-05:00', 'lt', '2026-11-20T15:00:30.000Z', '2026-11-20T15:00:31.000Z'],
    ['ge2026-11-20T10:00:30+01:00', 'ge', '2026-11-20T09:00:30.000Z', '2026-11-20T09:00:31.000Z'],
    ['ge2026-11-20T10:00:30 01:00', 'ge', '2026-11-20T09:00:30.000Z', '2026-11-20T09:00:31.000Z'],
    ['2026-11-20T10:00:30.250Z', 'eq', '2026-11-20T10:00:30.250Z', '2026-11-20T10:00:30.251Z'],
  ])('%s → %s [%s, %s)', (raw, prefix, start, end) => {
    const b = parseDateParam('date', raw);
    expect([b.prefix, iso(b.start), iso(b.end)]).toEqual([prefix, start, end]);
  });

  it.each(['', 'ayer', '26-11-20', '2026-13', '2026-02-30', '2026-11-20T10:00', 'ne2026', 'sa2026', '2026-11-20T25:00Z', 'eq'])(
    'refuses %j naming the parameter',
    (raw) => {
      expect(() => parseDateParam('date', raw)).toThrow(SearchError);
      try {
        parseDateParam('date', raw);
      } catch (e) {
        expect((e as SearchError).param).toBe('date');
        expect((e as SearchError).message).toMatch(/^date debe ser una fecha FHIR/);
      }
    },
  );
});

describe('dateConditions: each prefix as bounds on the column', () => {
  const b = (raw: string) => dateConditions(parseDateParam('date', raw)).map((c) => `${c.op} ${iso(c.at).slice(0, 10)}`);
  it.each([
    ['2026-11-20', ['>= 2026-11-20', '< 2026-11-21']],
    ['ge2026-11-20', ['>= 2026-11-20']],
    ['gt2026-11-20', ['>= 2026-11-21']],
    ['lt2026-11-20', ['< 2026-11-20']],
    ['le2026-11-20', ['< 2026-11-21']],
  ])('%s → %j', (raw, want) => expect(b(raw)).toEqual(want));

  it('birthdate compares days and refuses a time', () => {
    expect(dayConditions('birthdate', 'le1950')).toEqual([{ op: '<', day: '1951-01-01' }]);
    expect(() => dayConditions('birthdate', '1950-05-17T00:00Z')).toThrow(/birthdate admite solo fechas/);
  });
});

describe('parseTokens', () => {
  it.each([
    ['8867-4', [{ system: null, code: '8867-4' }]],
    ['http://loinc.org|8867-4', [{ system: 'http://loinc.org', code: '8867-4' }]],
    ['|8867-4', [{ system: '', code: '8867-4' }]],
    ['http://loinc.org|', [{ system: 'http://loinc.org', code: null }]],
    [
      'http://loinc.org|8867-4,85354-9',
      [
        { system: 'http://loinc.org', code: '8867-4' },
        { system: null, code: '85354-9' },
      ],
    ],
  ])('%s', (raw, want) => expect(parseTokens('code', raw)).toEqual(want));

  it.each(['', '|', 'a|b|c', '8867-4,'])('refuses %j', (raw) => expect(() => parseTokens('code', raw)).toThrow(/^code debe ser un token/));
});

describe('_count', () => {
  it.each([
    ['0', 0],
    ['1', 1],
    ['1000', 1000],
  ])('%s → %d', (raw, n) => expect(parseCount(raw)).toBe(n));
  it.each(['-1', '1001', '10.5', 'diez', ''])('refuses %j', (raw) =>
    expect(() => parseCount(raw)).toThrow(/^_count debe ser un entero entre 0 y 1000/),
  );
});

describe('references and ids', () => {
  it.each([
    ['p12', 12],
    ['Patient/p12', 12],
    ['https://vigia.test/fhir/R4/Patient/p12', 12],
    // Past the INTEGER column's range: no patient, matches nothing (PostgreSQL would refuse the value).
    ['p2147483647', 2147483647],
    ['p2147483648', 0],
    ['Patient/p9999999999', 0],
  ])('%s → %d', (raw, n) => expect(parseReference('patient', raw)).toBe(n));
  it.each(['12', 'Observation/p12', 'p0', 'Patient/12', 'px'])('refuses %j', (raw) =>
    expect(() => parseReference('patient', raw)).toThrow(/^patient debe ser una referencia/),
  );
  it.each([
    ['p', 'p7', 7],
    ['p', 'p07', null],
    ['p', 'm7', null],
    ['p', 'p7x', null],
    ['p', 'p2147483647', 2147483647],
    ['p', 'p2147483648', null],
  ])('rowIdOf(%s, %s) → %j', (letter, id, want) => expect(rowIdOf(letter, id)).toBe(want));
});

describe('keyset cursor', () => {
  it('round-trips the sort key and id', () => {
    const c = encodeCursor('Observation:date', ['2026-11-20T10:00:00.000Z', 42]);
    expect(c).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(c, 'Observation:date', ['string', 'number'])).toEqual(['2026-11-20T10:00:00.000Z', 42]);
  });
  it.each([
    ['another sort', encodeCursor('Observation:-date', ['2026-11-20T10:00:00.000Z', 42])],
    ['a wrong shape', encodeCursor('Observation:date', [42, 42])],
    ['not a date', encodeCursor('Observation:date', ['ayer', 42])],
    ['not base64 JSON', 'abc$'],
    ['an offset', '500'],
    ['an id past INTEGER', encodeCursor('Observation:date', ['2026-11-20T10:00:00.000Z', 2 ** 31])],
  ])('refuses %s', (_name, raw) =>
    expect(() => decodeCursor(raw, 'Observation:date', ['string', 'number'])).toThrow(/^_cursor no es válido/),
  );
  it('takes a BIGINT id (readings) past INTEGER, but not past a safe integer', () => {
    const big = encodeCursor('Observation:date', ['2026-11-20T10:00:00.000Z', 2 ** 31]);
    expect(decodeCursor(big, 'Observation:date', ['string', 'bignumber'])).toEqual(['2026-11-20T10:00:00.000Z', 2 ** 31]);
    const unsafe = encodeCursor('Observation:date', ['2026-11-20T10:00:00.000Z', 2 ** 53]);
    expect(() => decodeCursor(unsafe, 'Observation:date', ['string', 'bignumber'])).toThrow(/^_cursor no es válido/);
  });
});

describe('unknown parameters and strict handling', () => {
  it('keeps the type’s and the common parameters, reports the rest once', () => {
    const { known, unknown } = splitParams('Observation', [
      ['date', 'ge2026'],
      ['date', 'lt2027'],
      ['_count', '5'],
      ['foo', '1'],
      ['foo', '2'],
      ['code:text', 'x'],
      ['birthdate', '1950'],
    ]);
    expect(Object.fromEntries(known)).toEqual({ date: ['ge2026', 'lt2027'], _count: ['5'] });
    expect(unknown).toEqual(['foo', 'code:text', 'birthdate']);
  });
  it.each([
    ['handling=strict', true],
    ['return=minimal, handling=strict', true],
    ['handling=lenient', false],
    [undefined, false],
  ])('Prefer %j → strict %s', (prefer, want) => expect(isStrict(prefer)).toBe(want));
});

describe('ids of the types: a one-letter prefix, or a pair', () => {
  it.each([
    ['p', 'p1,p22,x3,p0,', [1, 22]],
    ['g', 'g5', [5]],
    ['s', 'x5', []],
  ])('rowIdsOf(%s, %j) → %j', (letter, raw, want) => expect(rowIdsOf(letter, raw)).toEqual(want));
  it.each([
    ['r12-3', [12, 3]],
    ['r12', null],
    ['r0-3', null],
    ['r12-3-4', null],
    ['p12-3', null],
    ['r2147483648-1', null],
    ['r1-2147483648', null],
  ])('relatedPersonKeyOf(%j) → %j', (id, want) => expect(relatedPersonKeyOf(id)).toEqual(want));
  it.each([
    ['m12', [12]],
    ['m12-13', [12, 13]],
    ['m12-', null],
    ['x12', null],
  ])('observationKeyOf(%j) → %j', (id, want) => expect(observationKeyOf(id)).toEqual(want));
});

describe('statusesOf: a status token through the status table, backwards', () => {
  const table = { 0: 'draft', 1: 'active', 2: 'active', 3: 'revoked', 4: 'completed' };
  const system = 'http://hl7.org/fhir/request-status';
  it.each([
    ['active', [1, 2]],
    ['draft,completed', [0, 4]],
    [`${system}|revoked`, [3]],
    ['http://otro|active', []],
    ['cancelled', []],
    [`${system}|`, null],
  ])('%j → %j', (raw, want) => expect(statusesOf('status', raw, table, system)).toEqual(want));
  it('refuses a malformed token naming the parameter', () =>
    expect(() => statusesOf('status', 'a|b|c', table, system)).toThrow(/^status debe ser un token/));
});

describe('SEARCH_TYPES and the Patient compartment', () => {
  it('gives every type _id and _lastUpdated', () => {
    for (const params of Object.values(SEARCH_TYPES)) {
      const names: string[] = params.map((p) => p.name);
      expect(names).toContain('_id');
      expect(names).toContain('_lastUpdated');
    }
  });
  it.each([
    ['Patient', true],
    ['Observation', true],
    ['DetectedIssue', true],
    ['Condition', true],
    ['Device', true],
    ['RelatedPerson', true],
    ['MedicationRequest', true],
    ['ServiceRequest', true],
    ['Group', false],
    ['Encounter', false],
  ])('patientBound(%s) → %s', (type, want) => expect(patientBound(type)).toBe(want));
});
