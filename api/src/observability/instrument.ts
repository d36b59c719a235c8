import type { Transaction } from 'sequelize';
import type { JobRunner, JobRow } from '../jobs/queue.js';
import type { MeasurementHook } from '../modules/measurements/hooks.js';
import type { AlertHook } from '../modules/alerts/hooks.js';
import type { ChannelMap } from '../modules/notifications/notifications.channels.js';
import { observeStatements } from '../db/sql.js';
import {
  alertsOpened,
  jobLag,
  jobRuns,
  metricsEnabled,
  notificationsSent,
  observeStatement,
  readingsStored,
  webhookDeliveries,
} from './metrics.js';

/**
 * Where the metrics are counted: subscribers of the registries and wrappers the composition root
 * puts around the job runner and the notification channels, so no module counts for itself.
 */

const WEBHOOK_DELIVERY_JOB = 'webhook.delivery';

/** Counted once the transaction that stored the rows commits: a rolled-back batch stored nothing. */
function afterCommit(transaction: Transaction | undefined, fn: () => void) {
  if (transaction) transaction.afterCommit(fn);
  else fn();
}

/**
 * Rows stored, by source and by how the request sent them (issue 49: counted from the rows, a
 * batch of one timestamp was 'single', and single readings committed together were a 'batch').
 */
export const readingsMetricHook: MeasurementHook<null> = {
  load: async () => null,
  async apply(ctx, stored) {
    if (!metricsEnabled() || !stored.length) return;
    // The usual call, one device reading: no map to build.
    if (stored.length === 1) {
      const { source, sentAs } = stored[0];
      afterCommit(ctx.transaction, () => readingsStored.inc({ source, mode: sentAs }, 1));
      return;
    }
    const counts = new Map<string, { source: string; mode: string; n: number }>();
    for (const { source, sentAs } of stored) {
      const key = `${source}|${sentAs}`;
      const c = counts.get(key);
      if (c) c.n++;
      else counts.set(key, { source, mode: sentAs, n: 1 });
    }
    afterCommit(ctx.transaction, () => {
      for (const { source, mode, n } of counts.values()) readingsStored.inc({ source, mode }, n);
    });
  },
};

export const alertsMetricHook: AlertHook = async (ctx, alert) => {
  if (!metricsEnabled()) return;
  afterCommit(ctx.transaction, () => alertsOpened.inc({ type: String(alert.alert_type), priority: String(alert.priority) }));
};

/** Statement times go to the histogram; with METRICS=off the SQL helpers call no observer at all. */
export function observeSqlTime(): void {
  observeStatements(metricsEnabled() ? observeStatement : null);
}

/** Each channel's sends counted by outcome; the channel itself unchanged. */
export function instrumentChannels(channels: ChannelMap): ChannelMap {
  if (!metricsEnabled()) return channels;
  const out = {} as ChannelMap;
  for (const [name, channel] of Object.entries(channels) as Array<[keyof ChannelMap, ChannelMap[keyof ChannelMap]]>) {
    out[name] = {
      ...channel,
      async send(message) {
        try {
          const answer = await channel.send(message);
          notificationsSent.inc({ channel: name, outcome: 'sent' });
          return answer;
        } catch (err) {
          notificationsSent.inc({ channel: name, outcome: 'failed' });
          throw err;
        }
      },
    };
  }
  return out;
}

export interface JobRunnerState {
  /** Whether this process polls the queue (a test's runner never starts: its queue is never 'stalled'). */
  started(): boolean;
}

/**
 * Every handler registered on `runner` is timed and counted by kind; the lag from its due time is
 * what a webhook receiver sees as the delivery's delay.
 */
export function instrumentJobRunner(runner: JobRunner): JobRunnerState {
  let started = false;
  const wrap = <A extends unknown[]>(kind: string, handler: (...args: A) => Promise<void>) =>
    !metricsEnabled()
      ? handler
      : async (...args: A) => {
          const job = args[0] as JobRow | undefined;
          if (job?.run_at) jobLag.observe({ kind }, Math.max(0, (Date.now() - new Date(job.run_at).getTime()) / 1000));
          try {
            await handler(...args);
            jobRuns.inc({ kind, outcome: 'done' });
            if (kind === WEBHOOK_DELIVERY_JOB) webhookDeliveries.inc({ outcome: 'done' });
          } catch (err) {
            jobRuns.inc({ kind, outcome: 'error' });
            if (kind === WEBHOOK_DELIVERY_JOB) webhookDeliveries.inc({ outcome: 'error' });
            throw err;
          }
        };
  const register = runner.register.bind(runner);
  runner.register = (kind, definition) => {
    if (typeof definition === 'function') register(kind, wrap(kind, definition));
    else register(kind, { ...definition, handler: wrap(kind, definition.handler) });
  };
  const every = runner.every.bind(runner);
  runner.every = (task) => every({ ...task, handler: wrap(task.kind, task.handler) });
  const start = runner.start.bind(runner);
  runner.start = (intervalMs) => {
    started = true;
    const stop = start(intervalMs);
    return async () => {
      started = false;
      await stop();
    };
  };
  return { started: () => started };
}
