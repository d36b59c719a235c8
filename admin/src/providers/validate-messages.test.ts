import esES from 'antd/lib/locale/es_ES';
import { describe, expect, it } from 'vitest';
import { VALIDATE_MESSAGES } from './validate-messages';

const leaves = (o: object, prefix = ''): string[] =>
  Object.entries(o).flatMap(([k, v]) => (v && typeof v === 'object' ? leaves(v as object, `${prefix}${k}.`) : [`${prefix}${k}`]));

describe('VALIDATE_MESSAGES', () => {
  it("replaces every one of antd's es_ES messages, so none of its 'Por favor, rellena' shows", () => {
    expect(leaves(VALIDATE_MESSAGES).sort()).toEqual(leaves(esES.Form?.defaultValidateMessages ?? {}).sort());
  });
});
