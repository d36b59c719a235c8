/**
 * Tripwires for CI's small run (issue 52): `npm run bench -- ... --tripwires` exits 1 when a ratio
 * row falls far below where it stands, so a slip like issue 52's (single readings 0.61 -> 0.44 of
 * the bare insert, charts twice as slow) fails a build instead of waiting for a full-size run. The
 * small run's few seconds per phase on a shared machine are noisy: each threshold sits below the
 * worst of several small runs of healthy code (bench/README.md, 'Tripwires in CI'), so it trips on
 * a real slowdown, not on the machine's noise. Judged on ratios to the same run's baselines, never
 * on absolute rates or times: the charts' time too is taken over the same run's browser reference
 * page (browser-reference.ts), against the ratio a committed small run had (tripwires.json).
 */
import fs from 'node:fs';
import type { Results } from './report.js';

export interface TripwireReference {
  /** Charts visible on the patient page, warm cache, p50, at CI's size (a small run's figure). */
  chartsWarmP50Ms: number;
  /** The browser reference page's warm p50 in the same run (the machine's browser speed). */
  referenceWarmP50Ms: number;
}

export const TRIPWIRES = {
  /** One reading per request at 10 connections ÷ the bare insert: target 0.5; small runs 0.29-0.41 at load 8-12. */
  singleReadingRatio: 0.2,
  /** 100-reading batches ÷ the bare insert: target 0.6; small runs 0.37-0.86. */
  batchRatio: 0.25,
  /** Charts visible, warm p50, over the reference page's: at most this many times the committed small run's. */
  chartsWarmFactor: 1.6,
} as const;

export interface Trip {
  what: string;
  limit: string;
  figure: string;
  /** null: the row was not measured in this run (its phase skipped or failed). */
  tripped: boolean | null;
}

export function readReference(file: string): TripwireReference {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as TripwireReference;
}

/** Every tripwire against one run's results; `tripped` rows fail CI. */
export function checkTripwires(r: Pick<Results, 'extras'>, ref: TripwireReference): Trip[] {
  const out: Trip[] = [];
  const ratio = (v: number) => `${v.toFixed(2)}×`;
  const ingestion = r.extras?.ingestion;
  /** A row's API rate ÷ its bare insert's, held to at least `min`. */
  const ratioTrip = (what: string, rates: { api: { rps: number }; bare: { rps: number } } | undefined, min: number): Trip => {
    const value = rates ? rates.api.rps / Math.max(1, rates.bare.rps) : null;
    return {
      what,
      limit: `≥ ${ratio(min)}`,
      figure: value === null ? 'not measured' : ratio(value),
      tripped: value === null ? null : value < min,
    };
  };
  out.push(ratioTrip('one reading per request, 10 connections, ÷ bare insert', ingestion?.single, TRIPWIRES.singleReadingRatio));
  out.push(ratioTrip('100 readings per request ÷ bare insert', ingestion?.batch, TRIPWIRES.batchRatio));
  const shown = r.extras?.frontend?.chartsShown;
  const charts = shown?.warm.p50;
  const reference = shown?.referenceWarm?.p50;
  const committed = ref.chartsWarmP50Ms / ref.referenceWarmP50Ms;
  const chartsLimit = committed * TRIPWIRES.chartsWarmFactor;
  const measured = charts != null && reference != null && reference > 0;
  out.push({
    what: "patient page charts visible, warm p50, ÷ the browser's reference page (same run)",
    limit: `≤ ${ratio(chartsLimit)} (${TRIPWIRES.chartsWarmFactor}× ${ref.chartsWarmP50Ms} ÷ ${ref.referenceWarmP50Ms} ms)`,
    figure: measured ? `${ratio(charts / reference)} (${charts.toFixed(0)} ÷ ${reference.toFixed(0)} ms)` : 'not measured',
    tripped: measured ? charts / reference > chartsLimit : null,
  });
  return out;
}
