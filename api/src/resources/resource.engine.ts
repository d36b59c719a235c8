import { Router, type Request, type RequestHandler } from 'express';
import { Op, Sequelize, type Model, type WhereOptions } from 'sequelize';
import { derefSchema, type OpenApiOperation } from '@vigia/contract/rules/schema';
import { requireStaff, staffOf } from '../http/auth.js';
import { loadContract } from '../http/contract.js';
import { notFound } from '../http/errors.js';
import { filterWhere, likeSafe, readListParams, sendList } from '../http/list-params.js';
import { operationTable, route } from '../http/operations.js';
import type { OperationId } from '@vigia/contract/rules/operations';
import { readIntParam } from '../http/params.js';
import type { ResourceContext, ResourceDeclaration } from './resource.js';
import { contractDrift } from './resource.rules.js';

export interface EngineDeps {
  sequelize: Sequelize;
  now: () => Date;
}

/**
 * Serves a declared catalogue resource (resource.ts): list, get, create, PUT and PATCH (one
 * handler), delete, on the methods and paths its operations have in openapi.yaml. The contract
 * validator has already refused an undeclared parameter and coerced each value; the engine adds the
 * organisation to every condition, so another organisation's id is a 404 like an unknown one.
 * Audit events are the recorder's (the operations' `x-audit`), as for every other route.
 */
export function resourceRouter(declaration: ResourceDeclaration, deps: EngineDeps): Router {
  const d = declaration;
  assertContractDeclares(d);
  const r = Router();
  const read = requireStaff(d.access.read);
  const write = requireStaff(d.access.write);
  const ctxOf = (req: Request): ResourceContext => {
    const actor = staffOf(req);
    return { actor, clientId: actor.clientId, now: deps.now(), sequelize: deps.sequelize };
  };
  const tenantWhere = (ctx: ResourceContext, id: number) => ({ id, [d.tenant]: ctx.clientId }) as WhereOptions;
  const find = async (ctx: ResourceContext, id: number) => {
    const row = await d.model.findOne({ where: tenantWhere(ctx, id) });
    if (!row) throw notFound(d.notFound);
    return row;
  };
  const answerOne = async (ctx: ResourceContext, row: Model) => (await d.present([row], ctx))[0];
  const mount = (op: string | undefined, guard: RequestHandler, handler: RequestHandler) => {
    if (!op) return;
    route(r, op as OperationId, [guard], handler as never);
  };

  mount(d.operations.list, read, async (req, res) => {
    const ctx = ctxOf(req);
    const p = readListParams(req, d.defaultLimit, d.fields);
    const and: WhereOptions[] = [{ [d.tenant]: ctx.clientId }, ...filterWhere(p.filters)];
    const own = await d.where?.(req.query as Record<string, unknown>, ctx);
    if (own) and.push(own);
    if (p.q && d.search) and.push(searchWhere(d.search, p.q));
    const { rows, count } = await d.model.findAndCountAll({
      where: { [Op.and]: and },
      order: d.order(p),
      offset: p.offset,
      limit: p.limit,
    });
    sendList(res, await d.present(rows, ctx), count);
  });
  mount(d.operations.get, read, async (req, res) => {
    const ctx = ctxOf(req);
    res.json(await answerOne(ctx, await find(ctx, readIntParam(req, 'id'))));
  });
  mount(d.operations.create, write, async (req, res) => {
    const ctx = ctxOf(req);
    res.status(201).json(await answerOne(ctx, await d.create!(req.body, ctx)));
  });
  const save: RequestHandler = async (req, res) => {
    const ctx = ctxOf(req);
    const id = readIntParam(req, 'id');
    const extra = await d.update!(await find(ctx, id), req.body, ctx);
    res.json({ ...((await answerOne(ctx, await find(ctx, id))) as object), ...extra });
  };
  mount(d.operations.update, write, save);
  mount(d.operations.patch, write, save);
  mount(d.operations.remove, write, async (req, res) => {
    const ctx = ctxOf(req);
    const row = await find(ctx, readIntParam(req, 'id'));
    await deps.sequelize.transaction(async (transaction) => {
      await d.remove?.(row, ctx, transaction);
      await row.destroy({ transaction });
    });
    res.status(204).end();
  });
  return r;
}

/** `q` on the declared attributes: a stored capital name is compared with the text in capitals. */
function searchWhere(search: NonNullable<ResourceDeclaration['search']>, q: string): WhereOptions {
  const foldOf = (c: string) => (typeof search.fold === 'string' ? search.fold : (search.fold[c] ?? 'lower'));
  return {
    [Op.or]: search.columns.map((c) =>
      foldOf(c) === 'upper'
        ? { [c]: { [Op.like]: `%${likeSafe(q.toUpperCase())}%` } }
        : Sequelize.where(Sequelize.fn('LOWER', Sequelize.col(c)), { [Op.like]: `%${likeSafe(q.toLowerCase())}%` }),
    ),
  };
}

/**
 * The declaration and its contract block say the same, checked when the router is built: every
 * filter the engine answers is a parameter of the list operation, every `_like`/`_ne`/`_gte`/`_lte`
 * the operation declares on a field is answered, `_sort` names exactly the sortable fields, and
 * every operation named exists. A drift fails at start-up (and in every test), not in production.
 */
export function assertContractDeclares(d: ResourceDeclaration): void {
  const { doc } = loadContract();
  const table = operationTable();
  const problems: string[] = [];
  for (const op of Object.values(d.operations)) if (op && !table.has(op)) problems.push(`no operation ${op}`);
  const list = Object.values(doc.paths)
    .map((item) => (item as Record<string, OpenApiOperation>).get)
    .find((o) => o?.operationId === d.operations.list);
  if (!list) throw new Error(`openapi.yaml has no list operation ${d.operations.list}`);
  const params = (list.parameters ?? []).map((p) => derefSchema(doc, p) as { name: string; schema?: { items?: { enum?: string[] } } });
  const sortable = params.find((p) => p.name === '_sort')?.schema?.items?.enum ?? [];
  problems.push(
    ...contractDrift(
      d.operations.list,
      d.fields,
      params.map((p) => p.name),
      sortable,
    ),
  );
  if (problems.length) throw new Error(`Resource '${d.name}' and openapi.yaml differ: ${problems.join('; ')}`);
}
