import type { ComponentType, ReactNode } from 'react';
import type { SchemaName, Schemas } from '../contract';
import type { WidgetKind } from './schema-rules';
import type { ApiRead } from '../providers/calls';

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
type ColumnRender<R> =
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
  /**
   * `search` for free text (`q`); enum parameters default to `select`; `toggle` shows an enum as
   * buttons with 'Todas' first; `text` and `date` send the value as typed.
   */
  widget?: 'search' | 'select' | 'color-select' | 'toggle' | 'text' | 'date';
  placeholder?: string;
  /** Keys of the tabs that show this filter (default: every tab); on the others its value is dropped. */
  tabs?: string[];
};

/** One tab above the table: `filter` is the value it sends on the tabs' `field`. */
type TabItem = { key: string; label: string; filter: string | number; empty?: string };

/**
 * Tabs bound to one query parameter of `GET /<resource>` (02 §2.6's 'No Gestionadas' /
 * 'Programadas' / 'Cerradas'). The active tab is kept in the URL (`?tab=<key>`), and changing it
 * goes back to the first page.
 */
export type TabsDeclaration = {
  field: string;
  items: TabItem[];
  /** URL search parameter holding the active tab; default `tab`. */
  param?: string;
};

/** Options of a `remote-select` read from the API (a listing, or a list of records). */
export type RemoteOptions<T = unknown> = {
  /** The read, e.g. `apiRead('/listings/{list_name}', { params: { list_name: 'cities' } })` (providers/calls.ts). */
  read: ApiRead<T>;
  /** Query from the form's current values; null while a needed value (e.g. the country) is missing. */
  params?: (values: Record<string, unknown>) => Record<string, unknown> | null;
  /** Turns the answer into options. */
  toOptions: (body: T) => { value: string | number; label: string }[];
  /** A field whose change empties this one (03 §5: changing the country clears the city). */
  dependsOn?: string;
};

/** A `remote-select`'s options, its `toOptions` typed by its read's answer where it is declared. */
export function remoteOptions<T>(options: RemoteOptions<T>): RemoteOptions {
  // The field list holds every read's options alike; the answer reaching toOptions is the read's own.
  return options as unknown as RemoteOptions;
}

export type FormFieldDeclaration<F extends string> = {
  field: F;
  label: string;
  /** Overrides the widget the contract implies. */
  widget?: WidgetKind;
  placeholder?: string;
  help?: string;
  /** Rule the contract cannot express (e.g. the password classes, a confirmation that must match). */
  check?: (value: unknown, values: Record<string, unknown>, action: 'create' | 'edit') => string | null;
  /** Fields whose change re-runs this field's check. */
  dependencies?: string[];
  /** Value a create form starts with. */
  initial?: unknown;
  /** Where a `remote-select` reads its options. */
  remote?: RemoteOptions;
  /** Shown only in the create or only in the edit form. */
  only?: 'create' | 'edit';
  /** A boolean field of the form that enables this one (02 §5: the AI fields need the AI option). */
  enabledBy?: string;
  /** Always shown disabled (02 §5: the repeat-measurement checkbox). */
  disabled?: boolean;
  /** Enum values not offered (a legacy alias such as clinical element 0, D6). */
  exclude?: Array<string | number>;
};

/**
 * Form controls the declared fields cannot express (a choice between two fields, a text parsed
 * before it is sent): `Fields` renders inside the create and edit forms after the declared fields,
 * `toBody` gives their part of the request body, and `toValues` turns the record into their
 * values for the edit form. The server's field errors still show under the field of that name.
 */
export type CustomFormFields = {
  Fields: ComponentType<{ action: 'create' | 'edit' }>;
  toBody: (values: Record<string, unknown>, action: 'create' | 'edit') => Record<string, unknown>;
  toValues?: (record: Record<string, unknown>) => Record<string, unknown>;
};

/** Icons a declaration may name without importing React components. */
export type ActionIcon = 'ai' | 'view' | 'link' | 'settings' | 'edit';

type RowAction<R> = {
  label: string;
  icon?: ActionIcon;
  to: (record: R) => string;
  /** Shown as a tooltip / accessible name. */
  title?: string;
  /** Shown only for the records it answers true for (02 §2.6: 'Gestionar', or 'Ver' once closed). */
  when?: (record: R) => boolean;
};

type KeysOf<S extends SchemaName> = [S] extends [never] ? never : keyof Schemas[S] & string;

export type ResourceDeclaration<R extends SchemaName = SchemaName, C extends SchemaName = never, U extends SchemaName = never> = {
  /** Resource name = URL segment = API path (`tags` → /tags and /api/v1/tags). */
  name: string;
  /** Screen path when it differs from the name (the stocks list lives at /inventory, 03 §2). */
  path?: string;
  /** Clicking a row opens its edit dialog (02 §2.10). */
  rowClick?: 'edit';
  /**
   * The record's own screen, instead of the generic show view: clicking a row opens it, after
   * `delayMs` (02 §2.1: order and alert details open after 500 ms).
   */
  detail?: { to: (record: Schemas[R]) => string; delayMs?: number };
  /**
   * `false` when the API lists the records but has no GET /<name>/{id} (moves, a ledger: 03 §2 lists
   * and creates them): no show screen, which could only answer 'no encontrado'.
   */
  readOne?: false;
  /** Tabs above the table, each a value of one list parameter. */
  tabs?: TabsDeclaration;
  /** A confirmation dialog instead of the small pop-up before deleting (02 §2.10). */
  deleteDialog?: (record: Schemas[R]) => { title: string; content: ReactNode; okText: string; busyText: string };
  /** Runs after a successful create or edit with the server's answer. */
  onSaved?: (action: 'create' | 'edit', record: Record<string, unknown>) => void;
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
    /** Text while the list loads. */
    loading?: string;
  };
  pageSizes?: number[];
  defaultPageSize?: number;
  defaultSort?: { field: keyof Schemas[R] & string; order: 'asc' | 'desc' };
  /** Information banner above the table. */
  intro?: { title?: string; text: string };
  columns: ColumnDeclaration<Schemas[R]>[];
  /**
   * On a phone the rows are cards (issue 50) instead of a table that cuts its key columns: the
   * column whose value titles each card (by key or field); the other columns stack under it.
   */
  phoneCards?: { title: string };
  filters?: FilterDeclaration[];
  fields?: FormFieldDeclaration<KeysOf<C> | KeysOf<U>>[];
  /** Controls after the declared fields, for what they cannot express. */
  customFields?: CustomFormFields;
  actions?: { edit?: boolean; delete?: boolean; show?: boolean; extra?: RowAction<Schemas[R]>[] };
  /**
   * The server action (D13) that governs create, edit and delete: the same `can()` the API
   * enforces decides whether those controls are enabled (01 §6: shown disabled otherwise).
   */
  writes: Action;
  /** Create and edit in a dialog over the list (default) or on their own pages. */
  form?: 'modal' | 'page';
};

import type { Action } from '@vigia/contract/rules/access';

/**
 * Erased form the generic screens work with: declarations are checked against the contract where
 * they are written (`defineResource`); the screens only read them.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- erased on purpose: each declaration is checked where it is written
export type AnyResource = ResourceDeclaration<any, any, any>;

/** The list path of a declaration: `path`, else `/<name>`. */
export function basePath(resource: Pick<AnyResource, 'name' | 'path'>): string {
  return resource.path ?? `/${resource.name}`;
}

/** The generic show screen's path, /<name>/show/:id, or null: a record with its own `detail` screen, or none to read. */
export function showPath(resource: AnyResource): string | null {
  return resource.detail || resource.readOne === false ? null : `${basePath(resource)}/show/:id`;
}

/** Checks a declaration against the contract's schema names and fields at compile time. */
export function defineResource<R extends SchemaName, C extends SchemaName = never, U extends SchemaName = never>(
  declaration: ResourceDeclaration<R, C, U>,
): ResourceDeclaration<R, C, U> {
  return declaration;
}
