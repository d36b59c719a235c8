import axios, { AxiosError } from 'axios';
import { readToken } from '../session';
import { fromResponse, isHttpError, UNKNOWN_ERROR_MESSAGE, type VigiaHttpError } from './errors';

/** Any failed call becomes an HttpError whose message is the server's Spanish text. */
function toHttpError(error: unknown): VigiaHttpError {
  if (error instanceof AxiosError) return fromResponse(error.response?.status ?? 0, error.response?.data);
  if (isHttpError(error)) return error;
  const message = error instanceof Error && error.message ? error.message : UNKNOWN_ERROR_MESSAGE;
  return { message, statusCode: 0 };
}

/** The HTTP client of the data provider: bearer token in, HttpError out. */
export const http = axios.create({ headers: { Accept: 'application/json' } });

http.interceptors.request.use((config) => {
  const token = readToken();
  if (token) config.headers.set('Authorization', `Bearer ${token}`);
  return config;
});

http.interceptors.response.use(
  (response) => response,
  (error) => Promise.reject(toHttpError(error)),
);
