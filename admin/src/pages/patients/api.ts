import { useCallback, useEffect, useState } from 'react';
import { API_URL } from '../../constants';
import { http } from '../../providers/http';
import type { Schemas } from '../../contract';

export type PatientSummary = Schemas['PatientSummary'];
export type PatientUpdated = Schemas['PatientUpdated'];
export type IdTypeFull = Schemas['IdTypeFull'];
export type Option = { value: number; label: string };

/** The patient calls of 01 §7, on the app's HTTP client (token in, Spanish HttpError out). */
export const patientsApi = {
  async list(params: Record<string, string | number | undefined>) {
    const res = await http.get<PatientSummary[]>(`${API_URL}/patients`, { params });
    return { rows: res.data, total: Number(res.headers['x-total-count'] ?? res.data.length) };
  },
  get: async (id: number) => (await http.get<Schemas['Patient']>(`${API_URL}/patients/${id}`)).data,
  create: async (body: Schemas['PatientInput']) => (await http.post<Schemas['Patient']>(`${API_URL}/patients`, body)).data,
  validate: async (body: { id_type: number; nid: string }) =>
    (await http.post<{ id: number; message: string }>(`${API_URL}/patients/validate`, body)).data,
  update: async (id: number, body: Record<string, unknown>) => (await http.put<PatientUpdated>(`${API_URL}/patients/${id}`, body)).data,
};

type ListingName = Schemas['ListName'];

const listingCache = new Map<string, Promise<Option[]>>();

function toOptions(data: Record<string, string>): Option[] {
  return Object.entries(data).map(([value, label]) => ({ value: Number(value), label }));
}

/** Catalogue listings (countries, blood types, ...), fetched once per session. */
export function fetchListing(name: ListingName, countryId?: number): Promise<Option[]> {
  const key = `${name}:${countryId ?? ''}`;
  let hit = listingCache.get(key);
  if (!hit) {
    hit = http
      .get<Schemas['Listing']>(`${API_URL}/listings/${name}`, { params: countryId ? { country_id: countryId } : undefined })
      .then((r) => toOptions(r.data.data));
    hit.catch(() => listingCache.delete(key));
    listingCache.set(key, hit);
  }
  return hit;
}

export function useListing(name: ListingName, countryId?: number, enabled = true): Option[] {
  const [options, setOptions] = useState<Option[]>([]);
  useEffect(() => {
    if (!enabled) return;
    let alive = true;
    fetchListing(name, countryId).then(
      (o) => alive && setOptions(o),
      () => alive && setOptions([]),
    );
    return () => {
      alive = false;
    };
  }, [name, countryId, enabled]);
  return options;
}

/** Id types of a country with their validation regex (the id-number rule reloads with them, 01 §5). */
export function useIdTypes(countryId: number | undefined): IdTypeFull[] {
  const [types, setTypes] = useState<IdTypeFull[]>([]);
  useEffect(() => {
    if (!countryId) return setTypes([]);
    let alive = true;
    http.get<{ data: IdTypeFull[] }>(`${API_URL}/listings/id_types_full`, { params: { country_id: countryId } }).then(
      (r) => alive && setTypes(r.data.data),
      () => alive && setTypes([]),
    );
    return () => {
      alive = false;
    };
  }, [countryId]);
  return types;
}

/** Cities of a country by name (`/search?type=cities`), for a searchable select. */
export async function searchCities(countryId: number, q: string): Promise<Option[]> {
  const res = await http.get<Schemas['SearchPage']>(`${API_URL}/search`, {
    params: { type: 'cities', country_id: countryId, q, per_page: 30 },
  });
  return res.data.data.data.map((c) => ({ value: c.id, label: c.detail ? `${c.name} (${c.detail})` : c.name }));
}

/** The client's tags, for the tag filter and the tags dialog. */
export function useClientTags(): Schemas['Tag'][] {
  const [tags, setTags] = useState<Schemas['Tag'][]>([]);
  const load = useCallback(() => {
    http.get<Schemas['Tag'][]>(`${API_URL}/tags`, { params: { _start: 0, _end: 100, _sort: 'name', _order: 'ASC' } }).then(
      (r) => setTags(r.data),
      () => setTags([]),
    );
  }, []);
  useEffect(load, [load]);
  return tags;
}
