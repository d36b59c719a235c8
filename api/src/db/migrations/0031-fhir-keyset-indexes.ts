import type { QueryInterface } from 'sequelize';

/**
 * Keyset indexes for the FHIR API's searches by id within an organisation (issue 37), which the Bulk
 * export walks to the end: without them each page of alerts, conditions, caregivers or orders read
 * the organisation's rows through another index and sorted them (SQLite: a temporary B-tree per
 * page) or, on PostgreSQL, walked the primary key past other organisations' rows.
 */
const INDEXES: Array<[string, string[], string]> = [
  ['alerts', ['client_id', 'id'], 'alerts_client_id_keyset'],
  ['patient_conditions', ['client_id', 'id'], 'patient_conditions_client_id_keyset'],
  ['orders', ['client_id', 'id'], 'orders_client_id_keyset'],
  ['patient_caregivers', ['client_id', 'patient_id', 'caregiver_id'], 'patient_caregivers_client_keyset'],
];

export async function up({ context: qi }: { context: QueryInterface }) {
  for (const [table, fields, name] of INDEXES) await qi.addIndex(table, fields, { name });
}

export async function down({ context: qi }: { context: QueryInterface }) {
  for (const [table, , name] of INDEXES) await qi.removeIndex(table, name);
}
