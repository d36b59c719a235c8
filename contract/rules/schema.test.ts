import { describe, expect, it } from 'vitest';
import { findPropertySchema, resolveSchema, ruleMessage, type JsonSchema, type OpenApiDocument, withValueRanges } from './schema';
import { MESSAGES } from './validation';

const doc: OpenApiDocument = {
  openapi: '3.1.0',
  paths: {},
  components: {
    schemas: {
      Name: { type: 'string', minLength: 1, maxLength: 50, 'x-message': 'Escriba un nombre.' },
      Dose: { type: 'string', enum: ['1/2', '1'], 'x-labels': { '1/2': 'Media', '1': 'Una' } },
      Item: { type: 'object', properties: { name: { $ref: '#/components/schemas/Name' }, dose: { $ref: '#/components/schemas/Dose' } } },
      Bulk: {
        allOf: [
          { type: 'object', properties: { items: { type: 'array', items: { $ref: '#/components/schemas/Item' } } } },
          { type: 'object', properties: { note: { oneOf: [{ type: 'string', maxLength: 10 }, { type: 'null' }] } } },
        ],
      },
    },
  },
};

describe('findPropertySchema', () => {
  it.each([
    [['items', '0', 'name'], 'Escriba un nombre.'],
    [['items', '3', 'dose'], undefined],
    [['missing'], undefined],
  ])('finds %j through allOf, arrays and references', (path, message) => {
    const found = findPropertySchema(doc, { $ref: '#/components/schemas/Bulk' }, path);
    if (path[0] === 'missing') expect(found).toBeUndefined();
    else expect(found?.['x-message']).toBe(message);
  });

  it('reads the rule of a nullable alternative on its non-null side', () => {
    expect(findPropertySchema(doc, doc.components.schemas.Bulk, ['note'])?.maxLength).toBe(10);
  });
});

describe('resolveSchema', () => {
  it('merges allOf and folds a null alternative into nullable', () => {
    const { schema } = resolveSchema(doc, doc.components.schemas.Bulk);
    expect(Object.keys(schema.properties ?? {})).toEqual(['items', 'note']);
    expect(resolveSchema(doc, schema.properties!.note)).toEqual({ schema: { type: 'string', maxLength: 10 }, nullable: true });
  });
});

describe('ruleMessage', () => {
  const name = doc.components.schemas.Name;
  const plain: JsonSchema = { type: 'integer', minimum: 1, maximum: 7 };
  it.each([
    ['required', plain, MESSAGES.required],
    ['additionalProperties', plain, "El campo 'campo' no está permitido."],
    ['type', plain, 'Debe ser un número entero.'],
    ['type', name, 'Escriba un nombre.'],
    ['maxLength', name, 'Escriba un nombre.'],
    ['minimum', plain, 'Debe ser mayor o igual a 1.'],
    ['maximum', plain, 'Debe ser menor o igual a 7.'],
    ['maxLength', { type: 'string', maxLength: 5 }, 'Debe tener máximo de 5 caracteres'],
    ['minLength', { type: 'string', minLength: 1 }, MESSAGES.required],
    ['enum', doc.components.schemas.Dose, 'Valor no permitido. Opciones: Media, Una.'],
    ['format', { type: 'string', format: 'date' }, 'La fecha no es válida (formato AAAA-MM-DD).'],
    ['format', { type: 'string', format: 'email' }, MESSAGES.email],
    ['nonsense', plain, 'El valor no es válido.'],
  ] as const)('%s on %j', (keyword, schema, message) => {
    expect(ruleMessage(keyword, schema as JsonSchema, 'campo')).toBe(message);
  });
});

describe('withValueRanges (issue 18)', () => {
  it.each([
    ['integer without a range', { type: 'integer' }, { minimum: -2_147_483_648, maximum: 2_147_483_647 }],
    ['nullable integer', { type: ['integer', 'null'] }, { minimum: -2_147_483_648, maximum: 2_147_483_647 }],
    ['declared range kept', { type: 'integer', minimum: 1, maximum: 100 }, { minimum: 1, maximum: 100 }],
    [
      'a declared maximum above 32 bits is clamped',
      { type: 'integer', minimum: 1, maximum: 9007199254740991 },
      { minimum: 1, maximum: 2_147_483_647 },
    ],
    [
      'an int64 id clamped to 2^53-1',
      { type: 'integer', format: 'int64', minimum: 1, maximum: 1e300 },
      { minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
    ],
    ['number without a range', { type: 'number' }, { minimum: -1e15, maximum: 1e15 }],
    ['exclusiveMinimum left alone', { type: 'number', exclusiveMinimum: 0 }, { maximum: 1e15 }],
    ['strings untouched', { type: 'string' }, {}],
  ])('%s', (_n, schema, expected) => {
    const out = withValueRanges({ components: { schemas: { X: schema } } }).components.schemas.X as Record<string, unknown>;
    expect({ minimum: out.minimum, maximum: out.maximum }).toEqual({ minimum: undefined, maximum: undefined, ...expected });
  });

  it('does not change its argument', () => {
    const doc = { a: { type: 'integer' } };
    withValueRanges(doc);
    expect(doc).toEqual({ a: { type: 'integer' } });
  });
});
