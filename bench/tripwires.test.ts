import { describe, expect, it } from 'vitest';
import { checkTripwires } from './tripwires.js';
import type { Results } from './report.js';

type Extras = NonNullable<Results['extras']>;
const ingestion = (single: number, batch: number) =>
  ({
    single: { api: { rps: single }, bare: { rps: 1000 } },
    batch: { api: { rps: batch }, bare: { rps: 1000 } },
  }) as unknown as Extras['ingestion'];
const frontend = (warmP50: number) => ({ chartsShown: { warm: { p50: warmP50 } } }) as unknown as Extras['frontend'];
const ref = { chartsWarmP50Ms: 2000 };
const tripped = (extras: Extras) => checkTripwires({ extras }, ref).map((t) => t.tripped);

describe('checkTripwires', () => {
  it.each([
    ['healthy small run', { ingestion: ingestion(400, 700), frontend: frontend(2500) }, [false, false, false]],
    ['single readings at 0.08 of the bare insert', { ingestion: ingestion(80, 700), frontend: frontend(2500) }, [true, false, false]],
    ['batches at 0.2', { ingestion: ingestion(400, 200), frontend: frontend(2500) }, [false, true, false]],
    ['charts at more than twice the committed figure', { ingestion: ingestion(400, 700), frontend: frontend(4001) }, [false, false, true]],
    ['phases not run', {}, [null, null, null]],
  ])('%s', (_name, extras, expected) => {
    expect(tripped(extras as Extras)).toEqual(expected);
  });
});
