import { describe, it, expect } from 'vitest';
import { Ajv2020, type KeywordDefinition } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { loadContract } from './contract';

/**
 * Every schema of openapi.yaml compiles with Ajv in strict mode (issues 18 and 41), every strict
 * check on, in the JSON Schema dialect OpenAPI 3.1 names (2020-12: `unevaluatedProperties` is one
 * of its keywords, unknown to Ajv's draft-07 default). A key that is not a keyword fails, such as the `D20)` key
 * an unquoted comma in a flow-style description leaves behind. The contract's own keywords are
 * declared below, each with the one type of value it takes: `x-read-only` held `true` on some
 * fields and `live` on others, which no declaration of one keyword could accept.
 * `allowUnionTypes`: the four `type: [integer, string]`-style unions are deliberate (an external
 * id, a reading's value); Ajv's strict mode asks for that to be said, and it is said here.
 */
const VENDOR_KEYWORDS: KeywordDefinition[] = [
  { keyword: 'x-labels', metaSchema: { type: 'object', additionalProperties: { type: 'string', minLength: 1 } } },
  { keyword: 'x-message', metaSchema: { type: 'string', minLength: 1 } },
  { keyword: 'x-read-only', metaSchema: { const: true } },
  { keyword: 'x-live', metaSchema: { const: true } },
];

const { doc } = loadContract();
const components = (doc as unknown as { components: { schemas: Record<string, unknown> } }).components;

/** Every `schema` outside components.schemas (parameters, bodies, responses, headers), by its JSON pointer. */
function inlineSchemas(node: unknown, pointer: string, found: Array<[string, unknown]>): Array<[string, unknown]> {
  if (!node || typeof node !== 'object') return found;
  for (const [key, value] of Object.entries(node)) {
    const at = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (at === '#/components/schemas') continue;
    if (key === 'schema' && value && typeof value === 'object') found.push([at, value]);
    else inlineSchemas(value, at, found);
  }
  return found;
}

/** The contract's extension keywords, wherever they appear. */
function extensionKeywords(node: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) node.forEach((n) => extensionKeywords(n, found));
  else if (node && typeof node === 'object')
    for (const [key, value] of Object.entries(node)) {
      if (key.startsWith('x-')) found.add(key);
      extensionKeywords(value, found);
    }
  return found;
}

/** `#/components/schemas/X` read from the shared schema `contract`. */
const rebase = (schema: unknown): unknown =>
  JSON.parse(JSON.stringify(schema).replace(/"#\/components\/schemas\//g, '"contract#/definitions/'));

function strictAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true, logger: false });
  addFormats.default(ajv);
  for (const keyword of VENDOR_KEYWORDS) ajv.addKeyword(keyword);
  ajv.addSchema({ $id: 'contract', definitions: rebase(components.schemas) as Record<string, unknown> });
  return ajv;
}

/** The extension keywords used inside schemas (operation-level ones such as `x-audit` are not schema keywords). */
function schemaExtensions(): Set<string> {
  const found = new Set<string>();
  for (const schema of [components.schemas, ...inlineSchemas(doc, '#', []).map(([, s]) => s)]) extensionKeywords(schema, found);
  return found;
}

describe('openapi.yaml schemas in Ajv strict mode', () => {
  const ajv = strictAjv();

  it.each(Object.keys(components.schemas))('components.schemas.%s compiles', (name) => {
    expect(() => ajv.getSchema(`contract#/definitions/${name}`)).not.toThrow();
  });

  const inline = inlineSchemas(doc, '#', []);
  it('finds the inline schemas of parameters, bodies and responses', () => {
    expect(inline.length).toBeGreaterThan(200);
  });
  it.each(inline)('%s compiles', (_pointer, schema) => {
    expect(() => ajv.compile(rebase(schema) as object)).not.toThrow();
  });

  it('rejects a key left by an unquoted comma', () => {
    // What `{ type: boolean, description: guardada (nunca se devuelve, D20) }` parsed to before the fix.
    const broken = { type: 'boolean', description: 'guardada (nunca se devuelve', 'D20)': null };
    expect(() => strictAjv().compile(broken)).toThrow(/unknown keyword: "D20\)"/);
  });

  it.each([
    [{ type: 'integer', 'x-read-only': 'live' }, /x-read-only/],
    [{ type: 'string', 'x-message': 12 }, /x-message/],
    [{ type: 'integer', enum: [0, 1], 'x-labels': { '0': 1 } }, /x-labels/],
    [{ type: 'string', 'x-solo-lectura': true }, /unknown keyword: "x-solo-lectura"/],
  ])('refuses the vendor keyword in %j', (schema, error) => {
    expect(() => strictAjv().compile(schema)).toThrow(error);
  });
});

describe('vendor keywords', () => {
  it('every x- keyword inside a schema of openapi.yaml is declared with its value type', () => {
    expect([...schemaExtensions()].sort()).toEqual(VENDOR_KEYWORDS.map((k) => k.keyword).sort());
  });
});
