import os from 'node:os';
import path from 'node:path';
import { ROOT_DIR } from './paths.js';
import express, { Router } from 'express';
import helmet from 'helmet';
import qs from 'qs';
import type { Sequelize, Transaction } from 'sequelize';
import { createAuthenticator, sessionFirst } from './http/auth.js';
import { sessionRequirement } from './http/session-first.rules.js';
import { createErrorHandler, notFoundRoute } from './http/errors.js';
import {
  createContractErrorTranslator,
  createContractValidator,
  holdingRefusals,
  loadContract,
  rejectUnsafeValues,
} from './http/contract.js';
import { unwrapBody } from './http/unwrap.js';
import { refuseUnreadBody } from './http/unread-body.js';
import { docsRouter, frontEndsRouter } from './http/static.js';
import { countRequests, requestsReceived } from './http/traffic.js';
import type { Catalogues } from './modules/catalogues/catalogues.service.js';
import type { SmsSender } from './adapters/sms.js';
import type { JobRunner } from './jobs/queue.js';
import { sessionsRouter } from './modules/sessions/sessions.routes.js';
import { createSessionHooks, endPatientSessions, endSessions, endStaffSessions } from './modules/sessions/sessions.service.js';
import { openSession } from './modules/sessions/sessions.service.js';
import { factorsRouter } from './modules/factors/factors.routes.js';
import { registerFactorJobs } from './modules/factors/factors.service.js';
import { signInChallengeFor } from './modules/factors/factors.service.js';
import { passwordResetsRouter } from './modules/password_resets/password-resets.routes.js';
import { registerPasswordResetJobs } from './modules/password_resets/password-resets.service.js';
import { setUserPassword } from './modules/users/users.service.js';
import { cataloguesRouter } from './modules/catalogues/catalogues.routes.js';
import { tagsRouter } from './modules/tags/tags.routes.js';
import { patientsRouter } from './modules/patients/patients.routes.js';
import { assertTagsOwned, touchTags } from './modules/tags/tags.service.js';
import { attachDefaultAlarms, countOpenAlerts, setPatientAlarms } from './modules/alarms/alarms.service.js';
import { patientAdherence } from './modules/orders/adherence.js';
import { patientPrescription } from './modules/orders/orders.queries.js';
import { applyPatientStatusChange } from './modules/orders/patient-status.js';
import { failUndeliveredActivity } from './modules/orders/activities.service.js';
import { createPortalLocks } from './modules/otp/otp.service.js';
import { otpRouter } from './modules/otp/otp.routes.js';
import { clientsRouter } from './modules/clients/clients.routes.js';
import { webhooksRouter } from './modules/webhooks/webhooks.routes.js';
import { apiClientsRouter } from './modules/api_clients/api-clients.routes.js';
import { oauthRouter } from './modules/api_clients/api-clients.token.js';
import { fhirRouter } from './modules/fhir/fhir.routes.js';
import { bulkExportRouter } from './modules/fhir_exports/fhir-exports.bulk.routes.js';
import { fhirExportsRouter } from './modules/fhir_exports/fhir-exports.routes.js';
import { registerExportJobs } from './modules/fhir_exports/fhir-exports.service.js';
import { exportSettings } from './modules/fhir_exports/fhir-exports.rules.js';
import { reportsRouter } from './modules/reports/reports.routes.js';
import { ssoRouter } from './modules/sso/sso.routes.js';
import { loadOidcConfig, type OidcSettings } from './config.js';
import { registerWebhookJobs } from './modules/webhooks/webhooks.delivery.js';
import { clientWebhookState } from './modules/clients/clients.webhook-state.js';
import { clientTimeZone as readClientTimeZone } from './modules/clients/clients.service.js';
import { feedbacksRouter } from './modules/feedbacks/feedbacks.routes.js';
import { smsOutboxRouter } from './modules/sms/sms.routes.js';
import { ordersRouter } from './modules/orders/orders.routes.js';
import { registerOrderJobs } from './modules/orders/orders.lifecycle.js';
import { promptsRouter } from './modules/prompts/prompts.routes.js';
import { currentTagPrompts, deleteTagPrompts } from './modules/prompts/prompts.service.js';
import { untagAll } from './modules/patients/patient-tags.sql.js';
import { unlinkAlarm } from './modules/alerts/alerts.alarms.js';
import { observationsRouter } from './modules/observations/observations.routes.js';
import { recordConversationSummary } from './modules/observations/observations.service.js';
import { conditionsRouter } from './modules/conditions/conditions.routes.js';
import { allergiesRouter } from './modules/allergies/allergies.routes.js';
import { familyHistoryRouter } from './modules/family_history/family-history.routes.js';
import { recordCataloguesReady } from './modules/conditions/record-catalogues.js';
import { variablesRouter } from './modules/variables/variables.routes.js';
import { caregiversRouter } from './modules/caregivers/caregivers.routes.js';
import { residentsRouter } from './modules/residents/residents.routes.js';
import { createResidentsAdapter } from './adapters/residents.js';
import { createDownloads } from './http/downloads.js';
import { deviceReadingsRouter, measurementsRouter, registerMeasurementDownloads } from './modules/measurements/measurements.routes.js';
import { usersRouter } from './modules/users/users.routes.js';
import { inventoryRouter } from './modules/inventory/inventory.routes.js';
import { encountersRouter } from './modules/encounters/encounters.routes.js';
import { listStockApplications } from './modules/encounters/encounters.service.js';
import { createMessaging } from './modules/messages/messaging.js';
import { registerAssistantJobs } from './modules/assistant/assistant.service.js';
import { measurementHooks } from './modules/measurements/hooks.js';
import { touchDevicesOfCards } from './modules/measurements/devices.service.js';
import { alarmsHook } from './modules/alarms/alarms.evaluate.js';
import { attachReadings } from './modules/alerts/alerts.readings.js';
import { activitiesHook } from './modules/orders/activities.match.js';
import { measurementWebhooksHook, queueAlertWebhook } from './modules/webhooks/webhooks.queue.js';
import { alertHooks } from './modules/alerts/hooks.js';
import { notifyPatientOfAlarm } from './modules/messages/alarm-notify.js';
import { alarmsRouter } from './modules/alarms/alarms.routes.js';
import { alertsRouter } from './modules/alerts/alerts.routes.js';
import { registerIdempotencyJobs } from './http/idempotency.js';
import { registerAlertCountJobs } from './modules/alerts/alerts.counts.js';
import { auditRecorder, recordAuditEvent } from './modules/audit/audit.recorder.js';
import { auditRouter } from './modules/audit/audit.routes.js';
import { createEmailSender, loadEmailConfig, type EmailSender } from './adapters/email.js';
import { queueAlertNotifications, registerNotificationJobs, retimeEscalations } from './modules/notifications/notifications.jobs.js';
import { conversationOpen, notificationChannels } from './modules/notifications/notifications.channels.js';
import { notificationsRouter } from './modules/notifications/notifications.routes.js';
import { triageRouter } from './modules/triage/triage.routes.js';
import { registerTriageJobs } from './modules/triage/triage.summaries.js';
import { indicatorsRouter } from './modules/indicators/indicators.routes.js';
import { registerIndicatorJobs } from './modules/indicators/indicators.service.js';
import { registerBackupJob } from './modules/backups/backups.service.js';
import { rdasRouter } from './modules/rdas/rdas.routes.js';
import { latestEncounterRda, recordRda, registerRdaJobs } from './modules/rdas/rdas.service.js';
import { queuePatientStatement, registerStatementJobs } from './modules/rdas/rdas.statement.js';
import { patientStatementBuilder } from './rda-statements.js';
import { openSecret, sealSecret } from './modules/factors/factors.service.js';
import { createIhceAdapter, type IhceAdapter } from './adapters/ihce.js';
import type { Observability } from './observability/observability.js';
import { healthRouter, metricsElsewhere, metricsHandler, requestLog } from './observability/observability.routes.js';
import { alertsMetricHook, instrumentChannels, readingsMetricHook } from './observability/instrument.js';

export interface AppDeps {
  sequelize: Sequelize;
  catalogues: Catalogues;
  sms: SmsSender;
  /** Durable background jobs; modules register their job kinds on it here. */
  jobs: JobRunner;
  jwtSecret: string;
  tokenTtlSeconds: number;
  otpLength: number;
  env: 'development' | 'test' | 'production';
  now?: () => Date;
  log?: (msg: string, err?: unknown) => void;
  serveFrontEnds?: boolean;
  /** Where files (chat attachments) are kept; default DATA_DIR. */
  dataDir?: string;
  /** Webhook and integration URLs may be http:// (WEBHOOKS_ALLOW_HTTP=1, local receivers); default https:// only (03 §5). */
  allowHttpServices?: boolean;
  /** Single sign-on provider; undefined = read OIDC_* from the environment, null = off. */
  oidc?: OidcSettings | null;
  /** E-mail for care-team notifications; undefined = SMTP_URL/SMTP_FROM from the environment (outbox without them). */
  email?: EmailSender;
  /** Request log, metrics and readiness (issue 39); bootstrap builds it. */
  observability?: Observability;
  /** The Ministry's IHCE platform for the RDA documents (issue 51); default: the real HTTP adapter. */
  ihce?: IhceAdapter;
}

/**
 * The subscribers of the readings and alerts publishers. A stored reading queues its webhook
 * deliveries first (D19), so a receiver gets the Observation before the DetectedIssue an alarm
 * raises on it, then is checked against the alarm rules (D10), then completes its activity (D11).
 * A new alert queues its FHIR DetectedIssue delivery, then the patient's AI message for ia_alarm
 * rules.
 */
function registerHooks() {
  measurementHooks.register(measurementWebhooksHook);
  measurementHooks.register(alarmsHook({ attachReadings }));
  measurementHooks.register(activitiesHook);
  alertHooks.register(queueAlertWebhook);
  alertHooks.register(notifyPatientOfAlarm);
  alertHooks.register(queueAlertNotifications);
  measurementHooks.register(readingsMetricHook);
  alertHooks.register(alertsMetricHook);
}

/** Builds the whole HTTP application; no listen, so tests drive it with supertest. */
export function createApp(deps: AppDeps): express.Express {
  registerHooks();
  const now = deps.now ?? (() => new Date());
  const log = deps.log ?? ((msg: string, err?: unknown) => console.error(`[vigia] ${msg}`, err ?? ''));
  const { doc, text } = loadContract();
  const app = express();
  app.disable('x-powered-by');
  // No ETag on res.send answers: they are the API's, sent with Cache-Control: no-store, so no
  // client revalidates them, and hashing every body cost CPU on each request (issue 7). Files
  // (sendFile, express.static) keep theirs.
  app.set('etag', false);
  app.set('trust proxy', 'loopback');
  // Express's 'extended' parser (qs, allowPrototypes) with room for a repeated parameter of up to
  // 200 values: at its default of 20, 21 `id=` became an object and a digest's link a 400 (issue 41).
  app.set('query parser', (query: string) => qs.parse(query, { allowPrototypes: true, arrayLimit: 200 }));
  const obs = deps.observability;
  app.use(countRequests);
  if (obs) app.use(requestLog(obs.logger));
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          // antd writes its CSS-in-JS into <style> tags at run time.
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'https:'],
          connectSrc: ["'self'"],
          frameSrc: ["'self'", 'https:'],
          frameAncestors: ["'none'"],
          objectSrc: ["'none'"],
          upgradeInsecureRequests: deps.env === 'production' ? [] : null,
        },
      },
      strictTransportSecurity: deps.env === 'production' ? { maxAge: 31536000, includeSubDomains: true } : false,
      referrerPolicy: { policy: 'same-origin' },
      // Same as frame-ancestors 'none' for browsers that only read the older header.
      xFrameOptions: { action: 'deny' },
    }),
  );
  app.use('/api', (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Access-Control-Expose-Headers', 'X-Total-Count');
    next();
  });

  if (obs) {
    app.use(healthRouter({ sequelize: deps.sequelize, now, jobsStarted: obs.jobs.started, shuttingDown: () => obs.shuttingDown }));
    app.get('/metrics', obs.settings.metricsToken ? metricsHandler(obs.database, obs.settings.metricsToken) : metricsElsewhere);
  }
  app.get('/api/v1/openapi.yaml', (_req, res) => {
    res.type('application/yaml').send(text);
  });
  app.use(docsRouter());

  // Issue 38: a session's last use, and an ended session's token told why (and audited).
  const recordEvent = (e: Parameters<typeof recordAuditEvent>[1]) => recordAuditEvent({ sequelize: deps.sequelize, log }, e);
  const sessionHooks = createSessionHooks({ sequelize: deps.sequelize, now, log, recordEvent });
  const { authenticate } = createAuthenticator(deps.sequelize, deps.jwtSecret, now, sessionHooks);
  const oidc = deps.oidc === undefined ? loadOidcConfig() : deps.oidc;
  const sessionDeps = {
    ssoEnabled: oidc != null,
    sequelize: deps.sequelize,
    secret: deps.jwtSecret,
    ttlSeconds: deps.tokenTtlSeconds,
    catalogues: deps.catalogues,
    now,
    sms: deps.sms,
    codeLength: deps.otpLength,
    log,
  };

  // Each table has one writer (docs/tables.md): messaging fails an activity through orders, and the
  // assistant keeps its summaries through observations.
  const messaging = createMessaging({
    sequelize: deps.sequelize,
    jobs: deps.jobs,
    now,
    log,
    dataDir: deps.dataDir,
    failActivity: (clientId, activityId) => failUndeliveredActivity(deps.sequelize, clientId, activityId),
  });
  registerAssistantJobs(messaging.deps, {
    recordSummary: (v, transaction) =>
      recordConversationSummary(deps.sequelize, v.clientId, v.patientId, v.text, v.now, { transaction, author: v.author }),
  });
  app.use(messaging.publicRouter);
  // Issue 37: SMART Backend Services' token endpoint and discovery, at the host's root (not /api/v1).
  app.use(
    oauthRouter({ sequelize: deps.sequelize, secret: deps.jwtSecret, now, log, publicUrl: process.env.PUBLIC_URL || null, recordEvent }),
  );
  // Issue 37's Bulk Data export: its kick-offs, status and files go before read/search's `/:type/:id`.
  const fhirExportDeps = {
    sequelize: deps.sequelize,
    now,
    log,
    dir: path.join(deps.dataDir ?? os.tmpdir(), 'fhir-exports'),
    settings: exportSettings(process.env),
    publicUrl: process.env.PUBLIC_URL || null,
    recordEvent,
    requestsReceived,
  };
  registerExportJobs({ ...fhirExportDeps, jobs: deps.jobs });
  app.use('/fhir/R4', bulkExportRouter({ ...fhirExportDeps, secret: deps.jwtSecret, authenticate }));
  app.use(
    '/fhir/R4',
    fhirRouter({
      sequelize: deps.sequelize,
      secret: deps.jwtSecret,
      now,
      publicUrl: process.env.PUBLIC_URL || null,
      authenticate,
      log,
      recordEvent,
    }),
  );
  const api = Router();
  api.use(sessionFirst(sessionRequirement(doc), authenticate));
  // Issue 49: for a signed-in caller, a refusal of the request is raised after the operation's guards.
  api.use(
    ...holdingRefusals([express.json({ limit: '1mb' }), refuseUnreadBody, unwrapBody, ...createContractValidator(doc), rejectUnsafeValues]),
  );
  api.get('/api/v1/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  const v1 = Router();
  const webhookDeps = { sequelize: deps.sequelize, jobs: deps.jobs, now, log, clientState: clientWebhookState };
  registerWebhookJobs(webhookDeps);
  // Audit trail (issue 8): one row per successful staff/patient change and per sign-in, written after the response.
  v1.use(auditRecorder({ sequelize: deps.sequelize, now, log }));
  // Issue 38's e-mails (password recovery, a changed second factor) go out from the job queue.
  const email = deps.email ?? createEmailSender({ sequelize: deps.sequelize, config: loadEmailConfig(), now });
  // Issue 38's second factor: the step after the password, 'Seguridad' and the administrator's reset.
  const factorDeps = {
    sequelize: deps.sequelize,
    secret: deps.jwtSecret,
    now,
    recordEvent,
    openSession: (user: Parameters<typeof openSession>[1], origin: Parameters<typeof openSession>[2]) =>
      openSession(sessionDeps, user, origin),
    endAllSessions: (u: { userId: number; clientId: number }, transaction: Transaction) =>
      endSessions({ sequelize: deps.sequelize, now }, u, 'ended_by_admin', transaction),
    publicUrl: process.env.PUBLIC_URL || null,
    production: deps.env === 'production',
    jobs: deps.jobs,
  };
  registerFactorJobs({ sequelize: deps.sequelize, jobs: deps.jobs, email });
  v1.use(
    sessionsRouter({ ...sessionDeps, secondStep: (user) => signInChallengeFor(factorDeps, user) }, authenticate),
    otpRouter(sessionDeps),
    factorsRouter(factorDeps, authenticate),
  );
  v1.use(
    ssoRouter({
      ...sessionDeps,
      settings: oidc,
      allowHttp: deps.env !== 'production',
      log,
    }),
  );
  // '¿Olvidó su contraseña?' (issue 38): the e-mail goes out from the job queue.
  const passwordResetDeps = {
    sequelize: deps.sequelize,
    jobs: deps.jobs,
    now,
    log,
    email,
    publicUrl: process.env.PUBLIC_URL || null,
    ssoEnabled: oidc != null,
    recordEvent,
    endAllSessions: (u: { userId: number; clientId: number }, transaction: Transaction) =>
      endSessions({ sequelize: deps.sequelize, now }, u, 'password_reset', transaction),
    setPassword: (userId: number, hash: string, transaction: Transaction) =>
      setUserPassword({ sequelize: deps.sequelize, now }, userId, hash, transaction),
  };
  registerPasswordResetJobs(passwordResetDeps);
  v1.use(passwordResetsRouter(passwordResetDeps));
  // Everything below needs a valid session; roles and tenancy are checked per operation.
  // Signed download links (D4) and device gateways carry their own proof instead of a session.
  const downloads = createDownloads(deps.jwtSecret, now);
  const measurementDeps = { sequelize: deps.sequelize, jobs: deps.jobs, now, downloads };
  registerMeasurementDownloads(measurementDeps);
  messaging.useDownloads(downloads);
  v1.use(downloads.router(), deviceReadingsRouter(measurementDeps));
  v1.use(authenticate);
  // First: readings are most of the traffic, and each router before a route costs its matching.
  v1.use(measurementsRouter(measurementDeps));
  v1.use(cataloguesRouter(deps.sequelize, deps.catalogues));
  // The organisation's time zone, read by the clients module for the lists that read days in it.
  const clientTimeZone = (clientId: number) => readClientTimeZone(deps.sequelize, clientId);
  v1.use(
    clientsRouter({
      sequelize: deps.sequelize,
      catalogues: deps.catalogues,
      allowHttp: deps.allowHttpServices ?? false,
      // Issue 41: a changed escalation delay reaches the alerts already open.
      onEscalationChanged: (clientId, minutes) => retimeEscalations({ sequelize: deps.sequelize, jobs: deps.jobs }, clientId, minutes),
    }),
  );
  v1.use(auditRouter(deps.sequelize));
  v1.use(webhooksRouter(webhookDeps));
  v1.use(apiClientsRouter({ sequelize: deps.sequelize, now, allowHttp: deps.allowHttpServices ?? false }));
  v1.use(fhirExportsRouter(fhirExportDeps));
  v1.use(reportsRouter({ sequelize: deps.sequelize, now, downloads }));
  v1.use(tagsRouter({ sequelize: deps.sequelize, now, currentTagPrompts, untagAll, deleteTagPrompts }));
  // Issue 51: the RDA documents kept and sent to the Ministry's IHCE platform through the job queue;
  // the organisation's secrets sealed like the authenticator keys.
  const rdaDeps = {
    sequelize: deps.sequelize,
    jobs: deps.jobs,
    now,
    log,
    ihce: deps.ihce ?? createIhceAdapter(),
    secrets: {
      seal: (plain: string) => sealSecret(`${deps.jwtSecret}:ihce`, plain),
      open: (sealed: string) => openSecret(`${deps.jwtSecret}:ihce`, sealed),
    },
    allowHttp: deps.allowHttpServices ?? false,
    requestsReceived,
  };
  registerRdaJobs(rdaDeps);
  v1.use(rdasRouter({ ...rdaDeps, clientTimeZone }));
  // The patient's own RDA (RDA de paciente): written at enrolment and when the history the patient
  // states changes, by a job per patient and slot (modules/rdas/rdas.statement.ts).
  const statementWriter = { sequelize: deps.sequelize, jobs: deps.jobs, now };
  registerStatementJobs({
    ...statementWriter,
    log,
    recordRda: (input) => recordRda(rdaDeps, input),
    buildStatement: patientStatementBuilder({ sequelize: deps.sequelize, catalogues: deps.catalogues, now }),
  });
  const historyChanged = (clientId: number, patientId: number, userId: number) =>
    queuePatientStatement(statementWriter, { clientId, patientId, userId });
  v1.use(
    patientsRouter({
      sequelize: deps.sequelize,
      catalogues: deps.catalogues,
      now,
      portalLocks: createPortalLocks(sessionDeps),
      assertTagsOwned,
      touchTags,
      touchDevicesOfCards,
      attachDefaultAlarms,
      setPatientAlarms,
      countOpenAlerts,
      patientAdherence,
      patientPrescription,
      applyPatientStatusChange,
      endPatientSessions,
      onPatientEnrolled: (ids, transaction) => queuePatientStatement(statementWriter, ids, transaction),
    }),
  );
  v1.use(feedbacksRouter(deps.sequelize, now));
  v1.use(smsOutboxRouter(deps.sequelize));
  v1.use(ordersRouter({ sequelize: deps.sequelize, now, onMedicationChanged: historyChanged, clientTimeZone }));
  registerOrderJobs({ sequelize: deps.sequelize, jobs: deps.jobs, log });
  // The patient-record tabs: AI instructions, notes, conditions, allergies, family history, variables,
  // caregivers, residents.
  // Condition types and clinical variables are upserted once per start; readers await it.
  recordCataloguesReady(deps.sequelize).catch(() => undefined);
  v1.use(
    promptsRouter(deps.sequelize, now),
    observationsRouter(deps.sequelize, now),
    conditionsRouter(deps.sequelize, now, historyChanged),
    allergiesRouter({ sequelize: deps.sequelize, catalogues: deps.catalogues, now, onPatientHistoryChanged: historyChanged }),
    familyHistoryRouter({ sequelize: deps.sequelize, catalogues: deps.catalogues, now, onPatientHistoryChanged: historyChanged }),
    variablesRouter(deps.sequelize, now),
    caregiversRouter({ sequelize: deps.sequelize, catalogues: deps.catalogues, now }),
    residentsRouter(createResidentsAdapter()),
  );
  // Issue 5's administration area: users, inventory, encounters.
  const administrationDeps = { sequelize: deps.sequelize, catalogues: deps.catalogues, now, clientTimeZone };
  v1.use(
    usersRouter({ ...administrationDeps, endStaffSessions }),
    inventoryRouter({
      ...administrationDeps,
      listStockApplications: (clientId, stockId, p, f) => listStockApplications(administrationDeps, clientId, stockId, p, f),
    }),
    encountersRouter({
      ...administrationDeps,
      recordRda: (input, t) => recordRda(rdaDeps, input, t),
      latestRda: (clientId, encounterId, t) => latestEncounterRda(rdaDeps, clientId, encounterId, t),
    }),
  );
  v1.use(messaging.router);
  v1.use(alarmsRouter(deps.sequelize, now, { unlinkAlarm }), alertsRouter({ sequelize: deps.sequelize, catalogues: deps.catalogues, now }));
  // The alerts manager's kept totals: the appended rows folded every five minutes (P199).
  registerAlertCountJobs({ sequelize: deps.sequelize, jobs: deps.jobs });
  // The keys of the writes a phone may send twice (issue 50) are forgotten after a day.
  registerIdempotencyJobs({ jobs: deps.jobs });
  // Issue 20: the care team hears of alerts by e-mail and WhatsApp (digests, escalation), all through the job queue.
  registerNotificationJobs({
    sequelize: deps.sequelize,
    jobs: deps.jobs,
    now,
    log,
    channels: instrumentChannels(
      notificationChannels({
        whatsapp: messaging.deps.channel,
        email: deps.email ?? createEmailSender({ sequelize: deps.sequelize, config: loadEmailConfig(), now }),
        conversationOpen: conversationOpen(deps.sequelize, now),
      }),
    ),
    baseUrl: process.env.PUBLIC_URL || null,
  });
  v1.use(notificationsRouter({ sequelize: deps.sequelize, now }));
  // 'Priorización' and the programme indicators (issue 21): kept by jobs, read by the list and the card.
  registerTriageJobs({ sequelize: deps.sequelize, jobs: deps.jobs });
  v1.use(triageRouter({ sequelize: deps.sequelize }));
  registerIndicatorJobs({ sequelize: deps.sequelize, jobs: deps.jobs });
  v1.use(indicatorsRouter({ sequelize: deps.sequelize, now, clientTimeZone }));
  // Issue 39: the installation's own daily backup into BACKUP_DIR (docs/operations.md).
  if (deps.dataDir) registerBackupJob({ jobs: deps.jobs, dataDir: deps.dataDir, log, logger: deps.observability?.logger });
  api.use('/api/v1', v1);
  api.use('/api', notFoundRoute);
  api.use(createContractErrorTranslator(doc));
  app.use(api);

  if (deps.serveFrontEnds !== false) app.use(frontEndsRouter(ROOT_DIR));
  app.use(createErrorHandler(log));
  return app;
}
