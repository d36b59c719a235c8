import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/** A module fetched once, whose value is at hand, without waiting, once it has arrived. */
export interface ModuleLoad<M> {
  /** Starts the fetch (once; again after a failure) and answers the module. */
  load(): Promise<M>;
  /** The module, once it has arrived. */
  loaded(): M | undefined;
}

export function moduleLoad<M>(importer: () => Promise<M>): ModuleLoad<M> {
  let value: M | undefined;
  let pending: Promise<M> | undefined;
  return {
    load: () =>
      (pending ??= importer().then(
        (module) => (value = module),
        (error: unknown) => {
          pending = undefined;
          throw error;
        },
      )),
    loaded: () => value,
  };
}

/**
 * React.lazy over a ModuleLoad, rendering at once a module that has already arrived (the route's
 * preload started it: route-preload.ts). React.lazy given a promise suspends at least once even
 * when the module is in, since a promise answers in a later tick; React 19 then shows the nearest
 * fallback and holds the reveal of what suspended until 300 ms after the last fallback shown
 * (its FALLBACK_THROTTLE_MS). The patient page opened on Signos went through four such boundaries
 * (the signed-in shell, the page, the tab, the chart) and the page's idle time between its work
 * was most of the wait for the charts (issue 52). A thenable that answers synchronously is taken
 * by React.lazy in the same render.
 */
export function lazyLoaded<P extends object>(module: ModuleLoad<{ default: ComponentType<P> }>): LazyExoticComponent<ComponentType<P>> {
  return lazy(() => {
    const arrived = module.loaded();
    if (!arrived) return module.load();
    const answered = { then: (resolve: (value: { default: ComponentType<P> }) => void) => resolve(arrived) };
    return answered as unknown as Promise<{ default: ComponentType<P> }>;
  });
}
