import { describe, expect, it } from 'vitest';
import { cleanStatement, normaliseIcd10 } from './history';

describe('cleanStatement (what the patient states)', () => {
  it.each([
    ['  Penicilina  ', 'Penicilina'],
    ['Penicilina:   urticaria\n generalizada', 'Penicilina: urticaria generalizada'],
    ['   ', ''],
  ])('%j → %j', (text, clean) => expect(cleanStatement(text)).toBe(clean));
});

describe('normaliseIcd10 (ICD-10 CO: capitals, no dot)', () => {
  it.each([
    ['I10X', 'I10X'],
    ['e11.9', 'E119'],
    [' I10 ', 'I10'],
    ['E11900', null],
    ['10X', null],
    ['', null],
    [null, null],
    [undefined, null],
  ])('%j → %j', (text, code) => expect(normaliseIcd10(text)).toBe(code));
});
