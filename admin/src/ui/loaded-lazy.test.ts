import { createElement, lazy, Suspense, type ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { lazyLoaded, moduleLoad } from './loaded-lazy';

const Page: ComponentType<{ name: string }> = ({ name }) => createElement('h1', null, name);
const rendered = (C: ComponentType<{ name: string }>) =>
  renderToString(createElement(Suspense, { fallback: createElement('p', null, 'cargando') }, createElement(C, { name: 'Juliana' })));

describe('moduleLoad: a file fetched once', () => {
  it('fetches once, and has the module at hand once it has arrived', async () => {
    let fetched = 0;
    const file = moduleLoad(async () => ({ default: Page, n: ++fetched }));
    expect(file.loaded()).toBeUndefined();
    const [a, b] = await Promise.all([file.load(), file.load()]);
    expect(a).toBe(b);
    expect(fetched).toBe(1);
    expect(file.loaded()).toBe(a);
  });

  it('fetches again after a failure (a file that could not be fetched is not kept)', async () => {
    let calls = 0;
    const file = moduleLoad(async () => {
      calls += 1;
      if (calls === 1) throw new Error('sin conexión');
      return { default: Page };
    });
    await expect(file.load()).rejects.toThrow('sin conexión');
    expect(file.loaded()).toBeUndefined();
    await expect(file.load()).resolves.toEqual({ default: Page });
    expect(calls).toBe(2);
  });
});

describe('lazyLoaded: a component whose file has arrived renders without suspending', () => {
  it.each([
    ['arrived before the first render: rendered in the same pass', true, '<h1>Juliana</h1>', 'cargando'],
    ['not arrived: the fallback, as React.lazy', false, '<p>cargando</p>', 'Juliana'],
  ])('%s', async (_name, arrived, shown, absent) => {
    const file = moduleLoad(async () => ({ default: Page }));
    if (arrived) await file.load();
    const html = rendered(lazyLoaded(file));
    expect(html).toContain(shown);
    expect(html).not.toContain(absent);
  });

  it('is needed: React.lazy given a module that has arrived still suspends once', async () => {
    const arrived = Promise.resolve({ default: Page });
    await arrived;
    expect(rendered(lazy(() => arrived))).toContain('cargando');
  });
});
