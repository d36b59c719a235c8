import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { OpenApiDocument } from './schema';
import {
  TRIAGE_DEFAULTS,
  TRIAGE_FLAG_DEFS,
  TRIAGE_FLAG_NAMES,
  TRIAGE_FLAG_TABS,
  TRIAGE_FLAGS,
  triageFlagBit,
  triageSettingBounds,
  type TriageSettingKey,
} from './triage';
import { CLINICAL_ELEMENT, CLINICAL_ELEMENTS } from './vitals';

const contract = parse(readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8')) as OpenApiDocument;

describe("triageSettingBounds: the limits of 'Ajustes de priorización', read from TriageSettingsInput", () => {
  const { settings, weights } = triageSettingBounds(contract);

  const cases: Array<[TriageSettingKey, number, number]> = [
    ['window_days', 1, 90],
    ['glucose_low', 40, 120],
    ['glucose_high', 120, 400],
    ['glucose_very_low', 30, 100],
    ['tir_min_percent', 0, 100],
    ['below_low_max_percent', 0, 100],
    ['below_very_low_max_percent', 0, 100],
    ['tir_drop_points', 0, 100],
    ['glucose_min_readings', 0, 1000],
    ['systolic_max', 90, 220],
    ['diastolic_max', 50, 140],
    ['spo2_min', 70, 100],
    ['temperature_max', 36, 42],
    ['out_of_range_percent', 0, 100],
    ['weight_gain_kg', 0.5, 20],
    ['weight_gain_days', 1, 30],
    ['no_reading_days', 1, 60],
  ];
  it.each(cases)('%s goes from %d to %d', (key, min, max) => {
    expect(settings[key]).toMatchObject({ min, max });
  });

  it('says which settings take whole numbers only', () => {
    const integers = Object.entries(settings)
      .filter(([, b]) => b.integer)
      .map(([key]) => key);
    expect(integers.sort()).toEqual(['glucose_min_readings', 'no_reading_days', 'weight_gain_days', 'window_days']);
    expect(Object.values(weights).every((b) => b.integer)).toBe(true);
  });

  it("carries the contract's message for a value outside the limits", () => {
    expect(settings.glucose_low.message).toBe('Debe estar entre 40 y 120 mg/dL');
    expect(weights.news2_critical.message).toBe('Debe ser un número entero entre 0 y 1000');
  });

  it('covers every threshold and no other', () => {
    expect(Object.keys(settings).sort()).toEqual(cases.map(([key]) => key).sort());
  });

  it('gives every weight 0 to 1000 points', () => {
    expect(Object.keys(weights).sort()).toEqual(Object.keys(TRIAGE_DEFAULTS.weights).sort());
    for (const bounds of Object.values(weights)) expect(bounds).toMatchObject({ min: 0, max: 1000 });
  });

  it('keeps every default inside its limits', () => {
    for (const [key, { min, max }] of Object.entries(settings))
      expect(TRIAGE_DEFAULTS[key as TriageSettingKey]).toSatisfy((v: number) => v >= min && v <= max);
    for (const [key, { min, max }] of Object.entries(weights))
      expect(TRIAGE_DEFAULTS.weights[key as keyof typeof weights]).toSatisfy((v: number) => v >= min && v <= max);
  });

  it('refuses a contract that leaves a threshold without its limits', () => {
    const broken = structuredClone(contract);
    delete broken.components.schemas.TriageSettingsInput.properties!.spo2_min.maximum;
    expect(() => triageSettingBounds(broken)).toThrow('El contrato no da los límites de spo2_min en TriageSettingsInput');
  });
});

describe('TRIAGE_FLAG_DEFS: one row per flag, read by the API, the settings drawer and the docs', () => {
  const schemas = contract.components.schemas;
  const docs = readFileSync(new URL('../../docs/triage.md', import.meta.url), 'utf8');

  it("has one row per code of the contract's TriageFlagCode, in its order, with its x-labels name", () => {
    expect(TRIAGE_FLAGS).toEqual(schemas.TriageFlagCode.enum);
    expect(TRIAGE_FLAG_NAMES).toEqual((schemas.TriageFlagCode as { 'x-labels'?: unknown })['x-labels']);
  });

  it('keeps the bits of the flags summaries already hold (new rows go at the end)', () => {
    const stored = ['open_alerts', 'out_of_range', 'glucose_tir_low', 'glucose_below_70', 'glucose_below_54', 'glucose_tir_drop'];
    stored.push('glucose_little_data', 'weight_gain', 'no_readings', 'adherence_low', 'missed_medication');
    stored.forEach((code, i) => expect(triageFlagBit(code as (typeof TRIAGE_FLAGS)[number])).toBe(1 << i));
    expect(triageFlagBit('news2_critical')).toBe(1 << 11);
    expect(triageFlagBit('out_of_range_few')).toBe(1 << 12);
  });

  it("gives every weight of the contract's TriageSettings to exactly one flag", () => {
    const keys = TRIAGE_FLAG_DEFS.flatMap((d) => d.weights.map((w) => w.key));
    expect([...keys].sort()).toEqual([...(schemas.TriageSettings.properties!.weights.required as string[])].sort());
    expect(new Set(keys).size).toBe(keys.length);
    expect(TRIAGE_DEFAULTS.weights).toMatchObject({ open_alert_high: 30, out_of_range: 20, news2_critical: 30, glucose_below_54: 40 });
  });

  it("opens a tab the contract's TriageFlag allows", () => {
    for (const tab of Object.values(TRIAGE_FLAG_TABS)) expect(schemas.TriageFlag.properties!.tab.enum).toContain(tab);
  });

  it.each(TRIAGE_FLAG_DEFS.map((d) => [d.code, d.name]))('docs/triage.md lists `%s` (%s)', (code) => {
    expect(docs).toMatch(new RegExp(`^\\| \`${code}\``, 'm'));
  });

  it('names each clinical element by its id in the table of elements', () => {
    expect(Object.fromEntries(CLINICAL_ELEMENTS.map((e) => [e.key, e.id]))).toEqual(CLINICAL_ELEMENT);
  });
});
