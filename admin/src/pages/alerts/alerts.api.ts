import { API_URL } from '../../constants';
import { http } from '../../providers/http';
import type { Schemas } from '../../contract';

export type Alert = Schemas['Alert'];
export type AlertDetail = Schemas['AlertDetail'];
export type AlertEntry = Schemas['AlertEntry'];
export type Alarm = Schemas['Alarm'];
export type PatientAlarm = Schemas['PatientAlarm'];
export type AlertMetrics = Schemas['AlertMetrics'];
export type AlertUpdates = Schemas['AlertUpdates'];
export type Params = Record<string, string | number | undefined>;

type Measurement = { id: number; value: number; when: string; clinical_element: number };

const clean = (params: Params) => Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined && v !== ''));

/**
 * @deprecated The staff app's screens read and write through Refine's hooks (useCustom,
 * useCustomMutation); kept only for the patient record until it is converted.
 *
 * The alert calls of 02 §7 on the app's HTTP client (token in, Spanish HttpError out). */
export const alertsApi = {
  async patientAlerts(patientId: number, params: Params) {
    const res = await http.get<Alert[]>(`${API_URL}/patients/${patientId}/alerts`, { params: clean(params) });
    return { rows: res.data, total: Number(res.headers['x-total-count'] ?? res.data.length) };
  },
  async clientAlerts(params: Params) {
    const res = await http.get<Alert[]>(`${API_URL}/reports/client_alerts_list`, { params: clean(params) });
    return { rows: res.data, total: Number(res.headers['x-total-count'] ?? res.data.length) };
  },
  get: async (patientId: number, alertId: number) =>
    (await http.get<AlertDetail>(`${API_URL}/patients/${patientId}/alerts/${alertId}`)).data,
  addEntry: async (patientId: number, alertId: number, description: string) =>
    (await http.post<AlertEntry>(`${API_URL}/patients/${patientId}/alerts/${alertId}/alert_entries`, { description })).data,
  close: async (patientId: number, alertId: number, body: { close_type: 'true_alert' | 'false_alert'; description?: string }) =>
    (await http.put<AlertDetail>(`${API_URL}/patients/${patientId}/alerts/${alertId}`, { status: 2, ...body })).data,
  metrics: async (params: Params) =>
    (await http.get<AlertMetrics>(`${API_URL}/reports/client_alerts_metrics`, { params: clean(params) })).data,
  updates: async (sinceId?: number) =>
    (await http.get<AlertUpdates>(`${API_URL}/alerts/updates`, { params: clean({ since_id: sinceId }) })).data,
  clientAlarms: async () =>
    (await http.get<Alarm[]>(`${API_URL}/alarms`, { params: { _start: 0, _end: 100, _sort: 'name', _order: 'asc' } })).data,
  patientAlarms: async (patientId: number, clinicalElement?: number) =>
    (await http.get<PatientAlarm[]>(`${API_URL}/patients/${patientId}/alarms`, { params: clean({ clinical_element: clinicalElement }) }))
      .data,
  assignAlarms: async (patientId: number, alarmIds: number[]) =>
    (await http.put<Schemas['PatientUpdated']>(`${API_URL}/patients/${patientId}`, { alarm_ids: alarmIds })).data,
  /** Readings of one element for the alert chart, oldest first (01 §7 measurements call). */
  async measurements(patientId: number, clinicalElement: number, around: string): Promise<Measurement[]> {
    // 02 §9: a window of ±15 days around the alert.
    const at = new Date(around).getTime();
    const day = (t: number) => new Date(t).toISOString().slice(0, 10);
    const window = { start_at: day(at - 15 * 86_400_000), end_at: day(Math.min(Date.now(), at + 15 * 86_400_000) + 86_400_000) };
    const res = await http.get<Measurement[] | { data: Measurement[] }>(`${API_URL}/patients/${patientId}/measurements`, {
      params: { clinical_element: clinicalElement, order: 'asc', _start: 0, _end: 1000, ...window },
    });
    return Array.isArray(res.data) ? res.data : (res.data?.data ?? []);
  },
};
