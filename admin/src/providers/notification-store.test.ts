import { beforeEach, describe, expect, it } from 'vitest';
import { notificationStore, type StoredNotification } from './notification-store';

const note = (key: string, type: StoredNotification['type'] = 'success'): StoredNotification => ({
  key,
  type,
  message: `mensaje ${key}`,
  show: true,
});

describe('notification store (03 §2)', () => {
  beforeEach(() => notificationStore.clear());

  it('appends notifications and returns their index', () => {
    expect(notificationStore.append(note('a'))).toBe(0);
    expect(notificationStore.append(note('b', 'error'))).toBe(1);
    expect(notificationStore.getState().items.map((n) => n.key)).toEqual(['a', 'b']);
  });

  it('removes by index', () => {
    ['a', 'b', 'c'].forEach((k) => notificationStore.append(note(k)));
    notificationStore.removeAt(1);
    expect(notificationStore.getState().items.map((n) => n.key)).toEqual(['a', 'c']);
    notificationStore.removeAt(7);
    expect(notificationStore.getState().items).toHaveLength(2);
  });

  it('replaces a notification opened again with the same key', () => {
    notificationStore.append(note('a'));
    notificationStore.append({ ...note('a'), message: 'otra vez' });
    expect(notificationStore.getState().items).toEqual([{ ...note('a'), message: 'otra vez' }]);
  });

  it.each([
    [1, false],
    [2, false],
    [3, true],
  ])('with %i open the list dialog shows: %s', (count, overflow) => {
    for (let i = 0; i < count; i++) notificationStore.append(note(`n${i}`));
    expect(notificationStore.getState().overflow).toBe(overflow);
  });

  it('keeps the dialog until the list is emptied or cleared', () => {
    ['a', 'b', 'c'].forEach((k) => notificationStore.append(note(k)));
    notificationStore.removeAt(0);
    expect(notificationStore.getState().overflow).toBe(true);
    notificationStore.clear();
    expect(notificationStore.getState()).toEqual({ items: [], overflow: false });
  });

  it('tells subscribers about every change', () => {
    let calls = 0;
    const unsubscribe = notificationStore.subscribe(() => calls++);
    notificationStore.append(note('a'));
    notificationStore.removeAt(0);
    unsubscribe();
    notificationStore.append(note('b'));
    expect(calls).toBe(2);
  });
});
