import { Umzug, SequelizeStorage } from 'umzug';
import type { Sequelize, QueryInterface } from 'sequelize';
import * as m0001 from './migrations/0001-foundation.js';
import * as m0002 from './migrations/0002-patient-search-terms.js';
import * as m0003 from './migrations/0003-jobs.js';
import * as m0004 from './migrations/0004-measurements.js';
import * as m0005 from './migrations/0005-patient-record.js';
import * as m0006 from './migrations/0006-orders-activities.js';
import * as m0007 from './migrations/0007-alarms-alerts.js';
import * as m0008 from './migrations/0008-administration.js';
import * as m0009 from './migrations/0009-webhooks.js';
import * as m0010 from './migrations/0010-messaging.js';
import * as m0011 from './migrations/0011-patient-status-changes.js';
import * as m0012 from './migrations/0012-audit.js';
import * as m0013 from './migrations/0013-activities-by-client-day.js';
import * as m0014 from './migrations/0014-patients-by-client-id.js';
import * as m0015 from './migrations/0015-alerts-covering-filters.js';
import * as m0016 from './migrations/0016-alerts-priority-element.js';
import * as m0017 from './migrations/0017-alert-status-counts.js';
import * as m0018 from './migrations/0018-devices-card-per-client.js';
import * as m0019 from './migrations/0019-notifications.js';
import * as m0020 from './migrations/0020-triage-summaries.js';
import * as m0021 from './migrations/0021-alert-filter-counts.js';
import * as m0022 from './migrations/0022-drop-alert-status-counts.js';
import * as m0023 from './migrations/0023-triage-mark-readings.js';
import * as m0024 from './migrations/0024-notification-privacy.js';
import * as m0025 from './migrations/0025-triage-summaries-due.js';
import * as m0027 from './migrations/0027-password-resets-sessions.js';
import * as m0028 from './migrations/0028-second-factors.js';
import * as m0029 from './migrations/0029-api-clients.js';
import * as m0030 from './migrations/0030-fhir-exports.js';
import * as m0031 from './migrations/0031-fhir-keyset-indexes.js';

interface Migration {
  up(params: { context: QueryInterface }): Promise<void>;
  down(params: { context: QueryInterface }): Promise<void>;
}

/** Listed explicitly so the order is reviewable and bundling never misses a file. */
export const MIGRATIONS: Array<[string, Migration]> = [
  ['0001-foundation', m0001],
  ['0002-patient-search-terms', m0002],
  ['0003-jobs', m0003],
  ['0004-measurements', m0004],
  ['0005-patient-record', m0005],
  ['0006-orders-activities', m0006],
  ['0007-alarms-alerts', m0007],
  ['0008-administration', m0008],
  ['0009-webhooks', m0009],
  ['0010-messaging', m0010],
  ['0011-patient-status-changes', m0011],
  ['0012-audit', m0012],
  ['0013-activities-by-client-day', m0013],
  ['0014-patients-by-client-id', m0014],
  ['0015-alerts-covering-filters', m0015],
  ['0016-alerts-priority-element', m0016],
  ['0017-alert-status-counts', m0017],
  ['0018-devices-card-per-client', m0018],
  ['0019-notifications', m0019],
  ['0020-triage-summaries', m0020],
  ['0021-alert-filter-counts', m0021],
  ['0022-drop-alert-status-counts', m0022],
  ['0023-triage-mark-readings', m0023],
  ['0024-notification-privacy', m0024],
  ['0025-triage-summaries-due', m0025],
  ['0027-password-resets-sessions', m0027],
  ['0028-second-factors', m0028],
  ['0029-api-clients', m0029],
  ['0030-fhir-exports', m0030],
  ['0031-fhir-keyset-indexes', m0031],
];

function createMigrator(sequelize: Sequelize) {
  return new Umzug({
    migrations: MIGRATIONS.map(([name, m]) => ({ name, up: m.up, down: m.down })),
    context: sequelize.getQueryInterface(),
    storage: new SequelizeStorage({ sequelize, tableName: 'schema_migrations' }),
    logger: undefined,
  });
}

/** Applies the pending migrations; answers how many ran. */
export async function migrate(sequelize: Sequelize): Promise<number> {
  return (await createMigrator(sequelize).up()).length;
}

/** The migrations this code has that the database has not run (the readiness check's). */
export async function pendingMigrations(sequelize: Sequelize): Promise<string[]> {
  return (await createMigrator(sequelize).pending()).map((m) => m.name);
}
