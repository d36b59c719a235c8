import { execute } from '../../api/src/db/sql';
import { bearer, patientBody, type Org, type TestProduct } from './product';
import { storeReadings } from './readings';

/**
 * What the Bulk export tests (issue 37, 49) start from: their settings for one test file, patients
 * with readings, and a tag (a Group) holding some of them.
 */

const EXPORT_ENV = { files: 'FHIR_EXPORT_FILE_RESOURCES', splitAt: 'FHIR_EXPORT_SPLIT_AT' } as const;

/** Sets the export's settings before the product starts; answers what puts the previous values back. */
export function setExportEnv(values: Record<keyof typeof EXPORT_ENV, string>): () => void {
  const saved = Object.values(EXPORT_ENV).map((name) => [name, process.env[name]] as const);
  for (const [key, name] of Object.entries(EXPORT_ENV)) process.env[name] = values[key as keyof typeof EXPORT_ENV];
  return () => {
    for (const [name, value] of saved)
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
  };
}

/** `n` patients of the organisation, each with three heart rates (1 to 3 November 2026); answers their ids. */
export async function addPatientsWithReadings(t: TestProduct, org: Org, n: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await t.http
      .post('/api/v1/patients')
      .set(bearer(org.tokens.admin))
      .send(patientBody({ first_name: `paciente ${'abcde'[i]}`, last_name: 'exportado', birth_date: `19${50 + i}-02-0${i + 1}` }));
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
    ids.push(res.body.id as number);
    await storeReadings(
      t,
      { clientId: org.clientId, patientId: res.body.id },
      [1, 2, 3].map((d) => ({ clinical_element: 1, value: 60 + d + i, when: new Date(Date.UTC(2026, 10, d, 8)) })),
      new Date('2026-11-20T00:00:00Z'),
    );
  }
  return ids;
}

/** A tag of the organisation (Group g<id>) holding these patients; answers its id. */
export async function addCohort(t: TestProduct, org: Org, name: string, patientIds: number[]): Promise<number> {
  const tag = await t.http.post('/api/v1/tags').set(bearer(org.tokens.admin)).send({ name, color: 'blue' });
  if (tag.status !== 201) throw new Error(JSON.stringify(tag.body));
  for (const patientId of patientIds)
    await execute(t.sequelize, 'INSERT INTO patient_tags (patient_id, tag_id) VALUES (:patientId, :tagId)', {
      patientId,
      tagId: tag.body.id,
    });
  return tag.body.id as number;
}
