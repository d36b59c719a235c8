import { describe, expect, it } from 'vitest';
import { conditionDialogMode, conditionDialogTitle, removalEffect, shouldSearchConditions } from './conditions';

describe('condition search (01 §5: from 3 characters)', () => {
  it.each([
    ['', false],
    ['hi', false],
    ['  hi ', false],
    ['hip', true],
    ['diabetes', true],
  ])('%j → %s', (text, yes) => expect(shouldSearchConditions(text)).toBe(yes));
});

describe('removal (01 §4)', () => {
  it.each([
    [1, 'switch_off'],
    [0, 'delete'],
  ] as const)('priority %i → %s', (priority, effect) => expect(removalEffect(priority)).toBe(effect));
});

describe('dialog titles (01 §2)', () => {
  it.each([
    [{ active: true, priority: 1, hasRecord: true }, 'Editar ASMA'],
    [{ active: true, priority: 0, hasRecord: true }, 'Editar ASMA'],
    [{ active: false, priority: 1, hasRecord: true }, 'Activar ASMA'],
    [{ active: false, priority: 1, hasRecord: false }, 'Activar ASMA'],
    [{ active: false, priority: 0, hasRecord: false }, 'Agregar ASMA'],
  ])('%j → %s', (c, title) => expect(conditionDialogTitle(conditionDialogMode(c), 'ASMA')).toBe(title));
});
