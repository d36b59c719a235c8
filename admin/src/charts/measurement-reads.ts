import { useCustom } from '@refinedev/core';
import { CHART_MAX_POINTS, type AlarmRange } from '@vigia/contract/rules/charts';
import type { Schemas } from '../contract';
import { apiUrl } from '../providers/data';

export type Measurement = Schemas['Measurement'];

const NO_RANGES: AlarmRange[] = [];

/** The latest readings of one element, newest first (01 §7). */
export const latestReadings = (patientId: number, element: number) => ({
  url: apiUrl(`/patients/${patientId}/measurements`),
  query: { clinical_element: element, order: 'desc', _start: 0, _end: CHART_MAX_POINTS },
});

/** The alarm ranges of one element, for the chart's bands. */
export const alarmRanges = (patientId: number, element: number) => ({
  url: apiUrl(`/patients/${patientId}/alarms`),
  query: { clinical_element: element },
});

/**
 * One element's reads for a chart card: its latest readings and its alarm ranges. A missing rules
 * module (404) or any other failure of the ranges means no bands; neither read notifies (the card
 * shows its own error). Cached answers are used as they are on mount (the tab started the reads).
 */
export function useElementReads(patientId: number, element: number, enabled: boolean) {
  const readings = latestReadings(patientId, element);
  const ranges = alarmRanges(patientId, element);
  const latest = useCustom<Measurement[]>({
    url: readings.url,
    method: 'get',
    config: { query: readings.query },
    queryOptions: { enabled, refetchOnMount: false },
    errorNotification: false,
  });
  const alarms = useCustom<AlarmRange[]>({
    url: ranges.url,
    method: 'get',
    config: { query: ranges.query },
    queryOptions: { enabled, refetchOnMount: false },
    errorNotification: false,
  });
  const bands = alarms.query.data?.data;
  return {
    rows: latest.query.data?.data,
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
