import type { Sequelize } from 'sequelize';
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
