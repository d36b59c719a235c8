import { describe, expect, it } from 'vitest';
import { EXPORT_TYPES, parseKickOff } from './fhir.export.params.js';

describe('parseKickOff', () => {
  it('requires Prefer: respond-async', () => {
    expect(parseKickOff(undefined, {})).toMatchObject({ ok: false, field: 'Prefer' });
    expect(parseKickOff('return=minimal', {})).toMatchObject({ ok: false, field: 'Prefer' });
  });
  it('answers every type and no since by default', () => {
    expect(parseKickOff('respond-async', {})).toEqual({ ok: true, types: [...EXPORT_TYPES], since: null });
  });
  it('reads _type, _since and the three output formats', () => {
    for (const f of ['application/fhir+ndjson', 'application/ndjson', 'ndjson']) {
      const r = parseKickOff('respond-async', { _outputFormat: f, _type: 'Patient,Observation,Patient', _since: '2026-01-02T03:04:05Z' });
      expect(r).toEqual({ ok: true, types: ['Patient', 'Observation'], since: new Date('2026-01-02T03:04:05Z') });
    }
  });
  it('refuses a bad _type, _since or _outputFormat, naming the field', () => {
    expect(parseKickOff('respond-async', { _type: 'Patient,Foo' })).toMatchObject({ ok: false, field: '_type' });
    expect(parseKickOff('respond-async', { _since: '2026-01-02' })).toMatchObject({ ok: false, field: '_since' });
    expect(parseKickOff('respond-async', { _since: '2026-13-45T00:00:00Z' })).toMatchObject({ ok: false, field: '_since' });
    expect(parseKickOff('respond-async', { _outputFormat: 'text/csv' })).toMatchObject({ ok: false, field: '_outputFormat' });
  });
});
