import { describe, it, expect } from 'vitest';
import { planAlarmActions, type Reading } from './alarms.rules';
import { brokenRules, isOutOfRange, canonicalElement, ruleElements } from '@vigia/contract/rules/alarms';

const heart = { id: 10, clinical_element: 1, minimum_condition: 50, maximum_condition: 110 };
const legacyHeart = { id: 11, clinical_element: 0, minimum_condition: 60, maximum_condition: 100 };
const sat = { id: 20, clinical_element: 2, minimum_condition: 90, maximum_condition: 100 };
const at = (minute: number) => new Date(Date.UTC(2026, 10, 22, 8, minute));
const reading = (id: number, clinical_element: number, value: number, minute = id): Reading => ({
  id,
  patient_id: 1,
  clinical_element,
  value,
  when: at(minute),
});

describe('D10 range check', () => {
  it.each([
    [49.9, 50, 110, true],
    [50, 50, 110, false], // equal to the minimum is in range
    [110, 50, 110, false], // equal to the maximum is in range
    [110.1, 50, 110, true],
    [80, 50, 110, false],
    [36.5, 36.5, 36.5, false],
  ])('value %s against [%s, %s] out of range: %s', (value, min, max, out) => {
    expect(isOutOfRange(value, min, max)).toBe(out);
  });

  it.each([
    [{ clinical_element: 1, value: 120 }, [10, 11]],
    [{ clinical_element: 0, value: 120 }, [10, 11]], // 0 is an alias of 1 (D6)
    [{ clinical_element: 0, value: 55 }, [11]],
    [{ clinical_element: 2, value: 88 }, [20]],
    [{ clinical_element: 3, value: 200 }, []],
  ])('reading %j breaks rules %j', (r, ids) => {
    expect(brokenRules(r, [heart, legacyHeart, sat]).map((x) => x.id)).toEqual(ids);
  });

  // What the ingestion reads of a patient's rules: every rule brokenRules could return, no other.
  it.each([
    [[1], [0, 1]],
    [[0], [0, 1]],
    [[2], [2]],
    [
      [3, 4],
      [3, 4],
    ], // systolic and diastolic: rules of their own
    [
      [2, 0, 2, 5],
      [0, 1, 2, 5],
    ],
    [[], []],
  ])('readings of %j read the rules of %j', (elements, expected) => {
    expect(ruleElements(elements)).toEqual(expected);
    for (const rule of [heart, legacyHeart, sat])
      for (const e of elements)
        if (brokenRules({ clinical_element: e, value: 1e9 }, [rule]).length) expect(expected).toContain(rule.clinical_element);
  });

  it('maps 0 to 1 and leaves other codes', () => {
    expect([0, 1, 2, 7].map(canonicalElement)).toEqual([1, 1, 2, 7]);
  });
});

describe('planAlarmActions', () => {
  it.each([
    ['in range: nothing', [reading(1, 1, 80)], new Map<number, number>(), []],
    ['out of range: opens', [reading(1, 1, 130)], new Map<number, number>(), ['open:10:1']],
    ['rule already open: attaches to it', [reading(1, 1, 130)], new Map([[10, 77]]), ['attach:10:1:77']],
    [
      'two readings in one batch: opens once, attaches the later one',
      [reading(2, 1, 140), reading(1, 1, 130)],
      new Map<number, number>(),
      ['open:10:1', 'attach:10:2:new'],
    ],
    ['other element: its own rule', [reading(1, 2, 85)], new Map([[10, 77]]), ['open:20:1']],
  ])('%s', (_name, readings, open, expected) => {
    const actions = planAlarmActions(readings, [heart, sat], open).map((a) =>
      a.kind === 'open' ? `open:${a.rule.id}:${a.reading.id}` : `attach:${a.rule.id}:${a.reading.id}:${a.alertId ?? 'new'}`,
    );
    expect(actions).toEqual(expected);
  });
});
