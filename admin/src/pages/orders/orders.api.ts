import { API_URL } from '../../constants';
import { http } from '../../providers/http';
import type { Schemas } from '../../contract';

export type Order = Schemas['Order'];
export type Activity = Schemas['Activity'];
export type OrderInput = Schemas['OrderInput'];
export type OrderUpdate = Schemas['OrderUpdate'];
export type BulkOrderItem = Schemas['BulkOrderItem'];
export type Medicine = Schemas['Medicine'];
type Params = Record<string, string | number | undefined>;

const clean = (params: Params) => Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined && v !== ''));
const base = (patientId: number) => `${API_URL}/patients/${patientId}`;

/** The order and activity calls of 02 §7 on the app's HTTP client (token in, Spanish HttpError out). */
export const ordersApi = {
  async patientOrders(patientId: number, params: Params) {
    const res = await http.get<Order[]>(`${base(patientId)}/orders`, { params: clean(params) });
    return { rows: res.data, total: Number(res.headers['x-total-count'] ?? res.data.length) };
  },
  async clientOrders(params: Params) {
    const res = await http.get<Order[]>(`${API_URL}/orders`, { params: clean(params) });
    return { rows: res.data, total: Number(res.headers['x-total-count'] ?? res.data.length) };
  },
  get: async (patientId: number, orderId: number) => (await http.get<Order>(`${base(patientId)}/orders/${orderId}`)).data,
  create: async (patientId: number, order: OrderInput) => (await http.post<Order>(`${base(patientId)}/orders`, order)).data,
  bulk: async (patientId: number, orders: BulkOrderItem[]) =>
    (await http.post<Schemas['BulkOrdersResult']>(`${base(patientId)}/orders/bulk`, { orders })).data,
  update: async (patientId: number, orderId: number, body: OrderUpdate) =>
    (await http.put<Order>(`${base(patientId)}/orders/${orderId}`, body)).data,
  generate: async (patientId: number, orderId: number) =>
    (await http.post<Schemas['GeneratedActivities']>(`${base(patientId)}/orders/${orderId}/activities`)).data,
  orderActivities: async (patientId: number, orderId: number) =>
    (await http.get<Activity[]>(`${base(patientId)}/orders/${orderId}/activities`)).data,
  patientActivities: async (patientId: number, range: { star_date: string; end_date: string }) =>
    (await http.get<Activity[]>(`${base(patientId)}/activities`, { params: range })).data,
  updateActivity: async (patientId: number, orderId: number, activityId: number, body: Schemas['ActivityUpdate']) =>
    (await http.put<Activity>(`${base(patientId)}/orders/${orderId}/activities/${activityId}`, body)).data,
  async medicines(q?: string) {
    return (await http.get<Medicine[]>(`${API_URL}/medicines`, { params: clean({ q, _start: 0, _end: 50 }) })).data;
  },
  medicine: async (id: number) => (await http.get<Medicine>(`${API_URL}/medicines/${id}`)).data,
};
