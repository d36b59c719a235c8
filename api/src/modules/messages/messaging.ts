import path from 'node:path';
import type { Router } from 'express';
import type { Sequelize } from 'sequelize';
import type { JobRunner } from '../../jobs/queue.js';
import { createMessagingChannel, type MessagingChannel } from '../../adapters/messaging.js';
import { createAssistantModel, type AssistantModel } from '../../adapters/assistant.js';
import { loadMessagingConfig } from '../../config.js';
import { registerMessagingJobs } from './messages.jobs.js';
import { messagesRouter, messagingPublicRouter, registerAttachmentDownloads } from './messages.routes.js';
import type { Downloads } from '../../http/downloads.js';
import type { MessagingDeps } from './messages.service.js';

/**
 * The messaging channel and the AI assistant, assembled from the environment (D18): registers the
 * channel's jobs (app.ts registers the assistant's on the deps returned here, since the assistant
 * module imports this one) and answers the staff router (under /api/v1, after authentication) and
 * the public router (the provider's webhook, mounted before the JSON parser).
 */
export function createMessaging(opts: {
  sequelize: Sequelize;
  jobs: JobRunner;
  now: () => Date;
  log: (msg: string, err?: unknown) => void;
  dataDir?: string;
  env?: NodeJS.ProcessEnv;
  channel?: MessagingChannel;
  model?: AssistantModel | null;
  failActivity: MessagingDeps['failActivity'];
}): { router: Router; publicRouter: Router; deps: MessagingDeps; useDownloads: (downloads: Downloads) => void } {
  const settings = loadMessagingConfig(opts.env ?? process.env);
  const deps: MessagingDeps = {
    sequelize: opts.sequelize,
    jobs: opts.jobs,
    now: opts.now,
    log: opts.log,
    channel:
      opts.channel ??
      createMessagingChannel({
        url: settings.messagingUrl,
        token: settings.messagingToken,
        webhookSecret: settings.messagingWebhookSecret,
      }),
    model:
      opts.model !== undefined
        ? opts.model
        : createAssistantModel({ baseUrl: settings.aiBaseUrl, model: settings.aiModel, apiKey: settings.aiApiKey }),
    dataDir: opts.dataDir ?? path.resolve((opts.env ?? process.env).DATA_DIR ?? 'data'),
    downloads: null,
    welcomeTemplate: settings.messagingWelcomeTemplate,
    failActivity: opts.failActivity,
  };
  registerMessagingJobs(deps);
  return {
    router: messagesRouter(deps),
    publicRouter: messagingPublicRouter(deps),
    deps,
    // Attachments go out as signed download links once the app has its downloads registry.
    useDownloads: (downloads) => registerAttachmentDownloads(deps, downloads),
  };
}
