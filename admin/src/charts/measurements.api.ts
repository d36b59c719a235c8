import { API_URL } from '../constants';
import { http } from '../providers/http';
import type { Schemas } from '../contract';
import { CHART_MAX_POINTS, type AlarmRange } from '@vigia/contract/rules/charts';

export type Measurement = Schemas['Measurement'];
export type MeasurementInput = Schemas['MeasurementInput'];
export type DownloadLink = Schemas['DownloadLink'];

/** The measurement calls of 01 §7 and 03 §7 on the app's HTTP client (token in, Spanish HttpError out). */
export const measurementsApi = {
  /** The latest readings of one element (newest first) and how many there are in all. */
  async latest(patientId: number, element: number) {
    const res = await http.get<Measurement[]>(`${API_URL}/patients/${patientId}/measurements`, {
      params: { clinical_element: element, order: 'desc', _start: 0, _end: CHART_MAX_POINTS },
    });
    return { rows: res.data, total: Number(res.headers['x-total-count'] ?? res.data.length) };
  },
  record: async (patientId: number, body: MeasurementInput) =>
    (await http.post<Measurement[]>(`${API_URL}/patients/${patientId}/measurements`, body)).data,
  remove: async (patientId: number, measurementId: number, comment: string) =>
    (await http.put<Measurement>(`${API_URL}/patients/${patientId}/measurements/${measurementId}`, { status: 1, comment })).data,
  /** Alarm ranges for the chart bands; no rules module (404) or any failure means no bands. */
  async alarms(patientId: number, element: number): Promise<AlarmRange[]> {
    try {
      const res = await http.get<AlarmRange[]>(`${API_URL}/patients/${patientId}/alarms`, { params: { clinical_element: element } });
      return Array.isArray(res.data) ? res.data : [];
    } catch {
      return [];
    }
  },
  csvLink: async (patientId: number, params: { start_at: string; end_at: string; clinical_element?: number }) =>
    (await http.get<DownloadLink>(`${API_URL}/patients/${patientId}/measurements`, { params: { ...params, format: 'csv', order: 'desc' } }))
      .data,
  pdfLink: async (patientId: number, params: { start_at: string; end_at: string }) =>
    (await http.get<DownloadLink>(`${API_URL}/patients/${patientId}/show_pdf`, { params })).data,
};

export { formatDay, formatWhen } from '@vigia/contract/rules/dates';
