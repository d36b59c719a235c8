import type { Sequelize, Transaction } from 'sequelize';
import type { JobRunner } from '../../jobs/queue.js';

/** Where a reading came from. */
export type MeasurementSource = 'staff' | 'device' | 'assistant' | 'portal';

/**
 * How the request that stored a reading sent it: one reading, or a list (an array body, a device's
 * batch) whatever the list holds (metrics' mode; issue 49).
 */
export type ReadingShape = 'single' | 'batch';

/** A measurement as the ingestion service stored it (blood pressure is two rows: 3 and 4). */
export interface StoredMeasurement {
  id: number;
  client_id: number;
  patient_id: number;
  clinical_element: number;
  value: number;
  when: Date;
  source: MeasurementSource;
  /** When it was stored (the row's created_at): a pushed Observation's `issued`, as the FHIR API's. */
  created_at: Date;
  sentAs: ReadingShape;
}

/** A reading about to be stored: all a hook's reads may depend on (no id yet). */
export type PlannedMeasurement = Pick<StoredMeasurement, 'client_id' | 'patient_id' | 'clinical_element' | 'when'>;

/** What every hook gets: the open transaction that stores the readings, so all of it commits or none. */
export interface MeasurementHookContext {
  sequelize: Sequelize;
  transaction: Transaction;
  now: Date;
  jobs: JobRunner;
}

/**
 * A hook in two steps. `load` reads what it needs from the readings about to be stored; the
 * loads of every hook are sent together with the INSERT, so the database runs them back to back
 * instead of waiting for JavaScript between statements (issue 7: each wait is a trip through a
 * busy event loop). `apply` then decides and writes, knowing the stored rows. A load may read
 * more than apply uses (a reading the INSERT skipped as a retry), never less, and may also make a
 * write that depends only on what is sent (activities: the stale-data flags).
 */
export interface MeasurementHook<S> {
  load(ctx: MeasurementHookContext, planned: PlannedMeasurement[]): Promise<S>;
  apply(ctx: MeasurementHookContext, stored: StoredMeasurement[], loaded: S): Promise<void>;
}

/** The hooks' loaded states, in registration order; only for applyMeasurementHooks. */
export type LoadedHooks = readonly unknown[];

/** The subscribers to stored readings, in the order they apply. */
export interface MeasurementHooks {
  /** Adds a subscriber after those already there; one already registered stays where it is. */
  register<S>(hook: MeasurementHook<S>): void;
  load(ctx: MeasurementHookContext, planned: PlannedMeasurement[]): Promise<LoadedHooks>;
  apply(ctx: MeasurementHookContext, stored: StoredMeasurement[], loaded: LoadedHooks): Promise<void>;
}

function createMeasurementHooks(): MeasurementHooks {
  const hooks: Array<MeasurementHook<unknown>> = [];
  return {
    register(hook) {
      // A second app in the same process (tests) registers the same subscribers again.
      if (!hooks.includes(hook as MeasurementHook<unknown>)) hooks.push(hook as MeasurementHook<unknown>);
    },
    load(ctx, planned) {
      if (!planned.length) return Promise.resolve([]);
      return Promise.all(hooks.map((hook) => hook.load(ctx, planned)));
    },
    async apply(ctx, stored, loaded) {
      if (!stored.length) return;
      for (let i = 0; i < hooks.length; i++) await hooks[i].apply(ctx, stored, loaded[i]);
    },
  };
}

/**
 * Everything that follows a stored reading, applied in order inside the storing transaction.
 * The subscribers live in other modules (webhooks, alarms, orders), which import this one, so the
 * composition root (app.ts) registers them here.
 */
export const measurementHooks = createMeasurementHooks();

export function loadMeasurementHooks(ctx: MeasurementHookContext, planned: PlannedMeasurement[]): Promise<LoadedHooks> {
  return measurementHooks.load(ctx, planned);
}

export async function applyMeasurementHooks(ctx: MeasurementHookContext, stored: StoredMeasurement[], loaded: LoadedHooks): Promise<void> {
  await measurementHooks.apply(ctx, stored, loaded);
}

/** Both steps, for rows already stored. */
export async function runMeasurementHooks(ctx: MeasurementHookContext, stored: StoredMeasurement[]): Promise<void> {
  await applyMeasurementHooks(ctx, stored, await loadMeasurementHooks(ctx, stored));
}
