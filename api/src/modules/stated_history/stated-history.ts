import { Router, type Request, type RequestHandler } from 'express';
import type { Sequelize } from 'sequelize';
import type { OperationId } from '@vigia/contract/rules/operations';
import { cleanStatement } from '@vigia/contract/rules/history';
import { requireStaff, staffOf, type StaffPrincipal } from '../../http/auth.js';
import { badRequest, notFound } from '../../http/errors.js';
import { idempotent } from '../../http/idempotency.js';
import { route } from '../../http/operations.js';
import { readIntParam } from '../../http/params.js';
import { execute, insertReturningId, select } from '../../db/sql.js';
import { toIso } from '../../db/raw-dates.js';
import type { Catalogues } from '../catalogues/catalogues.service.js';
import type { CodeListName } from '../catalogues/catalogues.sync.js';
import { patientForRead, patientForWrite } from '../observations/record-access.js';

/**
 * The history a patient states for the 'RDA de paciente' (issue 51, P235), each kind a list nested
 * under the patient: allergies, family history. The module that owns a kind's table declares it
 * (statedHistoryList: table, columns with their checks and Spanish messages, order, 404) and mounts
 * its routes (statedHistoryRouter); the reads, the patient's access (404 across clients, 403 for a
 * role that may not write or a deceased patient), the writes and the RDA hook are written here
 * once. Audit events are the recorder's (the operations' `x-audit`).
 */
export interface StatedHistoryDeps {
  sequelize: Sequelize;
  catalogues: Catalogues;
  now: () => Date;
  /** Told after every write, so the patient's RDA can be written again (issue 51); optional. */
  onPatientHistoryChanged?: (clientId: number, patientId: number, userId: number) => void | Promise<void>;
}

type ReadDeps = Pick<StatedHistoryDeps, 'sequelize' | 'catalogues'>;

/** What every entry has beside the columns its list declares. */
interface EntryRow {
  id: number;
  created_at: string | Date;
  updated_at: string | Date;
}
/** A row of a kind's table: its own columns and the entry's. */
export type StatedRow<Own extends object> = Own & EntryRow;
type EntryFields = 'id' | 'created_at' | 'updated_at';

/**
 * A body field as its column stores it (a 400 naming `field` when it cannot be). A new entry's
 * absent field is passed as undefined; an update's absent field keeps the row's value.
 */
type ColumnCheck<V> = (value: V | undefined, catalogues: Catalogues, field: string) => unknown;

export interface StatedHistoryList<Row extends EntryRow, Dto, In extends object> {
  table: string;
  /** The body's fields, named as their columns, in the order they are checked. */
  columns: { [K in keyof In & string]-?: ColumnCheck<In[K]> };
  /** ORDER BY of the list. */
  order: string;
  /** The Spanish 404 for an entry that is not this patient's. */
  notFound: string;
  /** The row's own fields as the contract shows them (id and the times are added here). */
  present(row: Row, catalogues: Catalogues): Omit<Dto, EntryFields>;
}

/** A column that holds a code of one of the guide's lists (the RDA code lists). */
export const coded =
  (list: CodeListName, message: string): ColumnCheck<string> =>
  (code, catalogues, field) => {
    if (!catalogues.code(list, code)) throw badRequest(field, message);
    return code;
  };

/** A column that holds what the patient states, as stored (cleanStatement); empty is refused. */
export const stated =
  (message: string): ColumnCheck<string> =>
  (text, _catalogues, field) => {
    const clean = cleanStatement(text ?? '');
    if (!clean) throw badRequest(field, message);
    return clean;
  };

/** The use cases of one declared list; the declaring module exports them under its own names. */
export function statedHistoryList<Row extends EntryRow, Dto, In extends object>(d: StatedHistoryList<Row, Dto, In>) {
  const columns = Object.keys(d.columns) as Array<keyof In & string>;
  const selectEntry = `SELECT id, ${columns.join(', ')}, created_at, updated_at FROM ${d.table}`;
  const insertEntry = `INSERT INTO ${d.table} (client_id, patient_id, ${columns.join(', ')}, created_by, created_at, updated_at)
     VALUES (:clientId, :patientId, ${columns.map((c) => `:${c}`).join(', ')}, :userId, :now, :now) RETURNING id`;
  const updateEntry = `UPDATE ${d.table} SET ${columns.map((c) => `${c} = :${c}`).join(', ')}, updated_at = :now WHERE id = :id`;
  const deleteEntry = `DELETE FROM ${d.table} WHERE id = :id`;

  // The contract's objects put the id first and the times last, around the kind's own fields.
  const toDto = (catalogues: Catalogues, r: Row): Dto => {
    const own = d.present(r, catalogues);
    return { id: Number(r.id), ...own, created_at: toIso(r.created_at)!, updated_at: toIso(r.updated_at)! } as unknown as Dto;
  };

  async function find(deps: ReadDeps, clientId: number, patientId: number, id: number): Promise<Row> {
    const [row] = await select<Row>(deps.sequelize, `${selectEntry} WHERE id = :id AND client_id = :clientId AND patient_id = :patientId`, {
      id,
      clientId,
      patientId,
    });
    if (!row) throw notFound(d.notFound);
    return row;
  }

  /** The values of the declared columns: the body's, checked, or (an update's absent field) the row's. */
  function valuesOf(catalogues: Catalogues, input: Partial<In>, row?: Row): Record<string, unknown> {
    const values: Record<string, unknown> = {};
    for (const c of columns) {
      values[c] = row && input[c] === undefined ? row[c as unknown as keyof Row] : d.columns[c](input[c], catalogues, c);
    }
    return values;
  }

  async function written(deps: StatedHistoryDeps, principal: StaffPrincipal, patientId: number, id: number) {
    await deps.onPatientHistoryChanged?.(principal.clientId, patientId, principal.userId);
    return toDto(deps.catalogues, await find(deps, principal.clientId, patientId, id));
  }

  /** The patient's entries in the list's order. No principal: the caller has settled the tenancy (the RDA builder). */
  async function list(deps: ReadDeps, clientId: number, patientId: number): Promise<Dto[]> {
    const rows = await select<Row>(
      deps.sequelize,
      `${selectEntry} WHERE client_id = :clientId AND patient_id = :patientId ORDER BY ${d.order}`,
      {
        clientId,
        patientId,
      },
    );
    return rows.map((r) => toDto(deps.catalogues, r));
  }

  return {
    list,
    async listOfPatient(deps: ReadDeps, principal: StaffPrincipal, patientId: number): Promise<Dto[]> {
      await patientForRead(principal, patientId);
      return list(deps, principal.clientId, patientId);
    },
    async create(deps: StatedHistoryDeps, principal: StaffPrincipal, patientId: number, input: In): Promise<Dto> {
      await patientForWrite(principal, patientId, 'clinical.write');
      const now = deps.now();
      const id = await insertReturningId(deps.sequelize, insertEntry, {
        clientId: principal.clientId,
        patientId,
        ...valuesOf(deps.catalogues, input),
        userId: principal.userId,
        now,
      });
      return written(deps, principal, patientId, id);
    },
    async update(deps: StatedHistoryDeps, principal: StaffPrincipal, patientId: number, id: number, input: Partial<In>): Promise<Dto> {
      await patientForWrite(principal, patientId, 'clinical.write');
      const row = await find(deps, principal.clientId, patientId, id);
      await execute(deps.sequelize, updateEntry, { id: row.id, ...valuesOf(deps.catalogues, input, row), now: deps.now() });
      return written(deps, principal, patientId, id);
    },
    async remove(deps: StatedHistoryDeps, principal: StaffPrincipal, patientId: number, id: number): Promise<void> {
      await patientForWrite(principal, patientId, 'clinical.write');
      const row = await find(deps, principal.clientId, patientId, id);
      await execute(deps.sequelize, deleteEntry, { id: row.id });
      await deps.onPatientHistoryChanged?.(principal.clientId, patientId, principal.userId);
    },
  };
}

/** What the router calls of a declared list (a body's type is the contract's, checked before). */
interface ServedList {
  listOfPatient(deps: ReadDeps, principal: StaffPrincipal, patientId: number): Promise<unknown>;
  create(deps: StatedHistoryDeps, principal: StaffPrincipal, patientId: number, input: never): Promise<unknown>;
  update(deps: StatedHistoryDeps, principal: StaffPrincipal, patientId: number, id: number, input: never): Promise<unknown>;
  remove(deps: StatedHistoryDeps, principal: StaffPrincipal, patientId: number, id: number): Promise<void>;
}

/**
 * A declared list's routes, nested under the patient (D1): any staff reads, `clinical.write`
 * writes; a create sent twice with one Idempotency-Key writes once (issue 50). `entry` is the
 * entry's path parameter in openapi.yaml.
 */
export function statedHistoryRouter(
  history: ServedList,
  deps: StatedHistoryDeps,
  ops: { list: OperationId; create: OperationId; update: OperationId; remove: OperationId; entry: string },
): Router {
  const r = Router();
  const mount = (op: OperationId, guard: RequestHandler, handler: RequestHandler) => route(r, op, [guard], handler as never);
  const patientOf = (req: Request) => readIntParam(req, 'id');
  mount(ops.list, requireStaff(), async (req, res) => {
    res.json(await history.listOfPatient(deps, staffOf(req), patientOf(req)));
  });
  const create: RequestHandler = async (req, res) => {
    res.status(201).json(await history.create(deps, staffOf(req), patientOf(req), req.body as never));
  };
  mount(ops.create, requireStaff('clinical.write'), idempotent(deps, create as never) as never);
  mount(ops.update, requireStaff('clinical.write'), async (req, res) => {
    res.json(await history.update(deps, staffOf(req), patientOf(req), readIntParam(req, ops.entry), req.body as never));
  });
  mount(ops.remove, requireStaff('clinical.write'), async (req, res) => {
    await history.remove(deps, staffOf(req), patientOf(req), readIntParam(req, ops.entry));
    res.status(204).end();
  });
  return r;
}
