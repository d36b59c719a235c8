import { Op, type Sequelize, type WhereOptions } from 'sequelize';
import { select } from '../../db/sql.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import { filterWhere, sortOrder, type ListFields, type ListParams } from '../../http/list-params.js';
import { Tag } from '../../db/models/tags.model.js';
import { likeSafe } from '../catalogues/catalogues.service.js';
import { normaliseName } from '@vigia/contract/rules/validation';
import type { components } from '@vigia/contract/openapi';

type TagDto = components['schemas']['Tag'];
type TagInput = components['schemas']['TagInput'];
type TagUpdate = components['schemas']['TagUpdate'];

export interface TagDeps {
  sequelize: Sequelize;
  /** Each tag's current AI instruction; the prompts module answers it (composition root). */
  currentTagPrompts(sequelize: Sequelize, clientId: number, tagIds: number[]): Promise<Map<number, { text: string; status: number }>>;
}

/** What GET /tags sorts and filters by (openapi.yaml listTags declares the same). */
export const TAG_FIELDS: ListFields = {
  id: { column: 'id', kind: 'integer', sort: true },
  name: { column: 'name', kind: 'text', sort: true },
  color: { column: 'color', kind: 'enum', sort: true },
  created_at: { column: 'created_at', kind: 'datetime', sort: true },
};

/** The one place a tags row becomes the contract's Tag. */
function toTagDto(tag: Tag, patientsCount: number, prompt: TagDto['active_prompt'] = null): TagDto {
  return {
    id: tag.id,
    name: tag.name,
    color: tag.color as TagDto['color'],
    active_prompt: prompt,
    patients_count: patientsCount,
    created_at: new Date(tag.created_at).toISOString(),
  };
}

async function countPatients(sequelize: Sequelize, tagIds: number[]): Promise<Map<number, number>> {
  if (!tagIds.length) return new Map();
  const rows = await select<{ tag_id: number; n: number }>(
    sequelize,
    'SELECT tag_id, COUNT(*) AS n FROM patient_tags WHERE tag_id IN (:ids) GROUP BY tag_id',
    {
      ids: tagIds,
    },
  );
  return new Map(rows.map((r) => [Number(r.tag_id), Number(r.n)]));
}

export async function listTags(deps: TagDeps, clientId: number, p: ListParams) {
  const where: WhereOptions<Tag> = { client_id: clientId, [Op.and]: filterWhere(p.filters) };
  if (p.q) Object.assign(where, { name: { [Op.like]: `%${likeSafe(p.q.toUpperCase())}%` } });
  const { rows, count } = await Tag.findAndCountAll({
    where,
    order: sortOrder(p, [['name', p.order]], ['id', 'ASC']),
    offset: p.offset,
    limit: p.limit,
  });
  const counts = await countPatients(
    deps.sequelize,
    rows.map((t) => t.id),
  );
  const prompts = await deps.currentTagPrompts(
    deps.sequelize,
    clientId,
    rows.map((t) => t.id),
  );
  return { rows: rows.map((t) => toTagDto(t, counts.get(t.id) ?? 0, prompts.get(t.id) ?? null)), total: count };
}

export async function findTag(clientId: number, id: number): Promise<Tag> {
  const tag = await Tag.findOne({ where: { id, client_id: clientId } });
  if (!tag) throw notFound('La etiqueta no existe.');
  return tag;
}

export async function getTag(deps: TagDeps, clientId: number, id: number): Promise<TagDto> {
  const tag = await findTag(clientId, id);
  const prompt = (await deps.currentTagPrompts(deps.sequelize, clientId, [id])).get(id) ?? null;
  return toTagDto(tag, (await countPatients(deps.sequelize, [id])).get(id) ?? 0, prompt);
}

async function assertNameFree(clientId: number, name: string, exceptId?: number) {
  const existing = await Tag.findOne({ where: { client_id: clientId, name } });
  if (existing && existing.id !== exceptId) throw conflict('Ya existe una etiqueta con ese nombre.', 'name');
}

export async function createTag(clientId: number, input: TagInput): Promise<TagDto> {
  const name = normaliseName(input.name);
  await assertNameFree(clientId, name);
  const tag = await Tag.create({ client_id: clientId, name, color: input.color });
  return toTagDto(tag, 0);
}

export async function updateTag(deps: TagDeps, clientId: number, id: number, input: TagUpdate): Promise<TagDto> {
  const tag = await findTag(clientId, id);
  if (input.name != null) {
    const name = normaliseName(input.name);
    await assertNameFree(clientId, name, id);
    tag.name = name;
  }
  if (input.color != null) tag.color = input.color;
  await tag.save();
  return getTag(deps, clientId, id);
}

export async function deleteTag(sequelize: Sequelize, clientId: number, id: number): Promise<void> {
  const tag = await findTag(clientId, id);
  await sequelize.transaction(async (transaction) => {
    await sequelize.query('DELETE FROM patient_tags WHERE tag_id = :id', { replacements: { id }, transaction });
    await sequelize.query("DELETE FROM prompts WHERE client_id = :clientId AND owner_type = 'tag' AND owner_id = :id", {
      replacements: { id, clientId },
      transaction,
    });
    await tag.destroy({ transaction });
  });
}

/** Tag ids must all belong to the client; an unknown or foreign id is a field error, not a leak. */
export async function assertTagsOwned(clientId: number, tagIds: number[]): Promise<void> {
  if (!tagIds.length) return;
  const count = await Tag.count({ where: { client_id: clientId, id: [...new Set(tagIds)] } });
  if (count !== new Set(tagIds).size) throw badRequest('tag_ids', 'Una de las etiquetas no existe.');
}
