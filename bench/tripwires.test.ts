import { describe, expect, it } from 'vitest';
import { checkTripwires } from './tripwires.js';
import type { Results } from './report.js';

type Extras = NonNullable<Results['extras']>;
const ingestion = (single: number, batch: number) =>
  ({
    single: { api: { rps: single }, bare: { rps: 1000 } },
    batch: { api: { rps: batch }, bare: { rps: 1000 } },
  }) as unknown as Extras['ingestion'];
const frontend = (warmP50: number, referenceP50?: number) =>
  ({
    chartsShown: { warm: { p50: warmP50 }, referenceWarm: referenceP50 === undefined ? undefined : { p50: referenceP50 } },
  }) as unknown as Extras['frontend'];
// Committed: charts 2,000 ms beside a reference page of 1,000 ms (2.0×): the tripwire sits at 3.2×.
const ref = { chartsWarmP50Ms: 2000, referenceWarmP50Ms: 1000 };
const tripped = (extras: Extras) => checkTripwires({ extras }, ref).map((t) => t.tripped);

describe('checkTripwires', () => {
  it.each([
    ['healthy small run', { ingestion: ingestion(400, 700), frontend: frontend(2500, 1000) }, [false, false, false]],
    ['single readings at 0.08 of the bare insert', { ingestion: ingestion(80, 700), frontend: frontend(2500, 1000) }, [true, false, false]],
    ['batches at 0.2', { ingestion: ingestion(400, 200), frontend: frontend(2500, 1000) }, [false, true, false]],
    [
      'charts twice as slow beside the same reference page (4.0× against 3.2×)',
      { ingestion: ingestion(400, 700), frontend: frontend(4001, 1000) },
      [false, false, true],
    ],
    [
      'a machine three times slower: both pages slower, the ratio holds',
      { ingestion: ingestion(400, 700), frontend: frontend(6000, 3000) },
      [false, false, false],
    ],
    [
      'a machine three times faster and charts twice as slow',
      { ingestion: ingestion(400, 700), frontend: frontend(1400, 333) },
      [false, false, true],
    ],
    [
      'the reference page not measured (a results file from before it)',
      { ingestion: ingestion(400, 700), frontend: frontend(2500) },
      [false, false, null],
    ],
    ['phases not run', {}, [null, null, null]],
  ])('%s', (_name, extras, expected) => {
    expect(tripped(extras as Extras)).toEqual(expected);
  });
});
