import type { Sequelize, Transaction } from 'sequelize';
import { execute } from '../../db/sql.js';
import { badRequest, notFound } from '../../http/errors.js';
import { Tag } from '../../db/models/tags.model.js';

/** A tag of the client, for the routes that hang under one (its AI instruction). */
export async function findTag(clientId: number, id: number): Promise<Tag> {
  const tag = await Tag.findOne({ where: { id, client_id: clientId } });
  if (!tag) throw notFound('La etiqueta no existe.');
  return tag;
}

/** Tag ids must all belong to the client; an unknown or foreign id is a field error, not a leak. */
export async function assertTagsOwned(clientId: number, tagIds: number[]): Promise<void> {
  if (!tagIds.length) return;
  const count = await Tag.count({ where: { client_id: clientId, id: [...new Set(tagIds)] } });
  if (count !== new Set(tagIds).size) throw badRequest('tag_ids', 'Una de las etiquetas no existe.');
}

/**
 * Tags whose members changed (a patient joined or left them): their updated_at moves, as a FHIR
 * Group's meta.lastUpdated is its tag's (issue 37), so `_lastUpdated` searches and an export's
 * `_since` find it. The patients module asks for it in its own transaction (composition root).
 */
export async function touchTags(
  sequelize: Sequelize,
  clientId: number,
  tagIds: number[],
  now: Date,
  transaction?: Transaction,
): Promise<void> {
  if (!tagIds.length) return;
  await execute(
    sequelize,
    'UPDATE tags SET updated_at = :now WHERE client_id = :clientId AND id IN (:tagIds)',
    { now, clientId, tagIds },
    transaction,
  );
}
