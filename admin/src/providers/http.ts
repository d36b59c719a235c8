import axios, { AxiosError, AxiosHeaders, type AxiosAdapter } from 'axios';
import { readToken } from '../session';
import { takeEarlyRead } from './early-reads';
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
  // A GET the entry already started (early-reads.ts): its answer, else the request as usual.
  const early = (config.method ?? 'get').toLowerCase() === 'get' ? takeEarlyRead(http.getUri(config)) : null;
  if (early) {
    const usual = axios.getAdapter(config.adapter ?? axios.defaults.adapter);
    const adapter: AxiosAdapter = async (c) => {
      const answer = await early;
      if (!answer) return usual(c);
      let data: unknown;
      try {
        data = answer.text ? JSON.parse(answer.text) : undefined;
      } catch {
        return usual(c);
      }
      return { data, status: answer.status, statusText: '', headers: new AxiosHeaders(answer.headers), config: c, request: null };
    };
    config.adapter = adapter;
  }
  return config;
});

http.interceptors.response.use(
  (response) => response,
  (error) => Promise.reject(toHttpError(error)),
);
