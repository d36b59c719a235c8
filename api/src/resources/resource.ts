import type { Model, ModelStatic, OrderItem, Sequelize, Transaction, WhereOptions } from 'sequelize';
import type { Action } from '@vigia/contract/rules/access';
import type { OperationId } from '@vigia/contract/rules/operations';
import type { StaffPrincipal } from '../http/auth.js';
import type { ListFields, ListParams } from '../http/list-params.js';

/** How `q` compares: 'upper' with the text in capitals (stored in capitals), 'lower' both in small letters. */
export type SearchFold = 'upper' | 'lower';

/** Who asks and when: every hook gets it, so no hook reads a clock or a request of its own. */
export interface ResourceContext {
  actor: StaffPrincipal;
  /** The actor's organisation: the only rows a hook may see or change. */
  clientId: number;
  now: Date;
  sequelize: Sequelize;
}

/**
 * A catalogue resource as the engine serves it (resource.engine.ts): its table, the organisation
 * column, who reads and who writes (contract/rules/access.ts), the operations of openapi.yaml it
 * answers, the fields a list filters and sorts by, and hooks for the rules of its own. Everything
 * the simple-rest conventions ask (paging, sorting, filters, getMany, X-Total-Count, 404 for another
 * organisation's row, PUT and PATCH alike) is the engine's, once.
 *
 * Hooks are methods (not arrow properties) so that a declaration of a concrete model is accepted
 * where the engine takes any model.
 */
export interface ResourceDeclaration<M extends Model = Model, Dto = unknown, In = unknown, Up = unknown> {
  /** The plural word of the URL segment, the Refine resource and the table. */
  name: string;
  model: ModelStatic<M>;
  /** The organisation column: every read and write is limited to the actor's value of it. */
  tenant: string;
  /** The permission to read (undefined: any staff) and to write. */
  access: { read?: Action; write: Action };
  /** The contract's operations this resource answers; `update` and `patch` share one handler. */
  operations: {
    list: OperationId;
    get?: OperationId;
    create?: OperationId;
    update?: OperationId;
    patch?: OperationId;
    remove?: OperationId;
  };
  /** What `_sort` and the field filters may name (API field → model attribute); the contract declares the same. */
  fields: ListFields;
  /** Rows of a list when no page is asked for. */
  defaultLimit: number;
  /**
   * `q`: the attributes it looks in, and how a stored value is folded (names are kept in capitals),
   * one fold for all or one per attribute (a user's names in capitals, the e-mail in small letters).
   */
  search?: { columns: string[]; fold: SearchFold | Record<string, SearchFold> };
  /** The Spanish message of a 404 (also the answer for another organisation's id). */
  notFound: string;

  /** ORDER BY for a list: the `_sort` fields or the resource's own order, then a tie-breaker. */
  order(p: ListParams): OrderItem[];
  /** Rows → the contract's objects (the one place they become API objects); may read related rows in bulk. */
  present(rows: M[], ctx: ResourceContext): Promise<Dto[]>;
  /** The list's own parameters beyond the conventions (`serial=`, `date1`/`date2`...), as conditions. */
  where?(query: Record<string, unknown>, ctx: ResourceContext): Promise<WhereOptions | null> | WhereOptions | null;
  /** Validates and inserts one row (with its own rules); answers it as the answer should show it (read back if the database fills it). */
  create?(input: In, ctx: ResourceContext): Promise<M>;
  /**
   * Validates and applies a PUT or PATCH body to the row (absent fields unchanged), saves it. What
   * it answers (if anything) is added to the row's object: fields the update's answer has beyond it.
   */
  update?(row: M, input: Up, ctx: ResourceContext): Promise<Record<string, unknown> | void>;
  /** Removes what depends on the row, in the transaction the row is destroyed in. */
  remove?(row: M, ctx: ResourceContext, transaction: Transaction): Promise<void>;
}

/** Declares a resource with its types inferred from the hooks (the engine then takes it as any resource). */
export function defineResource<M extends Model, Dto, In = never, Up = never>(
  declaration: ResourceDeclaration<M, Dto, In, Up>,
): ResourceDeclaration<M, Dto, In, Up> {
  return declaration;
}
