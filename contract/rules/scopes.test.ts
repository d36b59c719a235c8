import { describe, expect, it } from 'vitest';
import { ALL_SCOPES, exclusiveScopes, mixedScopesProblem, MIXED_SCOPES_MESSAGE } from './scopes';

describe("a client's scopes: 'Todas' or single types, never both", () => {
  it.each([
    [[ALL_SCOPES], null],
    [['system/Patient.rs', 'system/Observation.rs'], null],
    [[], null],
    [[ALL_SCOPES, 'system/Patient.rs'], MIXED_SCOPES_MESSAGE],
    [['system/Group.rs', ALL_SCOPES], MIXED_SCOPES_MESSAGE],
  ])('%j → %s', (scopes, problem) => {
    expect(mixedScopesProblem(scopes)).toBe(problem);
  });

  it.each([
    ['choosing Todas over single types keeps Todas alone', ['system/Patient.rs'], ['system/Patient.rs', ALL_SCOPES], [ALL_SCOPES]],
    ['choosing a type while Todas is there drops Todas', [ALL_SCOPES], [ALL_SCOPES, 'system/Patient.rs'], ['system/Patient.rs']],
    ['adding a type to types', ['system/Patient.rs'], ['system/Patient.rs', 'system/Group.rs'], ['system/Patient.rs', 'system/Group.rs']],
    ['removing Todas', [ALL_SCOPES], [], []],
  ])('%s', (_name, previous, next, shown) => {
    expect(exclusiveScopes(previous, next)).toEqual(shown);
  });
});
