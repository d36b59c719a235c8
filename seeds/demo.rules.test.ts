import { describe, expect, it } from 'vitest';
import { loadCatalogue, loadCatalogues, loadCodeList } from '../api/src/modules/catalogues/catalogues.sync.js';
import {
  buildCedula,
  buildDemoHistory,
  buildDemoPassword,
  buildDemoPatients,
  buildDemoReferences,
  buildDemoTeleconsultation,
  buildRdaDemographics,
  buildRecentReadings,
  DEMO_TELECONSULTATIONS,
  describeDemoReadings,
  buildVitalSeries,
  DEMO_TAGS,
  PATIENT_STATUS,
  type DemoMeasurement,
  type DemoPatient,
} from './demo.rules.js';
import { createRng } from './random.js';
import { toSearchKey } from '@vigia/contract/rules/names';
import { patientGaps, rdaComplete } from '@vigia/contract/rules/rda';
import { diagnosesProblem, teleconsultationGaps } from '@vigia/contract/rules/teleconsultations';
import { validatePassword } from '@vigia/contract/rules/validation';
import { cleanStatement, HISTORY_DESCRIPTION_MAX, normaliseIcd10 } from '@vigia/contract/rules/history';
// The product's own D9 rule: the demo must agree with what the API would compute.
import { CONTACT_FIELDS, isContactComplete } from '../api/src/modules/patients/patients.rules.js';

const refs = buildDemoReferences(loadCatalogues());
const now = new Date('2026-11-21T15:00:00Z');
const portalPatient = { nid: '1020304050', cellphone: '3001234567' };
const ccRegex = new RegExp(loadCatalogue('id_types').find((t) => t.id === 1)!.validation_regex);
const bounds = new Map(loadCatalogue('clinical_elements').map((e) => [e.id, e]));

function buildCohort(seed: number, count = 60): { patients: DemoPatient[]; series: DemoMeasurement[][] } {
  const rng = createRng(seed);
  const patients = buildDemoPatients(rng, count, { refs, now, portalPatient });
  return { patients, series: patients.map((patient) => buildVitalSeries(rng, patient, 90, now, refs)) };
}

const seeds = [1, 42, 2026];
const cohorts = seeds.map((seed) => ({ seed, ...buildCohort(seed) }));

describe('createRng', () => {
  it.each([[1], [42], [123456789]])('repeats the same stream for seed %i', (seed) => {
    const a = createRng(seed);
    const b = createRng(seed);
    const draws = (rng: ReturnType<typeof createRng>) => Array.from({ length: 50 }, () => [rng.next(), rng.int(1, 6), rng.normal(0, 1)]);
    expect(draws(a)).toEqual(draws(b));
  });

  it('keeps int() inside its inclusive bounds', () => {
    const rng = createRng(9);
    const values = Array.from({ length: 5000 }, () => rng.int(3, 5));
    expect(new Set(values)).toEqual(new Set([3, 4, 5]));
  });
});

describe('toSearchKey on demo names', () => {
  it.each([
    ['MARÍA JOSÉ PEÑA NÚÑEZ', 'maria jose pena nunez'],
    ['ÁLVARO  DE JESÚS', 'alvaro de jesus'],
    ['Bogotá, D.C.', 'bogota, d.c.'],
    ['  ÜBER  ', 'uber'],
  ])('%s -> %s', (input, expected) => {
    expect(toSearchKey(input)).toBe(expected);
  });
});

describe('buildCedula', () => {
  const bogota = refs.cities.find((c) => c.code === '11001')!.data;
  it.each([
    // [birth year, gender, allowed lengths]
    [1995, 0, [10]],
    [1988, 1, [10]],
    [1970, 0, [8]],
    [1960, 1, [8]],
    [1935, 1, [7, 8]],
  ])('born %i, gender %i: %j digits and valid for CC', (year, gender, lengths) => {
    const rng = createRng(year);
    for (let i = 0; i < 200; i++) {
      const nid = buildCedula(rng, year, gender, bogota);
      expect(nid).toMatch(ccRegex);
      expect(lengths).toContain(nid.length);
    }
  });
});

describe('buildDemoPatients', () => {
  it.each(seeds)('is deterministic for seed %i', (seed) => {
    const again = buildCohort(seed);
    const first = cohorts.find((c) => c.seed === seed)!;
    expect(again.patients).toEqual(first.patients);
    expect(again.series).toEqual(first.series);
  });

  it('keeps document numbers unique across calls that share usedNids', () => {
    const usedNids = new Set<string>();
    const rng = createRng(77);
    const nids = [1, 2, 3].flatMap(() => buildDemoPatients(rng, 500, { refs, now, usedNids }).map((p) => p.row.nid));
    expect(new Set(nids).size).toBe(1500);
    expect(() => buildDemoPatients(rng, 1, { refs, now, usedNids: new Set(['1020304050']), portalPatient })).toThrow(/ya está en uso/);
  });

  it('gives different data for different seeds', () => {
    expect(cohorts[0].patients[1].row.nid).not.toBe(cohorts[1].patients[1].row.nid);
  });

  it.each(cohorts)('seed $seed: document numbers match the CC regex and are unique', ({ patients }) => {
    for (const { row } of patients) {
      expect(row.id_type).toBe(1);
      expect(row.nid).toMatch(ccRegex);
    }
    expect(new Set(patients.map((p) => p.row.nid)).size).toBe(patients.length);
  });

  it.each(cohorts)('seed $seed: the first patient is the complete, active portal patient', ({ patients }) => {
    const { row } = patients[0];
    expect(row).toMatchObject({ nid: '1020304050', cellphone: '3001234567', prefix: '+57', status: PATIENT_STATUS.active, country_id: 26 });
    expect(isContactComplete(row)).toBe(true);
    expect(patients[0].profile.elements).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it.each(cohorts)('seed $seed: status 2 exactly when contact data is incomplete (D9)', ({ patients }) => {
    for (const { row } of patients) {
      if (row.status === PATIENT_STATUS.incomplete) expect(isContactComplete(row)).toBe(false);
      else expect(CONTACT_FIELDS.filter((field) => row[field] === null)).toEqual([]);
    }
  });

  it.each([
    // [count, incomplete, inactive, deceased] with the default shares 15 %, 5 %, 2 %
    [60, 9, 3, 1],
    [200, 30, 10, 4],
    [5, 1, 0, 0],
  ])('%i patients: %i incomplete, %i inactive, %i deceased', (count, incomplete, inactive, deceased) => {
    const patients = buildDemoPatients(createRng(count), count, { refs, now, portalPatient });
    const countStatus = (status: number) => patients.filter((p) => p.row.status === status).length;
    expect(countStatus(PATIENT_STATUS.incomplete)).toBe(incomplete);
    expect(countStatus(PATIENT_STATUS.inactive)).toBe(inactive);
    expect(countStatus(PATIENT_STATUS.deceased)).toBe(deceased);
    for (const p of patients.filter((q) => q.row.status === PATIENT_STATUS.deceased)) expect(p.row.deceased_at).toEqual(p.measuredUntil);
  });

  it.each(cohorts)('seed $seed: names are upper case and search_name is their normal form', ({ patients }) => {
    for (const { row } of patients) {
      expect(row.first_name).toBe(row.first_name.toUpperCase());
      expect(row.last_name).toBe(row.last_name.toUpperCase());
      expect(row.first_name).toMatch(/^[A-ZÁÉÍÓÚÜÑ ]{1,50}$/);
      expect(row.last_name).toMatch(/^[A-ZÁÉÍÓÚÜÑ ]{1,50}$/);
      expect(row.search_name).toBe(toSearchKey(`${row.first_name} ${row.last_name}`));
    }
  });

  it.each(cohorts)('seed $seed: contact and demographic values look Colombian', ({ patients }) => {
    const cityIds = new Set(refs.cities.map((c) => c.id));
    for (const { row } of patients) {
      if (row.cellphone !== null) expect(row.cellphone).toMatch(/^3\d{9}$/);
      if (row.prefix !== null) expect(row.prefix).toBe('+57');
      if (row.address !== null) expect(row.address).toMatch(/^[A-Z ]+ \d+[A-Z ]* # \d+[AB]?-\d+/);
      if (row.email !== null) expect(row.email).toMatch(/^[a-z0-9._]+@example\.(com|net|org)$/);
      if (row.city_id !== null) expect(cityIds.has(row.city_id)).toBe(true);
      expect([0, 1]).toContain(row.gender);
      expect(row.birth_date >= '1930-01-01' && row.birth_date <= '2005-12-31').toBe(true);
      expect(row.time_zone).toBe('America/Bogota');
      expect(row.blood_type).toBeGreaterThan(0);
      expect(row.rh_factor).toBeGreaterThan(0);
      expect(row.eapb_id).toBeGreaterThan(0);
      expect(row.regime).toBeGreaterThan(0);
    }
  });

  it.each(cohorts)('seed $seed: every tag is a demo tag and every patient has one', ({ patients }) => {
    const names = new Set(DEMO_TAGS.map((t) => t.name));
    for (const { tags } of patients) {
      expect(tags.length).toBeGreaterThan(0);
      for (const tag of tags) expect(names.has(tag)).toBe(true);
    }
  });
});

describe('buildVitalSeries', () => {
  it.each(cohorts)('seed $seed: systolic and diastolic come in pairs sharing `when`', ({ series }) => {
    for (const readings of series) {
      const key = (m: DemoMeasurement) => m.when.getTime();
      const systolic = readings.filter((m) => m.clinical_element === 3);
      const diastolic = readings.filter((m) => m.clinical_element === 4);
      expect(systolic.map(key)).toEqual(diastolic.map(key));
      systolic.forEach((s, i) => expect(diastolic[i].value).toBeLessThan(s.value));
    }
  });

  it.each(cohorts)('seed $seed: values are within the entry bounds with at most one decimal', ({ series }) => {
    const outside = series.flat().filter((m) => {
      const bound = bounds.get(m.clinical_element);
      return !bound || m.value < bound.input_min || m.value > bound.input_max || Math.round(m.value * 10) / 10 !== m.value;
    });
    expect(outside).toEqual([]);
  });

  it.each(cohorts)('seed $seed: readings stay inside the window and the measured period, ascending', ({ patients, series }) => {
    const from = now.getTime() - 90 * 86_400_000;
    patients.forEach((patient, i) => {
      const times = series[i].map((m) => m.when.getTime());
      expect(times).toEqual([...times].sort((a, b) => a - b));
      const start = Math.max(from, patient.measuredFrom.getTime());
      const end = Math.min(now.getTime(), patient.measuredUntil.getTime());
      expect(times.filter((t) => t < start || t > end)).toEqual([]);
    });
  });

  it.each(cohorts)('seed $seed: 1 to 3 readings a day per element, a few out of range', ({ patients, series }) => {
    let outOfRange = 0;
    let total = 0;
    patients.forEach((patient, i) => {
      const perDay = new Map<string, number>();
      for (const m of series[i]) {
        const local = new Date(m.when.getTime() - 5 * 3_600_000).toISOString().slice(0, 10);
        const key = `${m.clinical_element}|${local}`;
        perDay.set(key, (perDay.get(key) ?? 0) + 1);
        if (!patient.profile.elements.includes(m.clinical_element)) throw new Error(`unexpected element ${m.clinical_element}`);
        total += 1;
        if (
          (m.clinical_element === 3 && m.value >= 160) ||
          (m.clinical_element === 2 && m.value < 90) ||
          (m.clinical_element === 7 && m.value >= 38)
        )
          outOfRange += 1;
      }
      for (const count of perDay.values()) {
        expect(count).toBeGreaterThanOrEqual(1);
        expect(count).toBeLessThanOrEqual(3);
      }
    });
    expect(total).toBeGreaterThan(10_000);
    expect(outOfRange).toBeGreaterThan(0);
    expect(outOfRange / total).toBeLessThan(0.1);
  });

  it.each(['America/Bogota', 'Europe/Madrid', 'America/Santiago'])(
    'keeps readings in local waking hours in %s, across DST changes',
    (timeZone) => {
      const hour = new Intl.DateTimeFormat('en-GB', { timeZone, hour: 'numeric', minute: 'numeric', hourCycle: 'h23' });
      const patients = buildDemoPatients(createRng(11), 20, { refs, now }).map((p) => ({ ...p, row: { ...p.row, time_zone: timeZone } }));
      const rng = createRng(12);
      for (const patient of patients) {
        // Sessions start 06:00–08:30, 12:00–14:00, 18:30–21:00; weight is taken up to 15 min before.
        const outside = buildVitalSeries(rng, patient, 300, now, refs).filter((m) => {
          const [h, min] = hour.format(m.when).split(':').map(Number);
          return h * 60 + min < 5 * 60 + 45 || h * 60 + min > 21 * 60 + 15;
        });
        expect(outside).toEqual([]);
      }
    },
  );

  it('gives the portal patient data for every element on most days', () => {
    const readings = cohorts[0].series[0];
    for (const element of [1, 2, 3, 4, 5, 6, 7]) {
      expect(readings.filter((m) => m.clinical_element === element).length).toBeGreaterThan(60);
    }
  });
});

describe('buildRecentReadings', () => {
  const patients = buildDemoPatients(createRng(5), 40, { refs, now });
  it.each([[1], [10], [100], [250]])('returns at most %i readings without splitting a pressure pair', (count) => {
    const rng = createRng(count);
    for (const patient of patients) {
      const readings = buildRecentReadings(rng, patient, count, now, refs);
      expect(readings.length).toBeLessThanOrEqual(count);
      const systolic = readings.filter((m) => m.clinical_element === 3).map((m) => m.when.getTime());
      const diastolic = readings.filter((m) => m.clinical_element === 4).map((m) => m.when.getTime());
      expect(systolic).toEqual(diastolic);
      // 200 days hold at least 100 readings even for a weight-only patient on 60 % of days.
      if (count <= 100 && patient.measuredUntil.getTime() - patient.measuredFrom.getTime() > 200 * 86_400_000) {
        expect(readings.length).toBeGreaterThanOrEqual(count - 1);
      }
    }
  });
});

describe('buildDemoPassword', () => {
  const draws = (seed: number) => {
    const rng = createRng(seed);
    return (n: number) => rng.int(0, n - 1);
  };

  it.each(seeds)('passes the specification’s password rule, 16 characters (seed %i)', (seed) => {
    const randomInt = draws(seed);
    for (let i = 0; i < 200; i++) {
      const password = buildDemoPassword(randomInt);
      expect(password).toHaveLength(16);
      expect(validatePassword(password)).toBeNull();
    }
  });

  it('holds one character of each class even when every draw is the first', () => {
    expect(validatePassword(buildDemoPassword(() => 0, 8))).toBeNull();
  });

  it('is never the published demo password and differs draw to draw', () => {
    const randomInt = draws(7);
    const made = new Set(Array.from({ length: 100 }, () => buildDemoPassword(randomInt)));
    expect(made.size).toBe(100);
    expect(made.has('Vigia@2026')).toBe(false);
  });
});

describe('buildDemoHistory (issue 51, the RDA de paciente)', () => {
  const allergyTypes = new Set(loadCodeList('allergy_types').map((i) => i.code));
  const relationships = new Set(loadCodeList('family_relationships').map((i) => i.code));
  const histories = (seed: number) => {
    const rng = createRng(seed);
    return Array.from({ length: 60 }, () => buildDemoHistory(rng));
  };

  it.each(seeds)('obeys the API: codes of the guide lists, clean text of at most 200, ICD-10 CO codes (seed %i)', (seed) => {
    for (const { allergies, familyHistory } of histories(seed)) {
      for (const a of allergies) {
        expect(allergyTypes.has(a.allergy_type)).toBe(true);
        expect(cleanStatement(a.description)).toBe(a.description);
        expect(a.description.length).toBeLessThanOrEqual(HISTORY_DESCRIPTION_MAX);
      }
      for (const f of familyHistory) {
        expect(relationships.has(f.relationship)).toBe(true);
        expect(cleanStatement(f.description)).toBe(f.description);
        expect(f.description.length).toBeLessThanOrEqual(HISTORY_DESCRIPTION_MAX);
        if (f.icd10 !== null) expect(normaliseIcd10(f.icd10)).toBe(f.icd10);
      }
      expect(new Set(allergies.map((a) => a.description)).size).toBe(allergies.length);
    }
  });

  it('gives most patients some history and some none, the same for the same seed', () => {
    const drawn = histories(42);
    expect(drawn.filter((h) => h.allergies.length).length).toBeGreaterThan(30);
    expect(drawn.filter((h) => h.familyHistory.length).length).toBeGreaterThan(30);
    expect(drawn.some((h) => !h.allergies.length)).toBe(true);
    expect(drawn.some((h) => h.allergies.some((a) => !a.active))).toBe(true);
    expect(histories(42)).toEqual(drawn);
  });
});

describe('buildRdaDemographics', () => {
  it.each([
    // nid, gender (0 female, 1 male), age, known → sex, zone, ethnicity, disabilities
    ['52123456', 0, 60, true, { biological_sex: '02', residence_zone: '01', nationality: '170', ethnicity: '6', disabilities: '["08"]' }],
    ['79123401', 1, 45, true, { biological_sex: '01', residence_zone: '02', nationality: '170', ethnicity: '5', disabilities: '["08"]' }],
    ['79123210', 1, 45, true, { biological_sex: '01', residence_zone: '02', nationality: '170', ethnicity: '1', disabilities: '["08"]' }],
    ['79123318', 1, 45, true, { biological_sex: '01', residence_zone: '01', nationality: '170', ethnicity: '6', disabilities: '["08"]' }],
    ['41123215', 0, 85, true, { biological_sex: '02', residence_zone: '01', nationality: '170', ethnicity: '1', disabilities: '["01"]' }],
    ['41123915', 0, 85, true, { biological_sex: '02', residence_zone: '01', nationality: '170', ethnicity: '6', disabilities: '["08"]' }],
    ['41123915', 0, 85, false, { biological_sex: null, residence_zone: null, nationality: null, ethnicity: null, disabilities: null }],
  ])('nid %s, gender %i, age %i, known %s', (nid, gender, age, known, expected) => {
    expect(buildRdaDemographics({ nid, gender, age, known })).toEqual(expected);
  });

  it("codes every patient of a cohort from the guide's lists, complete for the RDA unless the record is incomplete", () => {
    const lists = Object.fromEntries(
      (['biological_sexes', 'residence_zones', 'nationalities', 'ethnicities', 'disabilities'] as const).map((name) => [
        name,
        new Set(loadCodeList(name).map((i) => i.code)),
      ]),
    );
    const { patients } = buildCohort(7);
    for (const { row } of patients) {
      const complete = row.biological_sex !== null;
      if (!complete) {
        expect(row.status).toBe(PATIENT_STATUS.incomplete);
        continue;
      }
      expect(lists.biological_sexes.has(row.biological_sex!)).toBe(true);
      expect(lists.residence_zones.has(row.residence_zone!)).toBe(true);
      expect(lists.nationalities.has(row.nationality!)).toBe(true);
      expect(lists.ethnicities.has(row.ethnicity!)).toBe(true);
      for (const d of JSON.parse(row.disabilities!) as string[]) expect(lists.disabilities.has(d)).toBe(true);
      const gaps = patientGaps({ ...row, id: 1, disabilities: JSON.parse(row.disabilities!) as string[] }, 'CC');
      if (row.city_id !== null) expect(rdaComplete(gaps), JSON.stringify(gaps)).toBe(true);
    }
    expect(patients.filter((p) => p.row.biological_sex !== null).length).toBeGreaterThan(patients.length * 0.8);
  });
});

describe('DEMO_TELECONSULTATIONS', () => {
  const readings = [
    [
      { id: 11, clinical_element: 3, value: 152 },
      { id: 12, clinical_element: 4, value: 96 },
    ],
    [
      { id: 9, clinical_element: 3, value: 148 },
      { id: 10, clinical_element: 4, value: 94 },
    ],
  ];

  it.each([
    [readings[0], '152/96 mmHg'],
    [[{ id: 1, clinical_element: 6, value: 182 }], '182 mg/dL'],
    [[{ id: 1, clinical_element: 2, value: 91 }], '91 %'],
  ])('quotes %j as %s', (set, text) => {
    expect(describeDemoReadings(set)).toBe(text);
  });

  it('links the readings reviewed and quotes them in the findings, newest first', () => {
    const draft = buildDemoTeleconsultation(DEMO_TELECONSULTATIONS[0], readings);
    expect(draft.reading_ids).toEqual([11, 12, 9, 10]);
    expect(draft.findings).toBe(
      'Presión arterial en las últimas lecturas del tensiómetro: 152/96 mmHg; 148/94 mmHg. Refiere adherencia al tratamiento; sin cefalea, dolor torácico ni déficit neurológico.',
    );
  });

  it.each(DEMO_TELECONSULTATIONS.map((p) => [p.key, p] as const))(
    "closes '%s' with every required element, in the guide's codes",
    (_key, plan) => {
      const draft = buildDemoTeleconsultation(plan, [[{ id: 1, clinical_element: plan.elements[0], value: 100 }]]);
      const codes = (name: Parameters<typeof loadCodeList>[0]) => new Set(loadCodeList(name).map((i) => i.code));
      expect(codes('cups_consultations').has(draft.cups_code)).toBe(true);
      expect(codes('reps_services').has(draft.reps_service)).toBe(true);
      for (const d of draft.diagnoses) expect(codes('icd10co').has(d.code)).toBe(true);
      for (const d of draft.diagnoses) if (d.diagnosis_type) expect(codes('diagnosis_types').has(d.diagnosis_type)).toBe(true);
      for (const f of draft.risk_factors) expect(codes('risk_factors').has(f.code)).toBe(true);
      expect(diagnosesProblem(draft.diagnoses)).toBeNull();
      const gaps = teleconsultationGaps({
        id: 1,
        ...draft,
        sick_leave_scope: null,
        sick_leave_days: null,
        site_id: 1,
        diagnoses: draft.diagnoses.map((d, i) => ({ rank: i + 1, diagnosis_type: d.diagnosis_type })),
        risk_factors: draft.risk_factors.length,
        medications: 0,
      });
      expect(gaps).toEqual([]);
    },
  );
});
