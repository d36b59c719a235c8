import { API_URL } from './constants';
import { startEarlyRead, urlWithQuery } from './providers/early-reads';
import { readToken } from './session';

/**
 * Issue 52: a page opened directly (a bookmark, a link of a notification, a reload) starts fetching
 * the files it will need at once, beside the entry's own start, instead of one after the other: the
 * signed-in shell, then the page, then its first tab and the charting library were each asked for
 * only once the one before had arrived and run (four steps before the first chart). Each module
 * still runs where it is imported; this only has the browser hold it ready. Its first reads leave
 * now too (providers/early-reads.ts): the session's profile and the record went out only after the
 * shell and the page had rendered. Nothing is fetched for a visitor without a session (the route
 * guard sends them to the sign-in page).
 */
type Preload = { path: RegExp; load: (match: RegExpExecArray, query: URLSearchParams) => Array<Promise<unknown>> };

/** The signed-in shell's first read, whatever the page: the profile (auth.ts getIdentity). */
const SHELL_READS = ['/me'];

const PRELOADS: Preload[] = [
  {
    // The patient page; opened on Signos (its first tab, and ?tab=signs) also the tab and its charts.
    path: /^\/patients\/(\d+)\/?$/,
    load: (match, query) => {
      const id = Number(match[1]);
      const signs = (query.get('tab') ?? 'signs') === 'signs';
      startEarlyRead(`${API_URL}/patients/${id}`);
      return [
        import('./AppShell'),
        import('./pages/patients/PatientPage'),
        // The Signos tab's own files (PatientTabs' loader for 'signs'), named here rather than through
        // PatientTabs: importing that module from the entry split it out of the page's chunk. Its
        // reads are those its cards make (measurement-reads.ts), started as soon as that file is in.
        ...(signs
          ? [
              import('./pages/patients/tabs/MeasurementsTab'),
              import('./charts/MeasurementChart'),
              import('./charts/measurement-reads').then(({ signsReads }) =>
                signsReads(id).forEach((read) => startEarlyRead(urlWithQuery(read.url, read.query))),
              ),
            ]
          : []),
      ];
    },
  },
];

export function preloadRoute(pathname: string, search: string): void {
  if (!readToken()) return;
  for (const path of SHELL_READS) startEarlyRead(`${API_URL}${path}`);
  for (const preload of PRELOADS) {
    const match = preload.path.exec(pathname);
    if (!match) continue;
    // A failed preload changes nothing: the page's own lazy import asks again and shows its error.
    for (const started of preload.load(match, new URLSearchParams(search))) started.catch(() => undefined);
    return;
  }
}
