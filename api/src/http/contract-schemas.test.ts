import { describe, it, expect } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { loadContract } from './contract';

/**
 * Every schema of openapi.yaml compiles with Ajv in strict mode (issue 18): a key that is not a JSON
 * Schema keyword fails, such as the `D20)` key an unquoted comma in a flow-style description leaves
 * behind (`{ description: guardada (nunca se devuelve, D20) }`). The contract's own keywords
 * (`x-labels`, `x-message`, any other `x-`) are declared as vocabulary.
 */

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
const rebase = (schema: unknown): unknown => JSON.parse(JSON.stringify(schema).replace(/"#\/components\/schemas\//g, '"contract#/$defs/'));

function strictAjv(): Ajv2020 {
  // Strict mode, less strictTypes: the contract's `type: [string, number]` unions and `minProperties`
  // beside an `allOf` are deliberate; an unknown keyword (a junk key) still fails.
  const ajv = new Ajv2020({ strict: true, strictTypes: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addVocabulary([...extensionKeywords(doc)]);
  ajv.addSchema({ $id: 'contract', $defs: rebase(components.schemas) as Record<string, unknown> });
  return ajv;
}

describe('openapi.yaml schemas in Ajv strict mode', () => {
  const ajv = strictAjv();

  it.each(Object.keys(components.schemas))('components.schemas.%s compiles', (name) => {
    expect(() => ajv.getSchema(`contract#/$defs/${name}`)).not.toThrow();
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
});
