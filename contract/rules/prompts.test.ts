import { describe, expect, it } from 'vitest';
import { canUpdatePrompt, truncateText, validatePromptText, PROMPT_MESSAGES } from './prompts';

describe('AI instruction text (01 §5: required, longer than 2 characters)', () => {
  it.each([
    ['', PROMPT_MESSAGES.required],
    ['   ', PROMPT_MESSAGES.required],
    [null, PROMPT_MESSAGES.required],
    ['ab', PROMPT_MESSAGES.tooShort],
    [' ab ', PROMPT_MESSAGES.tooShort],
    ['abc', null],
    ['x'.repeat(4000), null],
    ['x'.repeat(4001), PROMPT_MESSAGES.tooLong],
  ])('%j → %s', (text, message) => expect(validatePromptText(text)).toBe(message));
});

describe('display cut (01 §9: 500 characters)', () => {
  it.each([
    ['abc', 3, 'abc'],
    ['abcd', 3, 'abc...'],
    ['x'.repeat(500), 500, 'x'.repeat(500)],
    ['x'.repeat(501), 500, `${'x'.repeat(500)}...`],
  ])('%j cut at %i', (text, max, out) => expect(truncateText(text, max)).toBe(out));
});

describe('only the active instruction can be edited (01 §2)', () => {
  it.each([
    [1, { text: 'nuevo' }, true],
    [0, { text: 'nuevo' }, false],
    [0, { status: 1 }, true],
    [0, { status: 1, text: 'nuevo' }, true],
    [1, { status: 0 }, true],
    [0, { status: 0 }, true],
  ])('status %i, change %j → %s', (status, change, ok) => expect(canUpdatePrompt(status, change)).toBe(ok));
});
