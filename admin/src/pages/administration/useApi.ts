import { useCallback, useEffect, useState } from 'react';
import { API_URL } from '../../constants';
import { http } from '../../providers/http';
import { notify } from '../../providers/notification';

/**
 * @deprecated Read with Refine's useList / useOne / useCustom; kept only for the patient record
 * until it is converted.
 *
 * GET of one API path for a hand-built page: data, loading, a reload, and the 404 flag (03 §8). */
export function useApiGet<T>(path: string | null, params?: Record<string, unknown>) {
  const [data, setData] = useState<T | null>(null);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(false);
  const [notFound, setNotFound] = useState(false);
  const key = JSON.stringify(params ?? {});
  const load = useCallback(async () => {
    if (!path) return;
    setLoading(true);
    try {
      const res = await http.get(`${API_URL}${path}`, { params: JSON.parse(key) });
      setData(res.data as T);
      setTotal(Number(res.headers['x-total-count'] ?? 0));
    } catch (error) {
      const e = error as { statusCode?: number; message?: string };
      if (e.statusCode === 404) setNotFound(true);
      else notify.error(e.message ?? 'No fue posible cargar la información');
    } finally {
      setLoading(false);
    }
  }, [path, key]);
  useEffect(() => {
    void load();
  }, [load]);
  return { data, total, loading, notFound, reload: load };
}

export async function apiSend<T>(method: 'post' | 'put' | 'patch', path: string, body: unknown): Promise<T> {
  const res = await http[method](`${API_URL}${path}`, body);
  return res.data as T;
}
