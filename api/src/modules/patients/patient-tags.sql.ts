import type { Sequelize, Transaction } from 'sequelize';
import { select } from '../../db/sql.js';
import type { components } from '@vigia/contract/openapi';

type TagRef = components['schemas']['TagRef'];

/** The tags of each of `patientIds`, by name: for lists that show a patient's tags (patients, triage). */
export async function tagsOf(sequelize: Sequelize, patientIds: number[]): Promise<Map<number, TagRef[]>> {
  const map = new Map<number, TagRef[]>();
  if (!patientIds.length) return map;
  const rows = await select<{ patient_id: number; id: number; name: string; color: TagRef['color'] }>(
    sequelize,
    'SELECT pt.patient_id, t.id, t.name, t.color FROM patient_tags pt JOIN tags t ON t.id = pt.tag_id WHERE pt.patient_id IN (:ids) ORDER BY t.name',
    { ids: patientIds },
  );
  for (const r of rows) {
    const list = map.get(Number(r.patient_id)) ?? [];
    list.push({ id: Number(r.id), name: r.name, color: r.color });
    map.set(Number(r.patient_id), list);
  }
  return map;
}

/** A deleted tag leaves every patient; the tags module asks for it in its delete's transaction (composition root). */
export async function untagAll(sequelize: Sequelize, tagId: number, transaction?: Transaction): Promise<void> {
  await sequelize.query('DELETE FROM patient_tags WHERE tag_id = :tagId', { replacements: { tagId }, transaction });
}
