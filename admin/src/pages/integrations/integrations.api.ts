import { API_URL } from '../../constants';
import { http } from '../../providers/http';
import type { Schemas } from '../../contract';

export type Client = Schemas['Client'];
export type ClientSettings = Schemas['ClientSettingsInput'];
export type WebhookDelivery = Schemas['WebhookDelivery'];

/** Calls of the webhook, integrations and reports pages (03 §7). */
export const integrationsApi = {
  client: async (id: number) => (await http.get<Client>(`${API_URL}/clients/${id}`)).data,
  save: async (id: number, body: ClientSettings) => (await http.put<Client>(`${API_URL}/clients/${id}`, body)).data,
  validate: async (id: number) => (await http.get<Schemas['Notification']>(`${API_URL}/clients/${id}/validate_webhook`)).data,
  deliveries: async (start: number, end: number) => {
    const res = await http.get<WebhookDelivery[]>(`${API_URL}/webhooks/deliveries`, { params: { _start: start, _end: end } });
    return { rows: res.data, total: Number(res.headers['x-total-count'] ?? res.data.length) };
  },
  resend: async (id: number) => (await http.post<WebhookDelivery>(`${API_URL}/webhooks/deliveries/${id}/resend`)).data,
  measurementsCsv: async (hours: number) =>
    (await http.get<Schemas['DownloadLink']>(`${API_URL}/reports/client_measurements`, { params: { hours } })).data,
  vitalSigns: async (group: string) =>
    (await http.get<Schemas['DownloadLink']>(`${API_URL}/reports/vital_signs`, { params: { group } })).data,
  statusChanges: async (start_date?: string, end_date?: string) =>
    (await http.get<Schemas['DownloadLink']>(`${API_URL}/reports/patient_status_changes`, { params: { start_date, end_date } })).data,
  openedAlerts: async () => (await http.get<Schemas['OpenedAlertMetrics']>(`${API_URL}/reports/client_opened_alerts`)).data,
};

/** A date-time in the user's zone (D5), e.g. '21/11/2026, 08:05'. */
export function formatDateTime(iso: string | null | undefined, timeZone?: string): string {
  if (!iso) return '';
  return new Intl.DateTimeFormat('es-CO', { timeZone, dateStyle: 'short', timeStyle: 'short' }).format(new Date(iso));
}
