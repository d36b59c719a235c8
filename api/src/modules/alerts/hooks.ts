import type { Sequelize, Transaction } from 'sequelize';
import type { JobRunner } from '../../jobs/queue.js';

/** An alert as raiseAlert stored it. */
export interface RaisedAlert {
  id: number;
  client_id: number;
  patient_id: number;
  alert_type: number;
  priority: number;
  clinical_element: number | null;
  alarm_id: number | null;
  measurement_id: number | null;
}

export interface AlertHookContext {
  sequelize: Sequelize;
  transaction?: Transaction;
  now: Date;
  jobs: JobRunner;
}

export type AlertHook = (ctx: AlertHookContext, alert: RaisedAlert) => Promise<void>;

/** The subscribers to new alerts, run in registration order. */
export interface AlertHooks {
  /** Adds a subscriber after those already there; one already registered stays where it is. */
  register(hook: AlertHook): void;
  run(ctx: AlertHookContext, alert: RaisedAlert): Promise<void>;
}

function createAlertHooks(): AlertHooks {
  const hooks: AlertHook[] = [];
  return {
    register(hook) {
      // A second app in the same process (tests) registers the same subscribers again.
      if (!hooks.includes(hook)) hooks.push(hook);
    },
    async run(ctx, alert) {
      for (const hook of hooks) await hook(ctx, alert);
    },
  };
}

/**
 * What follows a new alert, inside raiseAlert's transaction. The subscribers live in modules that
 * import this one (webhooks, messages), so the composition root (app.ts) registers them here.
 */
export const alertHooks = createAlertHooks();

export async function runAlertHooks(ctx: AlertHookContext, alert: RaisedAlert): Promise<void> {
  await alertHooks.run(ctx, alert);
}
