import { QueryTypes, type QueryInterface, type Transaction } from 'sequelize';
import type { SeedDeps } from '../api/src/seed-deps.js';
import { buildDemoHistory } from './demo.rules.js';
import { createRng } from './random.js';

/**
 * Demo content of the patient record tabs: AI instructions (client, tags, one patient), notes,
 * conditions matching each patient's tags, the allergies and family history the patient states (the
 * RDA de paciente's, issue 51), clinical variables with a year of values, and a caregiver for the
 * portal patient. Deterministic: the same database gets the same rows.
 */

/** Tag → condition type id of seeds/catalogues/condition_types.json (priority list). */
const CONDITION_OF_TAG: Record<string, number> = {
  HIPERTENSIÓN: 1,
  DIABETES: 2,
  EPOC: 4,
  'INSUFICIENCIA CARDÍACA': 5,
  'ENFERMEDAD RENAL CRÓNICA': 6,
  ASMA: 10,
  OBESIDAD: 14,
};
const TAG_PROMPTS: Record<string, string> = {
  DIABETES:
    'Pregunte por la glucometría en ayunas y recuerde la importancia de revisar los pies a diario. Si la glucosa supera 250 mg/dL, sugiera contactar al equipo de salud.',
  EPOC: 'Pregunte por la tos, la expectoración y la falta de aire al caminar. Recuerde el uso correcto del inhalador.',
};
const CLIENT_PROMPT =
  'Eres Glady, asistente de seguimiento de la clínica. Habla en español, con frases cortas y trato de usted. No des diagnósticos ni cambies tratamientos: ante síntomas de alarma (dolor en el pecho, dificultad para respirar, confusión) indica llamar a la línea de emergencias.';
const NOTES: Array<[number, string, number]> = [
  [2, 'Ingreso al programa de monitoreo remoto. Se entrega tensiómetro y se explica su uso al paciente y a su cuidadora.', 40],
  [0, 'Llamada de seguimiento: refiere buena adherencia a la medicación. Sin signos de alarma.', 12],
  [1, 'Control médico: cifras tensionales en metas. Se mantiene el tratamiento actual y control en un mes.', 3],
];
const HBA1C = [8.1, 7.6, 7.2, 6.9];

const DAY = 86_400_000;

export async function seedDemoRecord(deps: SeedDeps, qi: QueryInterface, opts: { now: Date; transaction: Transaction }): Promise<void> {
  const { now, transaction } = opts;
  const sequelize = qi.sequelize;
  await deps.syncRecordCatalogues(sequelize, transaction);
  const rows = <T extends object>(sql: string, replacements: Record<string, unknown> = {}) =>
    sequelize.query<T>(sql, { type: QueryTypes.SELECT, replacements, transaction });
  const stamps = { created_at: now, updated_at: now };
  const clients = await rows<{ id: number }>('SELECT id FROM clients ORDER BY id');
  for (const { id: clientId } of clients) {
    const [author] = await rows<{ id: number; first_name: string; last_name: string }>(
      "SELECT id, first_name, last_name FROM users WHERE client_id = :clientId ORDER BY CASE role_name WHEN 'enfermeria' THEN 0 ELSE 1 END, id LIMIT 1",
      { clientId },
    );
    const patients = await rows<{ id: number; cellphone: string | null }>(
      'SELECT id, cellphone FROM patients WHERE client_id = :clientId ORDER BY id LIMIT 12',
      { clientId },
    );
    const tags = await rows<{ patient_id: number; tag_id: number; name: string }>(
      'SELECT pt.patient_id, pt.tag_id, t.name FROM patient_tags pt JOIN tags t ON t.id = pt.tag_id WHERE t.client_id = :clientId',
      { clientId },
    );
    const prompts: object[] = [
      {
        client_id: clientId,
        owner_type: 'client',
        owner_id: clientId,
        text: 'Salude al paciente por su nombre.',
        status: 0,
        created_by: null,
        ...stamps,
      },
      { client_id: clientId, owner_type: 'client', owner_id: clientId, text: CLIENT_PROMPT, status: 1, created_by: null, ...stamps },
    ];
    const tagIds = new Map(tags.map((t) => [t.name, t.tag_id]));
    for (const [name, text] of Object.entries(TAG_PROMPTS)) {
      const tagId = tagIds.get(name);
      if (tagId !== undefined)
        prompts.push({ client_id: clientId, owner_type: 'tag', owner_id: tagId, text, status: 1, created_by: null, ...stamps });
    }
    if (patients[0]) {
      prompts.push({
        client_id: clientId,
        owner_type: 'patient',
        owner_id: patients[0].id,
        text: 'Vive sola; su hija la visita los fines de semana. Prefiere que le escriban en la mañana.',
        status: 1,
        created_by: author?.id ?? null,
        ...stamps,
      });
    }
    await qi.bulkInsert('prompts', prompts, { transaction });

    const notes: object[] = [];
    const conditions: object[] = [];
    const values: object[] = [];
    patients.forEach((p, index) => {
      for (const [type, text, daysAgo] of NOTES.slice(0, 1 + (index % 3))) {
        notes.push({
          client_id: clientId,
          patient_id: p.id,
          observation_type: type,
          value_text: text,
          user_id: author?.id ?? null,
          user_name: author ? `${author.first_name} ${author.last_name}` : null,
          observed_at: new Date(now.getTime() - daysAgo * DAY),
          erasable: true,
          created_at: now,
        });
      }
      const own = new Set(
        tags
          .filter((t) => t.patient_id === p.id)
          .map((t) => CONDITION_OF_TAG[t.name])
          .filter(Boolean),
      );
      for (const typeId of own) {
        conditions.push({
          client_id: clientId,
          patient_id: p.id,
          condition_type_id: typeId,
          notes: null,
          active: true,
          start_date: new Date(now.getTime() - 400 * DAY),
          end_date: null,
          ...stamps,
        });
      }
      if (index % 2 === 0) {
        HBA1C.forEach((v, i) =>
          values.push({
            client_id: clientId,
            patient_id: p.id,
            clinical_variable_id: 1,
            observed_at: new Date(now.getTime() - (330 - i * 100) * DAY),
            value_number: v,
            value_text: null,
            created_by: author?.id ?? null,
            created_at: now,
          }),
        );
        values.push({
          client_id: clientId,
          patient_id: p.id,
          clinical_variable_id: 17,
          observed_at: new Date(now.getTime() - 200 * DAY),
          value_number: null,
          value_text: 'Exfumador desde 2019',
          created_by: author?.id ?? null,
          created_at: now,
        });
      }
    });
    if (notes.length) await qi.bulkInsert('observations', notes, { transaction });
    if (conditions.length) await qi.bulkInsert('patient_conditions', conditions, { transaction });
    await insertDemoHistory(qi, { clientId, patientIds: patients.map((p) => p.id), authorId: author?.id ?? null, now, transaction });
    if (values.length) await qi.bulkInsert('clinical_observations', values, { transaction });

    if (patients[0]) {
      await qi.bulkInsert(
        'caregivers',
        [
          {
            client_id: clientId,
            id_type: 1,
            nid: `52${String(clientId).padStart(6, '0')}`,
            first_name: 'LUZ DARY',
            last_name: 'GÓMEZ RUIZ',
            country_id: 26,
            email: 'luz.gomez@example.co',
            prefix: '+57',
            cellphone: '3157654321',
            notification: true,
            ...stamps,
          },
        ],
        { transaction },
      );
      const [caregiver] = await rows<{ id: number }>('SELECT id FROM caregivers WHERE client_id = :clientId ORDER BY id DESC LIMIT 1', {
        clientId,
      });
      await qi.bulkInsert(
        'patient_caregivers',
        [{ patient_id: patients[0].id, caregiver_id: caregiver.id, client_id: clientId, relationship: 'HIJO(A)', created_at: now }],
        { transaction },
      );
    }
  }
}

/** The stated history of the client's first patients, drawn from one generator per client (same rows every run). */
async function insertDemoHistory(
  qi: QueryInterface,
  o: { clientId: number; patientIds: number[]; authorId: number | null; now: Date; transaction: Transaction },
): Promise<void> {
  const rng = createRng(1888 + o.clientId);
  const base = { client_id: o.clientId, created_by: o.authorId, created_at: o.now, updated_at: o.now };
  const allergies: object[] = [];
  const family: object[] = [];
  for (const patientId of o.patientIds) {
    const history = buildDemoHistory(rng);
    for (const a of history.allergies) allergies.push({ ...base, patient_id: patientId, ...a });
    for (const f of history.familyHistory) family.push({ ...base, patient_id: patientId, ...f });
  }
  if (allergies.length) await qi.bulkInsert('patient_allergies', allergies, { transaction: o.transaction });
  if (family.length) await qi.bulkInsert('patient_family_history', family, { transaction: o.transaction });
}
