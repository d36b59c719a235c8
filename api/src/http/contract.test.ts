import { describe, it, expect } from 'vitest';
import { findPropertySchema, ruleMessage, type JsonSchema } from '@vigia/contract/rules/schema';
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import YAML from 'yaml';
import {
  contractValidatorOptions,
  createContractValidator,
  loadContract,
  parseContract,
  schemaPreprocessorClass,
  validatorRequire,
} from './contract';

const { doc } = loadContract();
const schema = (name: string) => ({ $ref: `#/components/schemas/${name}` });

describe('parseContract', () => {
  it('reads openapi.yaml exactly as the yaml package reads it (no timestamps, same numbers and strings)', () => {
    const text = readFileSync(new URL('../../../openapi.yaml', import.meta.url), 'utf8');
    expect(parseContract(text)).toStrictEqual(YAML.parse(text));
  });

  it.each([
    ['a date stays text', 'example: 2026-02-30', { example: '2026-02-30' }],
    ['a time stamp stays text', 'example: 2026-01-01T10:00:00Z', { example: '2026-01-01T10:00:00Z' }],
    ['yes and no stay text', 'a: yes\nb: no', { a: 'yes', b: 'no' }],
    ['a number with a leading zero', 'code: 0012', { code: 12 }],
    ['quoted digits stay text', "code: '0012'", { code: '0012' }],
  ])('%s', (_, text, value) => {
    expect(parseContract(text)).toStrictEqual(value);
    expect(parseContract(text)).toStrictEqual(YAML.parse(text));
  });
});

describe('findPropertySchema', () => {
  it('follows $ref, allOf and nullable oneOf to the property', () => {
    expect(findPropertySchema(doc, schema('SessionInput'), ['email'])?.format).toBe('email');
    expect(findPropertySchema(doc, schema('PatientInput'), ['cellphone'])?.pattern).toBe('^[0-9]{7,11}$');
    expect(findPropertySchema(doc, schema('Session'), ['token'])?.type).toBe('string');
    expect(findPropertySchema(doc, schema('PatientInput'), ['tag_ids', '0'])?.type).toBe('integer');
    expect(findPropertySchema(doc, schema('PatientInput'), ['nope'])).toBeUndefined();
  });
});

describe('ruleMessage', () => {
  const prop = (name: string, field: string) => findPropertySchema(doc, schema(name), [field]);
  it.each([
    ['required', prop('SessionInput', 'email'), 'email', '¡El campo es requerido!'],
    ['format', prop('SessionInput', 'email'), 'email', '¡El formato de correo no es válido!'],
    ['minLength', prop('SessionInput', 'password'), 'password', 'Mínimo 8 caracteres'],
    ['pattern', prop('PatientInput', 'cellphone'), 'cellphone', '¡Ingrese solo números y un máximo de 11 caracteres!'],
    ['type', prop('PatientInput', 'country_id'), 'country_id', 'Debe ser un número entero.'],
    [
      'enum',
      prop('TagInput', 'color'),
      'color',
      'Valor no permitido. Opciones: Negro, Rojo, Rosa, Morado, Índigo, Azul, Verde claro, Ámbar, Naranja, Gris azulado.',
    ],
    ['maxLength', { type: 'string', maxLength: 200 }, 'x', 'Debe tener máximo de 200 caracteres'],
    ['minLength', { type: 'string', minLength: 1 }, 'x', '¡El campo es requerido!'],
    ['minimum', { type: 'integer', minimum: 1 }, 'x', 'Debe ser mayor o igual a 1.'],
    ['additionalProperties', undefined, 'rol', "El campo 'rol' no está permitido."],
    ['minProperties', undefined, 'body', 'Envíe al menos un campo para actualizar.'],
    ['format', { type: 'string', format: 'date' }, 'd', 'La fecha no es válida (formato AAAA-MM-DD).'],
  ])('%s on %j → %s', (keyword, s, field, expected) => {
    expect(ruleMessage(keyword, s as JsonSchema | undefined, field)).toBe(expected);
  });
});

describe("the validator's pre-processing, references read without compiling them", () => {
  const { OpenApiValidator } = validatorRequire()('./openapi.validator') as {
    OpenApiValidator: new (options: unknown) => { ajvOpts: { preprocessor: unknown } };
  };
  createContractValidator(doc);
  const Preprocessor = schemaPreprocessorClass();
  const ajvOptions = new OpenApiValidator(contractValidatorOptions(doc)).ajvOpts.preprocessor;
  const preprocess = (compiling: boolean) => {
    const sp = new Preprocessor(structuredClone(doc), ajvOptions, false);
    if (compiling) sp.resolveSchema = Preprocessor.prototype.compilingResolveSchema!;
    const { apiDoc } = sp.preProcess();
    const compiled = Object.values(sp.ajv.schemas).filter((env) => (env as { validate?: unknown }).validate).length;
    return { apiDoc, compiled, resolved: sp.resolvedSchemaCache.size };
  };

  it("gives openapi.yaml the same shape as the validator's own resolveSchema, compiling nothing", () => {
    const own = preprocess(true);
    const ours = preprocess(false);
    expect(own.resolved).toBeGreaterThan(100);
    expect(ours.resolved).toBe(own.resolved);
    expect(isDeepStrictEqual(ours.apiDoc, own.apiDoc)).toBe(true);
    expect(own.compiled).toBeGreaterThan(100);
    expect(ours.compiled).toBe(0);
  });
});
