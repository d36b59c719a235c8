import { describe, expect, it } from 'vitest';
import { codeOptions } from './users';

describe("'Profesión (RETHUS)' options (issue 51)", () => {
  it('keeps the code as the value and tells apart the names RETHUS gives twice', () => {
    expect(codeOptions({ data: { P07: 'Medicina', '001': 'Enfermería', '003': 'Medicina' } })).toEqual([
      { value: '001', label: 'Enfermería' },
      { value: '003', label: 'Medicina (código 003)' },
      { value: 'P07', label: 'Medicina (código P07)' },
    ]);
  });
});
