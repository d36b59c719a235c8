import type { Sequelize } from 'sequelize';
import type { Catalogues } from './modules/catalogues/catalogues.service.js';
import type { StatementWriterDeps } from './modules/rdas/rdas.statement.js';
import { loadStatementRecords, patientStatementInput, statedHistoryOf, statementGaps } from './modules/encounters/encounters.rda-inputs.js';
import { listAllergies } from './modules/allergies/allergies.service.js';
import { listFamilyHistory } from './modules/family_history/family-history.service.js';
import { patientDocument } from './modules/fhir/rda.statement.js';
import { documentUuids } from './modules/fhir/rda.profiles.js';
import { rdaComplete } from '@vigia/contract/rules/rda';

/**
 * The patient's statement (RDA de paciente) as the rows stand, composed from the modules that hold
 * each part: the records and their gaps (encounters' RDA inputs), the allergies and family history
 * (their own modules) and the builder (fhir). One composition for the statement job (app.ts) and
 * the demo's first documents (seed-deps.ts), so both write the same document.
 */
export function patientStatementBuilder(deps: { sequelize: Sequelize; catalogues: Catalogues; now: () => Date }) {
  const inputs = { sequelize: deps.sequelize, catalogues: deps.catalogues };
  const build: StatementWriterDeps['buildStatement'] = async (ids) => {
    const records = await loadStatementRecords(ids);
    if (!records) return null;
    const gaps = statementGaps(inputs, records);
    if (!rdaComplete(gaps)) return { gaps, bundle: null };
    const [allergies, family] = await Promise.all([
      listAllergies(inputs, ids.clientId, ids.patientId),
      listFamilyHistory(inputs, ids.clientId, ids.patientId),
    ]);
    const now = deps.now();
    const period = { start: new Date(records.patient.created_at), end: now };
    const input = await patientStatementInput(inputs, records, period, statedHistoryOf(inputs, allergies, family));
    return { gaps, bundle: patientDocument(input, { now, uuid: documentUuids() }) };
  };
  return build;
}
