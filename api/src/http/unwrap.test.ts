import { describe, it, expect } from 'vitest';
import { singularOf } from './unwrap';

describe('singularOf', () => {
  it.each([
    ['/patients', 'patient'],
    ['/patients/12', 'patient'],
    ['/patients/12/alerts/9', 'alert'],
    ['/patients/12/alerts/9/alert_entries', 'alert_entry'],
    ['/tags?owner=client', 'tag'],
    ['/patients/1/measurements/5', 'measurement'],
    ['/', null],
  ])('%s → %s', (path, expected) => {
    expect(singularOf(path)).toBe(expected);
  });
});
