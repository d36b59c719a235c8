import { useEffect, useRef } from 'react';
import { CHARTS, type AlarmRange } from '@vigia/contract/rules/charts';
import type { Schemas } from '../contract';
import { apiRead, useApiRead, type ApiRead } from '../providers/calls';
import { rangesQuery, readingsQuery } from './signs-reads';

export type Measurement = Schemas['Measurement'];

const NO_RANGES: AlarmRange[] = [];

type ElementCode = Schemas['ClinicalElementCode'];

/**
 * How long the Signos reads are taken as read, by the tab's early start and by its cards alike. With
 * react-query's default (0), the start run again by a render React threw away, or a card mounted
 * after the answers came, read every element's readings and ranges a second time: 14 reads again
 * while the charts waited (issue 52). Showing the tab again still reads afresh (useElementReads).
 */
export const SIGNS_FRESH_MS = 30_000;

/** The latest readings of one element, newest first (01 §7); CHARTS lists element codes as numbers. */
export const latestReadings = (patientId: number, element: number) => ({
  ...apiRead('/patients/{id}/measurements', {
    params: { id: patientId },
    query: { ...readingsQuery(element), clinical_element: element as ElementCode },
  }),
  staleTime: SIGNS_FRESH_MS,
});

/** The alarm ranges of one element, for the chart's bands. */
export const alarmRanges = (patientId: number, element: number) => ({
  ...apiRead('/patients/{id}/alarms', {
    params: { id: patientId },
    query: { ...rangesQuery(element), clinical_element: element as ElementCode },
  }),
  staleTime: SIGNS_FRESH_MS,
});

/** Every read the Signos tab's cards make: each charted element's readings and alarm ranges. */
export const signsReads = (patientId: number): Array<ApiRead<unknown>> =>
  CHARTS.flatMap((chart) => chart.elements.flatMap((element) => [latestReadings(patientId, element), alarmRanges(patientId, element)]));

/**
 * One element's reads for a chart card: its latest readings and its alarm ranges. A missing rules
 * module (404) or any other failure of the ranges means no bands; neither read notifies (the card
 * shows its own error). Answers the tab started are used as they are while fresh (SIGNS_FRESH_MS);
 * becoming the visible tab again (`enabled` turning true) reads both afresh (01 §2), fresh or not.
 */
export function useElementReads(patientId: number, element: number, enabled: boolean) {
  const options = { queryOptions: { enabled }, errorNotification: false } as const;
  const latest = useApiRead(latestReadings(patientId, element), options);
  const alarms = useApiRead(alarmRanges(patientId, element), options);
  const { refetch: refetchLatest } = latest.query;
  const { refetch: refetchAlarms } = alarms.query;
  const shown = useRef(enabled);
  useEffect(() => {
    // A read already under way (a stale answer is read when enabled anyway) is joined, not restarted.
    if (enabled && !shown.current) {
      void refetchLatest({ cancelRefetch: false });
      void refetchAlarms({ cancelRefetch: false });
    }
    shown.current = enabled;
  }, [enabled, refetchLatest, refetchAlarms]);
  const bands = alarms.query.data?.data;
  const answer = latest.query.data?.data;
  return {
    // Without `format=csv` the answer is the rows (the contract's other answer is a download link).
    rows: Array.isArray(answer) ? answer : undefined,
    ranges: Array.isArray(bands) ? bands : NO_RANGES,
    loading: latest.query.isFetching || alarms.query.isFetching,
    failed: latest.query.isError,
    /** The readings' read, for the card's read state (ui/ReadState); the ranges only add bands. */
    read: latest.query,
    updatedAt: latest.query.dataUpdatedAt + alarms.query.dataUpdatedAt,
    reload: () => {
      void latest.query.refetch();
      void alarms.query.refetch();
    },
  };
}
