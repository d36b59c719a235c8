import { insertReturningId } from '../../api/src/db/sql';
import { runMeasurementHooks, type StoredMeasurement } from '../../api/src/modules/measurements/hooks';
import type { TestProduct } from './product';

/**
 * Stores readings the way the ingestion service does (rows plus every measurement hook in one
 * transaction), so alarm tests do not depend on one particular ingestion endpoint.
 */
export async function storeReadings(
  t: TestProduct,
  target: { clientId: number; patientId: number },
  readings: Array<{ clinical_element: number; value: number; when: Date }>,
  now = new Date(),
): Promise<number[]> {
  return t.sequelize.transaction(async (transaction) => {
    const stored: StoredMeasurement[] = [];
    for (const r of readings) {
      const id = await insertReturningId(
        t.sequelize,
        `INSERT INTO measurements (client_id, patient_id, clinical_element, value, "when", status, eraseble, source, created_at)
         VALUES (:client, :patient, :element, :value, :when, 0, :yes, 'device', :now) RETURNING id`,
        { client: target.clientId, patient: target.patientId, element: r.clinical_element, value: r.value, when: r.when, yes: true, now },
        transaction,
      );
      stored.push({
        id,
        client_id: target.clientId,
        patient_id: target.patientId,
        clinical_element: r.clinical_element,
        value: r.value,
        when: r.when,
        source: 'device',
        created_at: now,
        sentAs: readings.length > 1 ? 'batch' : 'single',
      });
    }
    await runMeasurementHooks({ sequelize: t.sequelize, transaction, now, jobs: t.jobs }, stored);
    return stored.map((s) => s.id);
  });
}
