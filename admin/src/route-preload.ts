import { readToken } from './session';

/**
 * Issue 52: a page opened directly (a bookmark, a link of a notification, a reload) starts fetching
 * the files it will need at once, beside the entry's own start, instead of one after the other: the
 * signed-in shell, then the page, then its first tab and the charting library were each asked for
 * only once the one before had arrived and run (four steps before the first chart). Each module
 * still runs where it is imported; this only has the browser hold it ready. Nothing is fetched for
 * a visitor without a session (the route guard sends them to the sign-in page).
 */
type Preload = { path: RegExp; load: (query: URLSearchParams) => Array<Promise<unknown>> };

const PRELOADS: Preload[] = [
  {
    // The patient page; opened on Signos (its first tab, and ?tab=signs) also the tab and its charts.
    path: /^\/patients\/\d+\/?$/,
    load: (query) => [
      import('./AppShell'),
      import('./pages/patients/PatientPage'),
      // The Signos tab's own files (PatientTabs' loader for 'signs'), named here rather than through
      // PatientTabs: importing that module from the entry split it out of the page's chunk.
      ...((query.get('tab') ?? 'signs') === 'signs'
        ? [import('./pages/patients/tabs/MeasurementsTab'), import('./charts/MeasurementChart')]
        : []),
    ],
  },
];

export function preloadRoute(pathname: string, search: string): void {
  if (!readToken()) return;
  const match = PRELOADS.find((p) => p.path.test(pathname));
  // A failed preload changes nothing: the page's own lazy import asks again and shows its error.
  for (const started of match?.load(new URLSearchParams(search)) ?? []) started.catch(() => undefined);
}
