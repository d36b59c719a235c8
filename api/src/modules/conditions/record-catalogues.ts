import { readFileSync } from 'node:fs';
import { rootPath } from '../../paths.js';
import type { Sequelize, Transaction } from 'sequelize';
import { toSearchKey } from '@vigia/contract/rules/names';

/**
 * The patient record's two reference lists, committed under seeds/catalogues/: condition types
 * (ICD-10, with the high-priority flag) and clinical variables (LOINC). Upserted by id at every
 * start, so editing a file updates the database and ids never change.
 */
interface ConditionTypeItem {
  id: number;
  name: string;
  icd10: string | null;
  priority: number;
  position: number;
}
interface ClinicalVariableItem {
  id: number;
  name: string;
  loinc_code: string | null;
  type: 'numeric' | 'text';
  unit: string | null;
  position: number;
}

function readItems<T>(name: string): T[] {
  const file = rootPath('seeds/catalogues', `${name}.json`);
  return (JSON.parse(readFileSync(file, 'utf8')) as { items: T[] }).items;
}

async function upsert(sequelize: Sequelize, table: string, rows: Record<string, unknown>[], transaction?: Transaction) {
  const columns = Object.keys(rows[0]).filter((c) => c !== 'id');
  await sequelize.getQueryInterface().bulkInsert(table, rows, { updateOnDuplicate: columns, upsertKeys: ['id'], transaction } as object);
}

export async function syncRecordCatalogues(sequelize: Sequelize, transaction?: Transaction): Promise<void> {
  const conditions = readItems<ConditionTypeItem>('condition_types').map((c) => ({ ...c, search_name: toSearchKey(c.name) }));
  await upsert(sequelize, 'condition_types', conditions, transaction);
  await upsert(
    sequelize,
    'clinical_variables',
    readItems<ClinicalVariableItem>('clinical_variables') as unknown as Record<string, unknown>[],
    transaction,
  );
}

const ready = new WeakMap<Sequelize, Promise<void>>();
/** Started when the app is built; every reader of the two lists awaits it (once per database). */
export function recordCataloguesReady(sequelize: Sequelize): Promise<void> {
  let p = ready.get(sequelize);
  if (!p) {
    p = syncRecordCatalogues(sequelize);
    ready.set(sequelize, p);
  }
  return p;
}
