import { CHARTS, CHART_MAX_POINTS } from '@vigia/contract/rules/charts';

/**
 * The Signos tab's reads as paths and queries, without React or the data provider: its cards
 * (measurement-reads.ts) build their reads from these, and a patient page opened directly starts
 * them with the entry (route-preload.ts). Started from measurement-reads' own chunk they waited for
 * the data provider's and the charts' files and then for the page's first render: in a profile of
 * the page at 100,000 patients they left at 554 ms, 300 ms after the profile and the record (issue 52).
 */

/** One element's latest readings, newest first (01 §7), as many as a chart draws. */
export const readingsQuery = (element: number) => ({
  clinical_element: element,
  order: 'desc' as const,
  _start: 0,
  _end: CHART_MAX_POINTS,
});

/** One element's alarm ranges, for the chart's bands. */
export const rangesQuery = (element: number) => ({ clinical_element: element });

/** Every read of the tab: each charted element's readings and alarm ranges (CHARTS lists element codes as numbers). */
export const signsReadPaths = (patientId: number): Array<{ path: string; query: Record<string, unknown> }> =>
  CHARTS.flatMap((chart) =>
    chart.elements.flatMap((element) => [
      { path: `/patients/${patientId}/measurements`, query: readingsQuery(element) },
      { path: `/patients/${patientId}/alarms`, query: rangesQuery(element) },
    ]),
  );
