import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import Schema from '@rc-component/async-validator';
import {
  describeField,
  enumLabel,
  listCapabilities,
  objectSchema,
  OPTION_MESSAGE,
  REQUIRED_MESSAGE,
  resolveSchema,
  toFormRules,
  toRequestBody,
  type DescribeOptions,
  type OpenApiDocument,
} from './schema-rules';

const contract = parse(readFileSync(new URL('../../../openapi.yaml', import.meta.url), 'utf8')) as OpenApiDocument;

const create: DescribeOptions = { action: 'create' };
const editTag: DescribeOptions = { action: 'edit', recordSchema: objectSchema(contract, 'Tag') };

/** Runs the rules through the validator antd's Form uses; returns the first message or null. */
async function firstError(rules: ReturnType<typeof toFormRules>, value: unknown): Promise<string | null> {
  const validator = new Schema({ field: rules as never });
  try {
    await validator.validate({ field: value }, { first: true });
    return null;
  } catch (failure) {
    const errors = (failure as { errors?: { message: string }[] }).errors;
    if (!errors) throw failure;
    return errors[0]?.message ?? null;
  }
}

function doc(schemas: OpenApiDocument['components']['schemas']): OpenApiDocument {
  return { openapi: '3.1.0', paths: {}, components: { schemas } };
}

describe('describeField reads the field from the contract', () => {
  it.each([
    [
      'TagInput',
      'name',
      create,
      {
        kind: 'string',
        required: true,
        minLength: 3,
        maxLength: 50,
        widget: 'text',
        message: 'Debe tener mínimo 3 caracteres y máximo 50',
      },
    ],
    ['TagInput', 'color', create, { kind: 'string', required: true, widget: 'select', nullable: false }],
    ['TagUpdate', 'name', create, { required: false }],
    ['TagUpdate', 'name', editTag, { required: true }],
    ['TagUpdate', 'color', editTag, { required: true }],
    ['FeedbackInput', 'qualification', create, { kind: 'integer', nullable: true, required: false, widget: 'radio' }],
    ['FeedbackInput', 'message', create, { kind: 'string', nullable: true, maxLength: 600, widget: 'textarea' }],
    ['PatientInput', 'email', create, { format: 'email', nullable: true, widget: 'email', message: '¡El formato de correo no es válido!' }],
    ['PatientInput', 'cellphone', create, { pattern: '^[0-9]{7,11}$', nullable: true, widget: 'text' }],
    ['PatientInput', 'birth_date', create, { required: true, widget: 'date' }],
    ['PatientInput', 'id_type', create, { kind: 'integer', minimum: 1, widget: 'number' }],
    ['PatientInput', 'tag_ids', create, { kind: 'array', maxItems: 50, widget: 'multi-select' }],
    ['PatientInput', 'gender', create, { kind: 'integer', widget: 'radio' }],
    ['PatientInput', 'city_id', create, { kind: 'integer', nullable: true, required: false }],
    ['SessionInput', 'password', create, { required: true, minLength: 8, widget: 'password', message: 'Mínimo 8 caracteres' }],
    [
      'ClientSettingsInput',
      'escalation_minutes',
      create,
      { kind: 'integer', minimum: 5, maximum: 1440, widget: 'number', message: 'Debe estar entre 5 y 1440 minutos' },
    ],
  ] as const)('%s.%s (%o)', (schema, field, options, expected) => {
    expect(describeField(contract, schema, field, options)).toMatchObject(expected);
  });

  it('labels enum options with x-labels', () => {
    const color = describeField(contract, 'TagInput', 'color');
    expect(color.options).toHaveLength(10);
    expect(color.options).toContainEqual({ value: 'red', label: 'Rojo' });
    expect(color.options).toContainEqual({ value: 'blue-grey', label: 'Gris azulado' });
    expect(describeField(contract, 'FeedbackInput', 'qualification').options).toEqual([
      { value: 1, label: 'Positiva' },
      { value: 2, label: 'Normal' },
      { value: 3, label: 'Negativa' },
    ]);
  });

  it('falls back to the raw value when an enum has no label', () => {
    expect(enumLabel({ enum: ['a'] }, 'a')).toBe('a');
    expect(enumLabel(contract.components.schemas.RoleName, 'enfermeria')).toBe('Enfermería');
  });

  it('refuses a field the schema does not have', () => {
    expect(() => describeField(contract, 'TagInput', 'patients_count')).toThrow(/no tiene el campo/);
  });
});

describe('toFormRules gives the API’s limits and messages', () => {
  const cases: [string, string, DescribeOptions, unknown, string | null][] = [
    ['TagInput', 'name', create, undefined, REQUIRED_MESSAGE],
    ['TagInput', 'name', create, '   ', REQUIRED_MESSAGE],
    ['TagInput', 'name', create, 'ab', 'Debe tener mínimo 3 caracteres y máximo 50'],
    ['TagInput', 'name', create, ' ab ', 'Debe tener mínimo 3 caracteres y máximo 50'],
    ['TagInput', 'name', create, 'x'.repeat(51), 'Debe tener mínimo 3 caracteres y máximo 50'],
    ['TagInput', 'name', create, 'Diabetes tipo 2', null],
    ['TagInput', 'color', create, undefined, REQUIRED_MESSAGE],
    ['TagInput', 'color', create, 'green', OPTION_MESSAGE],
    ['TagInput', 'color', create, 'light-green', null],
    ['TagUpdate', 'name', editTag, '', REQUIRED_MESSAGE],
    ['FeedbackInput', 'qualification', create, undefined, null],
    ['FeedbackInput', 'qualification', create, 4, OPTION_MESSAGE],
    ['FeedbackInput', 'message', create, 'x'.repeat(601), 'Debe tener máximo de 600 caracteres'],
    ['FeedbackInput', 'message', create, 'x'.repeat(600), null],
    ['PatientInput', 'cellphone', create, '', null],
    ['PatientInput', 'cellphone', create, '123456', '¡Ingrese solo números y un máximo de 11 caracteres!'],
    ['PatientInput', 'cellphone', create, '3001234567', null],
    ['PatientInput', 'email', create, 'ana@clinica', '¡El formato de correo no es válido!'],
    ['PatientInput', 'email', create, 'ana@clinica.co', null],
    ['PatientInput', 'first_name', create, 'Ana3', 'Solo letras y espacios, entre 3 y 50 caracteres'],
    ['PatientInput', 'first_name', create, 'José Ñúñez', null],
    ['PatientInput', 'nid', create, '', REQUIRED_MESSAGE],
    ['PatientInput', 'nid', create, '1.020-304', null],
    ['PatientInput', 'nid', create, '10#20', '¡El valor ingresado no es válido o está incompleto!'],
    ['PatientInput', 'id_type', create, 0, 'Debe ser mayor o igual a 1'],
    ['PatientInput', 'id_type', create, 1.5, 'Ingrese un número entero'],
    ['PatientInput', 'id_type', create, 2, null],
    ['PatientInput', 'prefix', create, '57', '¡El valor ingresado no es válido o está incompleto!'],
    ['PatientInput', 'prefix', create, '+57', null],
  ];

  it.each(cases)('%s.%s (%o) with %j → %j', async (schema, field, options, value, expected) => {
    const rules = toFormRules(describeField(contract, schema, field, options));
    expect(await firstError(rules, value)).toBe(expected);
  });

  it.each([
    ['http://hooks.example.org', '¡El formato de la URL no es válido!'],
    ['https://hooks.example.org/vigia', null],
  ])('a uri field with %j → %j', async (value, expected) => {
    const d = doc({ Hook: { type: 'object', properties: { url: { type: 'string', format: 'uri' } } } });
    expect(await firstError(toFormRules(describeField(d, 'Hook', 'url')), value)).toBe(expected);
  });

  it('prefers x-message over the default text', async () => {
    const d = doc({
      A: { type: 'object', properties: { n: { type: 'integer', maximum: 5, 'x-message': 'Máximo cinco' } } },
    });
    expect(await firstError(toFormRules(describeField(d, 'A', 'n')), 6)).toBe('Máximo cinco');
  });
});

describe('resolveSchema', () => {
  it('merges allOf (Session = Profile + token)', () => {
    const session = objectSchema(contract, 'Session');
    expect(Object.keys(session.properties ?? {})).toEqual(expect.arrayContaining(['token', 'first_name', 'client_name']));
    expect(session.required).toEqual(expect.arrayContaining(['token', 'message', 'user_id']));
  });

  it.each([
    [{ type: ['string', 'null'] }, 'string', true],
    [{ oneOf: [{ $ref: '#/components/schemas/Email' }, { type: 'null' }] }, 'string', true],
    [{ $ref: '#/components/schemas/TagColor' }, 'string', false],
    [{ type: ['integer', 'null'], enum: [1, 2, 3, null] }, 'integer', true],
  ])('%j → type %s, nullable %s', (schema, type, nullable) => {
    const resolved = resolveSchema(contract, schema);
    expect(resolved.schema.type).toBe(type);
    expect(resolved.nullable).toBe(nullable);
  });
});

describe('toRequestBody', () => {
  const specs = (schema: string, fields: string[]) => fields.map((f) => describeField(contract, schema, f));

  it.each([
    [
      'trims and drops unknown fields',
      'TagInput',
      ['name', 'color'],
      { name: '  Diabetes ', color: 'red', patients_count: 3 },
      { name: 'Diabetes', color: 'red' },
    ],
    [
      'sends null for an emptied nullable field',
      'FeedbackInput',
      ['qualification', 'message'],
      { qualification: undefined, message: '' },
      { qualification: null, message: null },
    ],
    ['leaves out an emptied non-nullable field', 'PatientUpdate', ['nid', 'address'], { nid: '', address: ' ' }, { address: null }],
    ['keeps fields the form did not touch out of the body', 'TagUpdate', ['name', 'color'], { color: 'amber' }, { color: 'amber' }],
    ['turns numeric text into numbers', 'PatientInput', ['id_type'], { id_type: '2' }, { id_type: 2 }],
  ])('%s', (_title, schema, fields, values, expected) => {
    expect(toRequestBody(specs(schema, fields), values)).toEqual(expected);
  });
});

describe('listCapabilities reads GET /<resource> parameters', () => {
  it('tags: sortable columns and the colour filter', () => {
    const { sortable, filters } = listCapabilities(contract, 'tags');
    expect(sortable).toEqual(['id', 'name', 'color', 'created_at']);
    expect(Object.keys(filters)).toEqual(expect.arrayContaining(['q', 'color']));
    expect(filters.color.enum).toContain('amber');
  });

  it('an unknown resource has no capabilities', () => {
    expect(listCapabilities(contract, 'nothing')).toEqual({ sortable: [], filters: {} });
  });
});
