import { API_URL } from './constants';
import { signsReadPaths } from './charts/signs-reads';
import { APP_SHELL, ENCOUNTERS_CARD, MEASUREMENT_CHART, MEASUREMENTS_TAB, PATIENT_PAGE } from './route-modules';
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
      // Its reads, those its cards make (signs-reads.ts, in the entry: ~1 KB): with the record. From a
      // chunk of their own they left only after the page's first render, 300 ms later (issue 52).
      if (signs) for (const read of signsReadPaths(id)) startEarlyRead(urlWithQuery(`${API_URL}${read.path}`, read.query));
      // The same loads the components render from (route-modules.ts): arrived, they render at once.
      return [
        APP_SHELL.load(),
        PATIENT_PAGE.load(),
        ENCOUNTERS_CARD.load(),
        // The Signos tab's own files (PatientTabs' loader for 'signs'), named here rather than through
        // PatientTabs: importing that module from the entry split it out of the page's chunk.
        ...(signs ? [MEASUREMENTS_TAB.load(), MEASUREMENT_CHART.load()] : []),
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
