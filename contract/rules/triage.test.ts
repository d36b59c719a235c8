import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { OpenApiDocument } from './schema';
import { TRIAGE_DEFAULTS, triageSettingBounds, type TriageSettingKey } from './triage';

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
    expect(settings[key]).toEqual({ min, max });
  });

  it('covers every threshold and no other', () => {
    expect(Object.keys(settings).sort()).toEqual(cases.map(([key]) => key).sort());
  });

  it('gives every weight 0 to 1000 points', () => {
    expect(Object.keys(weights).sort()).toEqual(Object.keys(TRIAGE_DEFAULTS.weights).sort());
    for (const bounds of Object.values(weights)) expect(bounds).toEqual({ min: 0, max: 1000 });
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
