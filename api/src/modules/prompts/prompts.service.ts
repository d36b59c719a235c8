import type { Sequelize, Transaction } from 'sequelize';
import { execute, insertReturningId, select } from '../../db/sql.js';
import { badRequest, notFound } from '../../http/errors.js';
import type { ListParams } from '../../http/list-params.js';
import { canUpdatePrompt, PROMPT_MESSAGES, PROMPT_STATUS, validatePromptText } from '@vigia/contract/rules/prompts';
import { toIso } from '../../db/raw-dates.js';
import type { components } from '@vigia/contract/openapi';

type PromptDto = components['schemas']['Prompt'];
type PromptInput = components['schemas']['PromptInput'];
type PromptUpdate = components['schemas']['PromptUpdate'];

/** Whose instruction: the client's (global), a tag's, or one patient's. One table for all three. */
export interface PromptOwner {
  type: 'client' | 'tag' | 'patient';
  id: number;
}

interface PromptRow {
  id: number;
  text: string;
  status: number;
  created_at: string | Date;
  updated_at: string | Date;
}

/** The one place a prompts row becomes the contract's Prompt. */
function toPromptDto(r: PromptRow): PromptDto {
  return {
    id: Number(r.id),
    text: r.text,
    status: Number(r.status) === PROMPT_STATUS.active ? 1 : 0,
    status_name: Number(r.status) === PROMPT_STATUS.active ? 'Activo' : 'Inactivo',
    created_at: toIso(r.created_at)!,
    updated_at: toIso(r.updated_at)!,
  };
}

const ownerWhere = 'client_id = :clientId AND owner_type = :ownerType AND owner_id = :ownerId';
const ownerParams = (clientId: number, owner: PromptOwner) => ({ clientId, ownerType: owner.type, ownerId: owner.id });

/** Newest first; the active one is always on the first page. */
export async function listPrompts(sequelize: Sequelize, clientId: number, owner: PromptOwner, p: ListParams) {
  const params = ownerParams(clientId, owner);
  const rows = await select<PromptRow>(
    sequelize,
    `SELECT id, text, status, created_at, updated_at FROM prompts WHERE ${ownerWhere} ORDER BY status DESC, id DESC LIMIT :limit OFFSET :offset`,
    { ...params, limit: p.limit, offset: p.offset },
  );
  const [{ n }] = await select<{ n: number }>(sequelize, `SELECT COUNT(*) AS n FROM prompts WHERE ${ownerWhere}`, params);
  return { rows: rows.map(toPromptDto), total: Number(n) };
}

async function findPrompt(
  sequelize: Sequelize,
  clientId: number,
  owner: PromptOwner,
  id: number,
  transaction?: Transaction,
): Promise<PromptRow> {
  const [row] = await select<PromptRow>(
    sequelize,
    `SELECT id, text, status, created_at, updated_at FROM prompts WHERE id = :id AND ${ownerWhere}`,
    { id, ...ownerParams(clientId, owner) },
    transaction,
  );
  if (!row) throw notFound('La instrucción no existe.');
  return row;
}

function checkText(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const message = validatePromptText(text);
  if (message) throw badRequest('text', message);
  return text.trim();
}

const isUniqueViolation = (err: unknown) => (err as { name?: string })?.name === 'SequelizeUniqueConstraintError';

/**
 * Runs a write that may activate an instruction. The transaction switches the owner's other
 * instructions off first; the partial unique index (one status = 1 per owner) refuses the loser
 * of two simultaneous activations, which then runs again and wins against the committed one.
 */
async function withActivation<T>(sequelize: Sequelize, work: (t: Transaction) => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await sequelize.transaction(work);
    } catch (err) {
      if (!isUniqueViolation(err) || attempt >= 4) throw err;
    }
  }
}

async function deactivateOthers(
  sequelize: Sequelize,
  clientId: number,
  owner: PromptOwner,
  keepId: number | null,
  now: Date,
  t: Transaction,
) {
  await execute(
    sequelize,
    `UPDATE prompts SET status = ${PROMPT_STATUS.inactive}, updated_at = :now WHERE ${ownerWhere} AND status = ${PROMPT_STATUS.active} AND id <> :keepId`,
    { ...ownerParams(clientId, owner), keepId: keepId ?? 0, now },
    t,
  );
}

export async function createPrompt(
  sequelize: Sequelize,
  clientId: number,
  owner: PromptOwner,
  input: PromptInput,
  userId: number,
  now: Date,
): Promise<PromptDto> {
  const text = checkText(input.text)!;
  const status = input.status ?? PROMPT_STATUS.active;
  const id = await withActivation(sequelize, async (t) => {
    if (status === PROMPT_STATUS.active) await deactivateOthers(sequelize, clientId, owner, null, now, t);
    return insertReturningId(
      sequelize,
      `INSERT INTO prompts (client_id, owner_type, owner_id, text, status, created_by, created_at, updated_at)
       VALUES (:clientId, :ownerType, :ownerId, :text, :status, :userId, :now, :now) RETURNING id`,
      { ...ownerParams(clientId, owner), text, status, userId, now },
      t,
    );
  });
  return toPromptDto(await findPrompt(sequelize, clientId, owner, id));
}

export async function updatePrompt(
  sequelize: Sequelize,
  clientId: number,
  owner: PromptOwner,
  id: number,
  input: PromptUpdate,
  now: Date,
): Promise<PromptDto> {
  const text = checkText(input.text);
  await withActivation(sequelize, async (t) => {
    const current = await findPrompt(sequelize, clientId, owner, id, t);
    if (!canUpdatePrompt(Number(current.status), input)) throw badRequest('text', PROMPT_MESSAGES.onlyActive);
    if (input.status === PROMPT_STATUS.active) await deactivateOthers(sequelize, clientId, owner, id, now, t);
    await execute(
      sequelize,
      'UPDATE prompts SET text = :text, status = :status, updated_at = :now WHERE id = :id',
      { id, text: text ?? current.text, status: input.status ?? Number(current.status), now },
      t,
    );
  });
  return toPromptDto(await findPrompt(sequelize, clientId, owner, id));
}

export async function deletePrompt(sequelize: Sequelize, clientId: number, owner: PromptOwner, id: number): Promise<void> {
  await findPrompt(sequelize, clientId, owner, id);
  await execute(sequelize, 'DELETE FROM prompts WHERE id = :id', { id });
}

/** A deleted tag's instructions go with it; the tags module asks for it in its delete's transaction (composition root). */
export async function deleteTagPrompts(sequelize: Sequelize, clientId: number, tagId: number, transaction?: Transaction): Promise<void> {
  await execute(
    sequelize,
    "DELETE FROM prompts WHERE client_id = :clientId AND owner_type = 'tag' AND owner_id = :tagId",
    { clientId, tagId },
    transaction,
  );
}

/**
 * What the tag list shows (02 §2.11): the active instruction, else the newest inactive one
 * ('Inactivo'), else nothing ('Sin instrucción').
 */
export async function currentTagPrompts(
  sequelize: Sequelize,
  clientId: number,
  tagIds: number[],
): Promise<Map<number, { text: string; status: number }>> {
  const map = new Map<number, { text: string; status: number }>();
  if (!tagIds.length) return map;
  const rows = await select<{ owner_id: number; text: string; status: number }>(
    sequelize,
    `SELECT owner_id, text, status FROM prompts WHERE client_id = :clientId AND owner_type = 'tag' AND owner_id IN (:ids) ORDER BY status DESC, id DESC`,
    { clientId, ids: tagIds },
  );
  for (const r of rows) if (!map.has(Number(r.owner_id))) map.set(Number(r.owner_id), { text: r.text, status: Number(r.status) });
  return map;
}
