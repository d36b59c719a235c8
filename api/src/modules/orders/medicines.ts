import { readFileSync } from 'node:fs';
import { rootPath } from '../../paths.js';
import type { Sequelize, Transaction } from 'sequelize';
import { select } from '../../db/sql.js';
import { notFound } from '../../http/errors.js';
import type { ListParams } from '../../http/list-params.js';
import { toSearchKey } from '@vigia/contract/rules/names';

export interface Medicine {
  id: number;
  name: string;
  presentation: string;
}

const FILE = rootPath('seeds/catalogues/medicines.json');
const loaded = new WeakMap<Sequelize, Promise<void>>();

/** The medicines catalogue (seeds/catalogues/medicines.json), upserted by id once per process: idempotent. */
export function ensureMedicines(sequelize: Sequelize): Promise<void> {
  let p = loaded.get(sequelize);
  if (!p) {
    p = upsertMedicines(sequelize);
    p.catch(() => loaded.delete(sequelize));
    loaded.set(sequelize, p);
  }
  return p;
}

/** Upserts the catalogue file by id (a no-op when the table already holds every item). */
export async function upsertMedicines(sequelize: Sequelize, transaction?: Transaction): Promise<void> {
  const items = (JSON.parse(readFileSync(FILE, 'utf8')) as { items: Medicine[] }).items;
  const [{ n }] = await select<{ n: number }>(sequelize, 'SELECT COUNT(*) AS n FROM medicines', {}, transaction);
  if (Number(n) === items.length) return;
  for (const m of items) {
    await sequelize.query(
      `INSERT INTO medicines (id, name, presentation, search_name) VALUES (:id, :name, :presentation, :search)
       ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, presentation = EXCLUDED.presentation, search_name = EXCLUDED.search_name`,
      { replacements: { ...m, search: toSearchKey(`${m.name} ${m.presentation}`) }, transaction },
    );
  }
}

/** What the order screens show: 'Losartán Tableta 50 mg'. */
export const medicineLabel = (m: Pick<Medicine, 'name' | 'presentation'>) => `${m.name} ${m.presentation}`;

export async function listMedicines(sequelize: Sequelize, p: ListParams): Promise<{ rows: Medicine[]; total: number }> {
  await ensureMedicines(sequelize);
  const where = p.q ? 'WHERE search_name LIKE :q' : '';
  const q = p.q ? `%${toSearchKey(p.q).replace(/[%_]/g, '')}%` : null;
  const rows = await select<Medicine>(
    sequelize,
    `SELECT id, name, presentation FROM medicines ${where} ORDER BY name, presentation LIMIT :limit OFFSET :offset`,
    { q, limit: p.limit, offset: p.offset },
  );
  const [{ n }] = await select<{ n: number }>(sequelize, `SELECT COUNT(*) AS n FROM medicines ${where}`, { q });
  return { rows, total: Number(n) };
}

export async function getMedicine(sequelize: Sequelize, id: number): Promise<Medicine> {
  await ensureMedicines(sequelize);
  const [m] = await select<Medicine>(sequelize, 'SELECT id, name, presentation FROM medicines WHERE id = :id', { id });
  if (!m) throw notFound('El medicamento no existe.');
  return m;
}
