/**
 * Turns the contract's JSON Schemas into form rules and widgets, so a field's type, limits,
 * options and Spanish message are written once, in openapi.yaml. Pure: no React, no antd runtime.
 */
import type { FormRule } from 'antd';
import { MESSAGES, validateEmail, validateUrl } from '@vigia/contract/rules/validation';
import {
  lookupRef,
  resolveSchema,
  typesOf,
  type JsonSchema,
  type OpenApiDocument,
  type OpenApiParameter,
} from '@vigia/contract/rules/schema';

/** The contract's reader of openapi.yaml (types, references, nullable folding); re-exported for the screens' tests. */
export type { JsonSchema, OpenApiDocument } from '@vigia/contract/rules/schema';
export { resolveSchema };

type FieldKind = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object';

/** How a field is edited. Declarations may override it (e.g. `color-swatch`). */
export type WidgetKind =
  | 'text'
  | 'textarea'
  | 'email'
  | 'password'
  | 'url'
  | 'number'
  | 'switch'
  | 'select'
  | 'radio'
  | 'multi-select'
  | 'date'
  | 'datetime'
  | 'color-swatch'
  | 'remote-select';

export type FieldOption = { value: string | number; label: string };

export type FieldSpec = {
  name: string;
  kind: FieldKind;
  format?: string;
  nullable: boolean;
  required: boolean;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  /** The contract's `x-message`, shown whenever the value breaks the field's rule. */
  message?: string;
  options?: FieldOption[];
  widget: WidgetKind;
};

export const REQUIRED_MESSAGE = MESSAGES.required;
const INVALID_MESSAGE = '¡El valor ingresado no es válido o está incompleto!';
export const OPTION_MESSAGE = 'Seleccione una opción de la lista';

/** Above this many characters a text field becomes a text area. */
const TEXTAREA_FROM = 200;
/** Up to this many options an enum shows as radio buttons instead of a drop-down. */
const RADIO_UP_TO = 3;

/** A named object schema from `components.schemas`, with `allOf` parts merged. */
export function objectSchema(doc: OpenApiDocument, name: string): JsonSchema {
  const schema = doc.components.schemas[name];
  if (!schema) throw new Error(`El contrato no define el esquema ${name}`);
  return resolveSchema(doc, schema).schema;
}

/** Options of an enum, labelled by `x-labels` when the contract gives them. */
export function enumOptions(schema: JsonSchema): FieldOption[] {
  const labels = schema['x-labels'] ?? {};
  return (schema.enum ?? [])
    .filter((value): value is string | number => typeof value === 'string' || typeof value === 'number')
    .map((value) => ({ value, label: labels[String(value)] ?? String(value) }));
}

/** The label of one enum value, e.g. `enumLabel(TagColor, 'red')` → 'Rojo'. */
export function enumLabel(schema: JsonSchema, value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  return schema['x-labels']?.[String(value)] ?? String(value);
}

function kindOf(schema: JsonSchema): FieldKind {
  const [type] = typesOf(schema).filter((t) => t !== 'null');
  if (type === 'integer' || type === 'number' || type === 'boolean' || type === 'array' || type === 'object') {
    return type;
  }
  if (!type && schema.enum?.length) {
    return schema.enum.every((v) => typeof v === 'number' || v === null) ? 'integer' : 'string';
  }
  return 'string';
}

function widgetOf(name: string, schema: JsonSchema, kind: FieldKind, options?: FieldOption[]): WidgetKind {
  if (kind === 'array') return 'multi-select';
  if (options?.length) return options.length <= RADIO_UP_TO ? 'radio' : 'select';
  if (kind === 'boolean') return 'switch';
  if (kind === 'integer' || kind === 'number') return 'number';
  if (schema.format === 'email') return 'email';
  if (schema.format === 'uri' || schema.format === 'url') return 'url';
  if (schema.format === 'date') return 'date';
  if (schema.format === 'date-time') return 'datetime';
  if (schema.format === 'password' || /password|security_phrase/.test(name)) return 'password';
  if ((schema.maxLength ?? 0) > TEXTAREA_FROM) return 'textarea';
  return 'text';
}

export type DescribeOptions = {
  /** Create forms follow the input schema's `required`. */
  action: 'create' | 'edit';
  /**
   * Edit forms (whose update schema is partial) also require what the record always has and
   * cannot be null: a tag may be renamed but not left without a name.
   */
  recordSchema?: JsonSchema;
};

/** Everything a form needs to know about one property of an input schema. */
export function describeField(
  doc: OpenApiDocument,
  inputSchemaName: string,
  field: string,
  options: DescribeOptions = { action: 'create' },
): FieldSpec {
  const input = objectSchema(doc, inputSchemaName);
  const property = input.properties?.[field];
  if (!property) throw new Error(`El esquema ${inputSchemaName} no tiene el campo ${field}`);
  const { schema, nullable } = resolveSchema(doc, property);

  let required = input.required?.includes(field) ?? false;
  if (!required && options.action === 'edit' && options.recordSchema) {
    const recordProperty = options.recordSchema.properties?.[field];
    required =
      (options.recordSchema.required?.includes(field) ?? false) &&
      recordProperty !== undefined &&
      !resolveSchema(doc, recordProperty).nullable;
  }

  const kind = kindOf(schema);
  const itemSchema = kind === 'array' && schema.items ? resolveSchema(doc, schema.items).schema : undefined;
  const opts = enumOptions(itemSchema ?? schema);

  return {
    name: field,
    kind,
    format: schema.format,
    nullable,
    required: required && !nullable,
    minLength: schema.minLength,
    maxLength: schema.maxLength,
    minimum: schema.minimum,
    maximum: schema.maximum,
    pattern: schema.pattern,
    minItems: schema.minItems,
    maxItems: schema.maxItems,
    message: schema['x-message'] ?? itemSchema?.['x-message'],
    options: opts.length ? opts : undefined,
    widget: widgetOf(field, schema, kind, opts),
  };
}

/** Contract patterns are ECMA-262 with the `u` flag, as the API's validator reads them. */
function toRegExp(pattern: string): RegExp {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return new RegExp(pattern);
  }
}

const isEmpty = (value: unknown) =>
  value === undefined ||
  value === null ||
  (typeof value === 'string' && value.trim() === '') ||
  (Array.isArray(value) && value.length === 0);

/** antd Form rules for a field: the same limits the API enforces, with the contract's messages. */
export function toFormRules(spec: FieldSpec): FormRule[] {
  const rules: FormRule[] = [];

  if (spec.required) {
    rules.push({
      required: true,
      type: spec.kind === 'integer' ? 'number' : spec.kind,
      whitespace: spec.kind === 'string',
      message: REQUIRED_MESSAGE,
    });
  }

  if (spec.options) {
    const allowed = spec.options.map((o) => o.value);
    rules.push({
      validator: async (_rule, value: unknown) => {
        if (isEmpty(value)) return;
        const values = Array.isArray(value) ? value : [value];
        if (!values.every((v) => allowed.includes(v as string | number))) {
          throw new Error(spec.message ?? OPTION_MESSAGE);
        }
      },
    });
  }

  if (spec.kind === 'string') {
    if (spec.format === 'email') {
      rules.push({
        validator: async (_rule, value: string | undefined) => {
          if (isEmpty(value)) return;
          const error = validateEmail(value, false);
          if (error) throw new Error(spec.message ?? error);
        },
      });
    }
    if (spec.format === 'uri' || spec.format === 'url') {
      rules.push({
        validator: async (_rule, value: string | undefined) => {
          if (isEmpty(value)) return;
          const error = validateUrl(value);
          if (error) throw new Error(spec.message ?? error);
        },
      });
    }
    if (spec.minLength !== undefined && spec.minLength > 0) {
      rules.push({
        type: 'string',
        min: spec.minLength,
        transform: (value: unknown) => (typeof value === 'string' ? value.trim() : value),
        message: spec.message ?? `Debe tener mínimo ${spec.minLength} caracteres`,
      });
    }
    if (spec.maxLength !== undefined) {
      rules.push({
        type: 'string',
        max: spec.maxLength,
        message: spec.message ?? MESSAGES.textMax(spec.maxLength),
      });
    }
    if (spec.pattern) {
      rules.push({ pattern: toRegExp(spec.pattern), message: spec.message ?? INVALID_MESSAGE });
    }
  }

  if (spec.kind === 'integer' || spec.kind === 'number') {
    rules.push({
      validator: async (_rule, value: unknown) => {
        if (isEmpty(value)) return;
        const n = typeof value === 'number' ? value : Number(value);
        const wrong =
          Number.isNaN(n) ||
          (spec.kind === 'integer' && !Number.isInteger(n)) ||
          (spec.minimum !== undefined && n < spec.minimum) ||
          (spec.maximum !== undefined && n > spec.maximum);
        if (!wrong) return;
        if (spec.message) throw new Error(spec.message);
        if (spec.kind === 'integer' && !Number.isInteger(n)) throw new Error('Ingrese un número entero');
        if (spec.minimum !== undefined && n < spec.minimum) throw new Error(`Debe ser mayor o igual a ${spec.minimum}`);
        if (spec.maximum !== undefined && n > spec.maximum) throw new Error(`Debe ser menor o igual a ${spec.maximum}`);
        throw new Error(INVALID_MESSAGE);
      },
    });
  }

  if (spec.kind === 'array' && spec.maxItems !== undefined) {
    rules.push({
      type: 'array',
      max: spec.maxItems,
      message: spec.message ?? `Seleccione máximo ${spec.maxItems}`,
    });
  }

  return rules;
}

/**
 * The body to send: strings trimmed; an emptied optional field becomes null when the contract
 * allows null, otherwise it is left out; fields the input schema does not know are dropped
 * (input schemas forbid additional properties).
 */
export function toRequestBody(specs: FieldSpec[], values: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const spec of specs) {
    if (!(spec.name in values)) continue;
    let value = values[spec.name];
    if (typeof value === 'string') value = value.trim();
    if (isEmpty(value) && !(spec.kind === 'array' && Array.isArray(value))) {
      if (spec.nullable) body[spec.name] = null;
      continue;
    }
    if ((spec.kind === 'integer' || spec.kind === 'number') && typeof value === 'string') value = Number(value);
    body[spec.name] = value;
  }
  return body;
}

/** What a list operation (`GET /<resource>`) lets the client sort and filter by. */
export function listCapabilities(doc: OpenApiDocument, resource: string): { sortable: string[]; filters: Record<string, JsonSchema> } {
  const operation = doc.paths[`/${resource}`]?.get;
  const sortable: string[] = [];
  const filters: Record<string, JsonSchema> = {};
  for (const raw of operation?.parameters ?? []) {
    const parameter = raw.$ref ? (lookupRef(doc, raw.$ref) as OpenApiParameter) : raw;
    if (parameter.in !== 'query' || !parameter.name || !parameter.schema) continue;
    const schema = resolveSchema(doc, parameter.schema).schema;
    // `_sort` is one field (enum) or a comma list of them (array of enum, multi-sort lists).
    if (parameter.name === '_sort')
      sortable.push(...((schema.enum ?? resolveSchema(doc, schema.items ?? {}).schema.enum ?? []) as string[]));
    else if (!['_start', '_end', '_order', 'page', 'per_page'].includes(parameter.name)) filters[parameter.name] = schema;
  }
  return { sortable, filters };
}
