import { http } from '../../providers/http';
import { API_URL } from '../../constants';

/**
 * @deprecated The AI-instruction pages and the audit read and write through Refine's hooks; kept
 * only for the patient-record tabs until they are converted.
 *
 * Calls of the patient-record tabs and the AI-instruction pages. Failures reject with the
 * server's Spanish message (providers/http), which the screens show as a notification.
 */
export async function getList<T>(path: string, params: Record<string, unknown> = {}): Promise<{ rows: T[]; total: number }> {
  const res = await http.get<T[]>(`${API_URL}${path}`, { params });
  const total = Number(res.headers['x-total-count'] ?? res.data.length);
  return { rows: res.data, total };
}

export async function getJson<T>(path: string, params: Record<string, unknown> = {}): Promise<T> {
  return (await http.get<T>(`${API_URL}${path}`, { params })).data;
}

export async function postJson<T>(path: string, body: unknown): Promise<T> {
  return (await http.post<T>(`${API_URL}${path}`, body)).data;
}

export async function putJson<T>(path: string, body: unknown): Promise<T> {
  return (await http.put<T>(`${API_URL}${path}`, body)).data;
}

export async function deleteJson(path: string): Promise<void> {
  await http.delete(`${API_URL}${path}`);
}

export function errorMessage(error: unknown, fallback: string): string {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' && message ? message : fallback;
}
