import { API_URL } from '../../constants';
import { http } from '../../providers/http';
import type { Schemas } from '../../contract';

export type ClientActivity = Schemas['ClientActivity'];
export type ActivityQuery = { date: string; status?: number; type?: number; q?: string; _start: number; _end: number };

const clean = (params: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined && v !== ''));

/** 'Actividades' (P69): the client's activities of a day, and the medication confirmation (P53). */
export const activitiesApi = {
  async list(query: ActivityQuery) {
    const res = await http.get<ClientActivity[]>(`${API_URL}/activities`, { params: clean(query) });
    return { rows: res.data, total: Number(res.headers['x-total-count'] ?? res.data.length) };
  },
  confirm: async (patientId: number, activityId: number) =>
    (await http.post<Schemas['Activity']>(`${API_URL}/patients/${patientId}/activities/${activityId}/confirm`)).data,
  clientZone: async (clientId: number) => (await http.get<Schemas['Client']>(`${API_URL}/clients/${clientId}`)).data.time_zone,
};
