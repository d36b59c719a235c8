import { API_URL } from '../constants';
import { readToken } from '../session';
import { fromResponse } from './errors';

/**
 * Minimal fetch client for the session calls. The login page uses it, so it stays free of the data provider
 * and Refine; failures reject with the same HttpError shape as the data provider's.
 */
export async function apiRequest<T>(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  body?: unknown,
  token: string | null = readToken(),
): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;

  let response: Response;
  try {
    response = await fetch(`${API_URL}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw fromResponse(0, undefined);
  }

  const text = await response.text();
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = undefined;
  }
  if (!response.ok) throw fromResponse(response.status, data);
  return data as T;
}
