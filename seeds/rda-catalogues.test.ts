import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CODE_LISTS, loadCodeList } from '../api/src/modules/catalogues/catalogues.sync.js';
import { formatCatalogueFile, resolveGuideDir } from './build-catalogues.js';
import { RDA_LISTS, buildRdaCatalogues, guideConcepts, readGuideCodeSystem } from './rda-catalogues.js';

const guide = resolveGuideDir();
const committed = (name: string) => readFileSync(path.join(import.meta.dirname, 'catalogues', `${name}.json`), 'utf8');

describe('RDA code lists (seeds/catalogues) against the guide minsalud.fhir.co.rda 0.7.1', () => {
  it('has a copy of every list the product stores a code of', () => {
    expect(Object.keys(RDA_LISTS).sort()).toEqual([...CODE_LISTS].sort());
  });

  it.each(CODE_LISTS)('%s: same codes, in the same order, with the guide display as the name', (name) => {
    const concepts = guideConcepts(guide, name);
    const items = loadCodeList(name);
    expect(items.map((i) => i.code)).toEqual(concepts.map((c) => c.code));
    expect(items.map((i) => i.name)).toEqual(concepts.map((c) => c.display.trim()));
  });

  it.each(CODE_LISTS)('%s: the committed file is what npm run seed:catalogues writes from the guide', (name) => {
    expect(committed(name)).toBe(formatCatalogueFile(buildRdaCatalogues(guide)[name]));
  });

  // The counts the plan quotes (docs/rda-plan.md §2.8), read from the CodeSystems' own `count`.
  it.each([
    ['biological_sexes', 3],
    ['gender_identities', 5],
    ['ethnicities', 6],
    ['disabilities', 8],
    ['residence_zones', 2],
    ['nationalities', 249],
    ['professions', 289],
    ['provider_classes', 3],
    ['legal_natures', 4],
    ['care_levels', 4],
    ['tech_modalities', 9],
    ['allergy_types', 6],
    ['family_relationships', 4],
    ['reps_services', 157],
    ['care_environments', 5],
    ['service_groups', 5],
    ['external_causes', 29],
    ['diagnosis_types', 3],
    ['license_scopes', 2],
    ['risk_factors', 6],
    ['ciuo_occupations', 562],
  ] as const)('%s has %i codes', (name, count) => {
    expect(loadCodeList(name)).toHaveLength(count);
    const cs = readGuideCodeSystem(guide, RDA_LISTS[name].file) as { count?: number };
    if (!RDA_LISTS[name].part) expect(cs.count).toBe(count);
  });

  // Neither has a `count` of its own: the ValueSet the profile binds and the CSV the plan counts (§0.3).
  it('cups_consultations has the 210 codes of ValueSet CUPSConsultationCodes; icd10co the 12,634 of the CSV', () => {
    expect(loadCodeList('cups_consultations')).toHaveLength(210);
    expect(loadCodeList('cups_consultations').find((i) => i.code === '890301')?.name).toBe(
      'CONSULTA DE CONTROL O DE SEGUIMIENTO POR MEDICINA GENERAL',
    );
    const icd = loadCodeList('icd10co');
    expect(icd).toHaveLength(12634);
    expect(icd.find((i) => i.code === 'I10X')?.name).toBe('HIPERTENSION ESENCIAL (PRIMARIA)');
    expect(icd.find((i) => i.code === 'A009')?.name).toBe('COLERA, NO ESPECIFICADO');
  });

  it('every condition type has its ICD-10 CO code, one the CSV lists (§2.6)', () => {
    const icd = new Set(loadCodeList('icd10co').map((i) => i.code));
    const types = JSON.parse(committed('condition_types')) as { items: Array<{ id: number; icd10co: string | null }> };
    expect(types.items.filter((t) => !t.icd10co || !icd.has(t.icd10co)).map((t) => t.id)).toEqual([]);
  });

  it('nationalities are exactly the ValueSet ISO31661N the profiles bind, each with its alpha-2 code', () => {
    const vs = JSON.parse(readFileSync(path.join(guide, 'ValueSet-ISO31661N.json'), 'utf8')) as {
      compose: { include: Array<{ concept: Array<{ code: string }> }> };
    };
    const bound = vs.compose.include.flatMap((i) => i.concept.map((c) => c.code));
    const items = loadCodeList('nationalities');
    expect(items.map((i) => i.code).sort()).toEqual(bound.sort());
    const byAlpha2 = new Map(items.map((i) => [i.alpha2, i.code]));
    expect(byAlpha2.size).toBe(249);
    expect([byAlpha2.get('CO'), byAlpha2.get('ES'), byAlpha2.get('VE'), byAlpha2.get('GB')]).toEqual(['170', '724', '862', '826']);
  });

  it('every Vigía country has a numeric code (the RDA address country)', () => {
    const alpha2 = new Set(loadCodeList('nationalities').map((i) => i.alpha2));
    const countries = JSON.parse(committed('countries')) as { items: Array<{ code: string }> };
    expect(countries.items.filter((c) => !alpha2.has(c.code))).toEqual([]);
  });
});
