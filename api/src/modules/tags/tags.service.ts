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
