/**
 * The one reader of openapi.yaml's JSON Schemas. The staff app turns them into form rules and
 * widgets (admin/src/crud/schema-rules.ts); the API turns a failed validation into a Spanish
 * message naming the field (api/src/http/contract.ts). Both follow references and read `x-message`
 * and `x-labels` here, so a field's rule and its message are written once, in the contract.
 */
import { MESSAGES } from './validation';

export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  default?: unknown;
  description?: string;
  'x-message'?: string;
  'x-labels'?: Record<string, string>;
};

export type OpenApiParameter = { $ref?: string; name?: string; in?: string; required?: boolean; schema?: JsonSchema };

export type OpenApiOperation = {
  operationId?: string;
  security?: unknown[];
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
};

export type OpenApiDocument = {
  openapi: string;
  paths: Record<string, Record<string, OpenApiOperation | undefined>>;
  components: {
    schemas: Record<string, JsonSchema>;
    parameters?: Record<string, OpenApiParameter>;
  };
};

/** The target of a local reference (`#/components/schemas/Tag`). */
export function lookupRef(doc: OpenApiDocument, ref: string): JsonSchema | OpenApiParameter {
  const prefix = '#/components/';
  if (!ref.startsWith(prefix)) throw new Error(`Referencia no soportada: ${ref}`);
  const [section, name] = ref.slice(prefix.length).split('/');
  const target = (doc.components as Record<string, Record<string, JsonSchema> | undefined>)[section]?.[name];
  if (!target) throw new Error(`Referencia inexistente: ${ref}`);
  return target;
}

/** Follows `$ref` until a schema that is not one (at most 20 hops). */
export function derefSchema<T extends { $ref?: string }>(doc: OpenApiDocument, schema: T | undefined): T | undefined {
  let s = schema;
  for (let i = 0; s?.$ref && i < 20; i++) s = lookupRef(doc, s.$ref) as T;
  return s;
}

export function typesOf(schema: JsonSchema): string[] {
  if (schema.type === undefined) return [];
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

/** The schema's one non-null type (`['string', 'null']` is a string). */
export function firstType(schema: JsonSchema | undefined): string | undefined {
  return schema ? typesOf(schema).find((t) => t !== 'null') : undefined;
}

/**
 * Follows `$ref`, merges `allOf`, and folds `oneOf`/`anyOf` that only add `null` into a nullable
 * schema. The result has no references left at its top level.
 */
export function resolveSchema(doc: OpenApiDocument, schema: JsonSchema): { schema: JsonSchema; nullable: boolean } {
  if (schema.$ref) {
    const { $ref, ...siblings } = schema;
    const target = resolveSchema(doc, lookupRef(doc, $ref) as JsonSchema);
    return { schema: { ...target.schema, ...siblings }, nullable: target.nullable };
  }

  if (schema.allOf) {
    const { allOf, ...rest } = schema;
    let merged: JsonSchema = { ...rest };
    let nullable = false;
    for (const part of allOf) {
      const resolved = resolveSchema(doc, part);
      nullable ||= resolved.nullable;
      merged = {
        ...merged,
        ...resolved.schema,
        properties: { ...merged.properties, ...resolved.schema.properties },
        required: [...(merged.required ?? []), ...(resolved.schema.required ?? [])],
      };
    }
    return { schema: merged, nullable };
  }

  const variants = schema.oneOf ?? schema.anyOf;
  if (variants) {
    const nonNull = variants.filter((v) => !(typesOf(v).length === 1 && typesOf(v)[0] === 'null'));
    const nullable = nonNull.length < variants.length;
    if (nonNull.length === 1) {
      const { oneOf: _o, anyOf: _a, ...rest } = schema;
      const inner = resolveSchema(doc, nonNull[0]);
      return { schema: { ...inner.schema, ...rest }, nullable: nullable || inner.nullable };
    }
    return { schema, nullable };
  }

  const types = typesOf(schema);
  const nullable = types.includes('null') || (schema.enum?.includes(null) ?? false);
  const concrete = types.filter((t) => t !== 'null');
  if (concrete.length === 1 && types.length > 1) return { schema: { ...schema, type: concrete[0] }, nullable };
  return { schema, nullable };
}

/** Finds the schema of `segments` (e.g. ['orders', '0', 'dose']) inside `root`, through $ref, allOf, oneOf and arrays. */
export function findPropertySchema(doc: OpenApiDocument, root: JsonSchema | undefined, segments: string[]): JsonSchema | undefined {
  let current = derefSchema(doc, root);
  for (const seg of segments) {
    if (!current) return undefined;
    const candidates = [current, ...(current.allOf ?? []), ...(current.oneOf ?? []), ...(current.anyOf ?? [])]
      .map((c) => derefSchema(doc, c))
      .filter((c): c is JsonSchema => !!c);
    let next: JsonSchema | undefined;
    for (const c of candidates) {
      if (/^\d+$/.test(seg) && c.items) next = derefSchema(doc, c.items);
      else if (c.properties?.[seg]) next = derefSchema(doc, c.properties[seg]);
      if (next) break;
    }
    current = next;
  }
  if (!current) return undefined;
  // For nullable alternatives (`oneOf: [X, null]`) the interesting rule is on X.
  const alt = current.oneOf ?? current.anyOf;
  if (!current['x-message'] && alt) {
    const real = alt.map((a) => derefSchema(doc, a)).find((a) => a && a.type !== 'null');
    if (real) return { ...real, ...current };
  }
  return current;
}

/** The choices of an enum, labelled by the contract's `x-labels` where it has them. */
export function enumLabels(schema: JsonSchema | undefined): string[] {
  const labels = schema?.['x-labels'];
  return (schema?.enum ?? []).filter((v) => v !== null).map((v) => labels?.[String(v)] ?? String(v));
}

const TYPE_MESSAGES: Record<string, string> = {
  integer: 'Debe ser un número entero.',
  number: 'Debe ser un número.',
  string: 'Debe ser un texto.',
  boolean: 'Debe ser verdadero o falso.',
  array: 'Debe ser una lista.',
  object: 'Debe ser un objeto.',
};

/** One Spanish message per failed rule (a JSON-Schema keyword); the contract's `x-message` wins where it applies. */
export function ruleMessage(keyword: string, schema: JsonSchema | undefined, field: string): string {
  switch (keyword) {
    case 'required':
      return MESSAGES.required;
    case 'additionalProperties':
    case 'unevaluatedProperties':
      return `El campo '${field}' no está permitido.`;
    case 'minProperties':
      return 'Envíe al menos un campo para actualizar.';
    case 'type':
      if (schema?.['x-message'] && firstType(schema) === 'string') return schema['x-message'];
      return TYPE_MESSAGES[firstType(schema) ?? ''] ?? 'Tipo de dato no válido.';
  }
  if (schema?.['x-message']) return schema['x-message'];
  switch (keyword) {
    case 'minLength':
      return schema?.minLength === 1 ? MESSAGES.required : `Debe tener mínimo ${schema?.minLength ?? ''} caracteres`;
    case 'maxLength':
      return `Debe tener máximo de ${schema?.maxLength ?? ''} caracteres`;
    case 'minimum':
      return `Debe ser mayor o igual a ${schema?.minimum}.`;
    case 'maximum':
      return `Debe ser menor o igual a ${schema?.maximum}.`;
    case 'exclusiveMinimum':
      return `Debe ser mayor que ${schema?.exclusiveMinimum}.`;
    case 'maxItems':
      return `Puede tener como máximo ${schema?.maxItems} elementos.`;
    case 'minItems':
      return `Debe tener al menos ${schema?.minItems} elementos.`;
    case 'enum': {
      const options = enumLabels(schema);
      return options.length ? `Valor no permitido. Opciones: ${options.join(', ')}.` : 'Valor no permitido.';
    }
    case 'format':
      if (schema?.format === 'email') return MESSAGES.email;
      if (schema?.format === 'date') return 'La fecha no es válida (formato AAAA-MM-DD).';
      if (schema?.format === 'date-time') return 'La fecha y hora no es válida.';
      return 'El formato no es válido.';
    case 'pattern':
      return 'El formato no es válido.';
    default:
      return 'El valor no es válido.';
  }
}

/** The widest integer a column holds on both databases: INTEGER on PostgreSQL is 32-bit. */
export const INT_RANGE = { minimum: -2_147_483_648, maximum: 2_147_483_647 } as const;
/** BIGINT ids (readings, notes, activities: `format: int64`) go up to 2^53 - 1, the largest integer JSON keeps exactly. */
const SAFE = Number.MAX_SAFE_INTEGER;
/** A REAL column holds any finite double; a bound keeps Infinity (JSON `1e309`) out. */
export const NUMBER_RANGE = { minimum: -1e15, maximum: 1e15 } as const;

/**
 * The contract with every number held to what its column can store (issue 18): an integer gets the
 * 32-bit range (a declared range is clamped to it; `format: int64` ids, BIGINT columns, to ±2^53 - 1),
 * a number ±1e15. A validator then refuses `1e309`, `Infinity` and `99999999999999999999` with the
 * field's name before they reach SQL. A copy: `doc` is not changed.
 */
export function withValueRanges<T extends object>(doc: T): T {
  const out = structuredClone(doc);
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    const schema = node as JsonSchema;
    const types = typesOf(schema);
    if (types.includes('integer') || types.includes('number')) {
      const integer = types.includes('integer') && !types.includes('number');
      const range = integer ? INT_RANGE : NUMBER_RANGE;
      const wide = integer && schema.format === 'int64';
      const floor = wide ? -SAFE : range.minimum;
      const cap = wide ? SAFE : range.maximum;
      if (schema.exclusiveMinimum == null) schema.minimum = Math.max(schema.minimum ?? range.minimum, floor);
      schema.maximum = Math.min(schema.maximum ?? range.maximum, cap);
    }
    for (const value of Object.values(node)) visit(value);
  };
  visit(out);
  return out;
}
