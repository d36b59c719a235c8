import type { ReactNode } from 'react';
import type { SchemaName, Schemas } from '../contract';
import type { WidgetKind } from './schema-rules';

/** Colour of a status chip. */
export type Tone = 'success' | 'error' | 'warning' | 'processing' | 'default';

/** What a `status` column shows: a text and its tone. */
export type StatusValue = { text: string; tone: Tone };

/**
 * How a column shows its value:
 * - `text` (default), `date` (dd/mm/aaaa), `datetime`, `enum` (label from the contract's x-labels),
 *   `boolean` (Sí/No);
 * - `chip-color`: a chip in the record's tag colour (`colorField`, default `color`);
 * - `status`: a coloured status chip from a {@link StatusValue};
 * - `truncate:N`: the first N characters followed by '...';
 * - a function for anything else.
 */
export type ColumnRender<R> =
  | 'text'
  | 'date'
  | 'datetime'
  | 'enum'
  | 'boolean'
  | 'chip-color'
  | 'status'
  | `truncate:${number}`
  | ((value: unknown, record: R) => ReactNode);

export type ColumnDeclaration<R> = {
  /** Record field read by the column (and sort key when the contract allows sorting by it). */
  field: keyof R & string;
  /** Needed only when two columns read the same field. */
  key?: string;
  label: string;
  render?: ColumnRender<R>;
  /** Derives the shown value from the record (e.g. a status from a nested object). */
  value?: (record: R) => unknown;
  /** Text for an empty value. */
  empty?: string;
  /** Field holding the colour for `chip-color`. */
  colorField?: keyof R & string;
  /** Defaults to what the contract's `_sort` parameter allows. */
  sortable?: boolean;
  width?: number | string;
  /** Hidden on narrow screens (antd breakpoint from which the column shows). */
  showFrom?: 'sm' | 'md' | 'lg';
};

/** A filter above the table. `field` is a query parameter of `GET /<resource>`; its schema is read from the contract. */
export type FilterDeclaration = {
  field: string;
  label: string;
  /** `search` for free text (`q`); enum parameters default to `select`. */
  widget?: 'search' | 'select' | 'color-select';
  placeholder?: string;
};

export type FormFieldDeclaration<F extends string> = {
  field: F;
  label: string;
  /** Overrides the widget the contract implies. */
  widget?: WidgetKind;
  placeholder?: string;
  help?: string;
};

/** Icons a declaration may name without importing React components. */
export type ActionIcon = 'ai' | 'view' | 'link' | 'settings';

export type RowAction<R> = {
  label: string;
  icon?: ActionIcon;
  to: (record: R) => string;
  /** Shown as a tooltip / accessible name. */
  title?: string;
};

type KeysOf<S extends SchemaName> = [S] extends [never] ? never : keyof Schemas[S] & string;

export type ResourceDeclaration<
  R extends SchemaName = SchemaName,
  C extends SchemaName = never,
  U extends SchemaName = never,
> = {
  /** Resource name = URL segment = API path (`tags` → /tags and /api/v1/tags). */
  name: string;
  /** Contract schemas of the record and of the create/update bodies. */
  schemas: { record: R; create?: C; update?: U };
  labels: {
    /** List title and menu text. */
    list: string;
    /** Singular, lower case ('etiqueta'), used in generic messages. */
    singular: string;
    create?: string;
    createTitle?: string;
    editTitle?: string;
    showTitle?: string;
    /** Label of the page-size selector ('Etiquetas por página'). */
    pageSize: string;
    empty?: string;
    created?: string;
    updated?: string;
    deleted?: string;
    deleteConfirm?: (record: Schemas[R]) => string;
  };
  pageSizes?: number[];
  defaultPageSize?: number;
  defaultSort?: { field: keyof Schemas[R] & string; order: 'asc' | 'desc' };
  /** Information banner above the table. */
  intro?: { title?: string; text: string };
  columns: ColumnDeclaration<Schemas[R]>[];
  filters?: FilterDeclaration[];
  fields?: FormFieldDeclaration<KeysOf<C> | KeysOf<U>>[];
  actions?: { edit?: boolean; delete?: boolean; show?: boolean; extra?: RowAction<Schemas[R]>[] };
  /**
   * The server action (D13) that governs create, edit and delete: the same `can()` the API
   * enforces decides whether those controls are enabled (01 §6: shown disabled otherwise).
   */
  writes: Action;
  /** Create and edit in a dialog over the list (default) or on their own pages. */
  form?: 'modal' | 'page';
};

import type { Action } from '../../../api/src/modules/access/access.rules';

/**
 * Erased form the generic screens work with: declarations are checked against the contract where
 * they are written (`defineResource`); the screens only read them.
 */
export type AnyResource = ResourceDeclaration<any, any, any>;

/** Checks a declaration against the contract's schema names and fields at compile time. */
export function defineResource<R extends SchemaName, C extends SchemaName = never, U extends SchemaName = never>(
  declaration: ResourceDeclaration<R, C, U>,
): ResourceDeclaration<R, C, U> {
  return declaration;
}
