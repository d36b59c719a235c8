import { CHART_MAX_POINTS, type AlarmRange } from '@vigia/contract/rules/charts';
import type { Schemas } from '../contract';
import { apiRead, useApiRead } from '../providers/calls';

export type Measurement = Schemas['Measurement'];

const NO_RANGES: AlarmRange[] = [];

type ElementCode = Schemas['ClinicalElementCode'];

/** The latest readings of one element, newest first (01 §7); CHARTS lists element codes as numbers. */
export const latestReadings = (patientId: number, element: number) =>
  apiRead('/patients/{id}/measurements', {
    params: { id: patientId },
    query: { clinical_element: element as ElementCode, order: 'desc', _start: 0, _end: CHART_MAX_POINTS },
  });

/** The alarm ranges of one element, for the chart's bands. */
export const alarmRanges = (patientId: number, element: number) =>
  apiRead('/patients/{id}/alarms', { params: { id: patientId }, query: { clinical_element: element as ElementCode } });

/**
 * One element's reads for a chart card: its latest readings and its alarm ranges. A missing rules
 * module (404) or any other failure of the ranges means no bands; neither read notifies (the card
 * shows its own error). Cached answers are used as they are on mount (the tab started the reads).
 */
export function useElementReads(patientId: number, element: number, enabled: boolean) {
  const options = { queryOptions: { enabled, refetchOnMount: false }, errorNotification: false } as const;
  const latest = useApiRead(latestReadings(patientId, element), options);
  const alarms = useApiRead(alarmRanges(patientId, element), options);
  const bands = alarms.query.data?.data;
  const answer = latest.query.data?.data;
  return {
    // Without `format=csv` the answer is the rows (the contract's other answer is a download link).
    rows: Array.isArray(answer) ? answer : undefined,
    ranges: Array.isArray(bands) ? bands : NO_RANGES,
    loading: latest.query.isFetching || alarms.query.isFetching,
    failed: latest.query.isError,
    updatedAt: latest.query.dataUpdatedAt + alarms.query.dataUpdatedAt,
    reload: () => {
      void latest.query.refetch();
      void alarms.query.refetch();
    },
  };
}
