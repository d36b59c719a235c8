import type { Sequelize, Transaction } from 'sequelize';
import { select } from '../../db/sql.js';
import { conflict } from '../../http/errors.js';
import { sortOrder } from '../../http/list-params.js';
import { Tag } from '../../db/models/tags.model.js';
import { defineResource } from '../../resources/resource.js';
import { normaliseName } from '@vigia/contract/rules/validation';
import type { components } from '@vigia/contract/openapi';

type S = components['schemas'];

export interface TagDeps {
  /** Each tag's current AI instruction; the prompts module answers it (composition root). */
  currentTagPrompts(sequelize: Sequelize, clientId: number, tagIds: number[]): Promise<Map<number, { text: string; status: number }>>;
  /** A deleted tag's links to patients and its AI instructions: the patients and prompts modules remove them. */
  untagAll(sequelize: Sequelize, tagId: number, transaction?: Transaction): Promise<void>;
  deleteTagPrompts(sequelize: Sequelize, clientId: number, tagId: number, transaction?: Transaction): Promise<void>;
}

async function countPatients(sequelize: Sequelize, tagIds: number[]): Promise<Map<number, number>> {
  if (!tagIds.length) return new Map();
  const rows = await select<{ tag_id: number; n: number }>(
    sequelize,
    'SELECT tag_id, COUNT(*) AS n FROM patient_tags WHERE tag_id IN (:ids) GROUP BY tag_id',
    { ids: tagIds },
  );
  return new Map(rows.map((r) => [Number(r.tag_id), Number(r.n)]));
}

async function assertNameFree(clientId: number, name: string, exceptId?: number) {
  const existing = await Tag.findOne({ where: { client_id: clientId, name } });
  if (existing && existing.id !== exceptId) throw conflict('Ya existe una etiqueta con ese nombre.', 'name');
}

/** Tags (issue 5): a name unique in the organisation, in capitals; a tag's patients and AI instruction go with it. */
export const tagsResource = (deps: TagDeps) =>
  defineResource<Tag, S['Tag'], S['TagInput'], S['TagUpdate']>({
    name: 'tags',
    model: Tag,
    tenant: 'client_id',
    access: { write: 'administer' },
    operations: { list: 'listTags', get: 'getTag', create: 'createTag', update: 'updateTag', patch: 'patchTag', remove: 'deleteTag' },
    fields: {
      id: { column: 'id', kind: 'integer', sort: true },
      name: { column: 'name', kind: 'text', sort: true },
      color: { column: 'color', kind: 'enum', sort: true },
      created_at: { column: 'created_at', kind: 'datetime', sort: true },
    },
    defaultLimit: 10,
    search: { columns: ['name'], fold: 'upper' },
    notFound: 'La etiqueta no existe.',
    order: (p) => sortOrder(p, [['name', p.order]], ['id', 'ASC']),

    async present(tags, ctx) {
      const ids = tags.map((t) => t.id);
      const counts = await countPatients(ctx.sequelize, ids);
      const prompts = await deps.currentTagPrompts(ctx.sequelize, ctx.clientId, ids);
      return tags.map((t) => ({
        id: t.id,
        name: t.name,
        color: t.color as S['Tag']['color'],
        active_prompt: prompts.get(t.id) ?? null,
        patients_count: counts.get(t.id) ?? 0,
        created_at: new Date(t.created_at).toISOString(),
      }));
    },
    async create(input, ctx) {
      const name = normaliseName(input.name);
      await assertNameFree(ctx.clientId, name);
      return Tag.create({ client_id: ctx.clientId, name, color: input.color });
    },
    async update(tag, input, ctx) {
      if (input.name != null) {
        const name = normaliseName(input.name);
        await assertNameFree(ctx.clientId, name, tag.id);
        tag.name = name;
      }
      if (input.color != null) tag.color = input.color;
      await tag.save();
    },
    async remove(tag, ctx, transaction) {
      await deps.untagAll(ctx.sequelize, tag.id, transaction);
      await deps.deleteTagPrompts(ctx.sequelize, ctx.clientId, tag.id, transaction);
    },
  });
