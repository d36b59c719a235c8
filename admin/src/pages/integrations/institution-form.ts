import type { Schemas } from '../../contract';

type Client = Schemas['Client'];
type Settings = Schemas['ClientSettingsInput'];

/** One row of 'Sedes' as the form holds it; `id` marks a site the API already has. */
export interface SiteValues {
  id?: number;
  name?: string;
  reps_site_code?: string;
  address?: string;
  city_id?: number | null;
}

/** 'Datos de la institución para el RDA' as the form holds them (issue 51, CareDeliveryOrganizationRDA). */
export interface InstitutionValues {
  nit?: string;
  reps_code?: string;
  provider_class?: string | null;
  legal_nature?: string | null;
  care_level?: string | null;
  address?: string;
  city_id?: number | null;
  sites: SiteValues[];
}

export const INSTITUTION_FIELDS = [
  'nit',
  'reps_code',
  'provider_class',
  'legal_nature',
  'care_level',
  'address',
  'city_id',
  'sites',
] as const;

/** The client's stored data as the form's starting values (blank text as empty inputs). */
export function institutionValues(client: Client): InstitutionValues {
  return {
    nit: client.nit ?? '',
    reps_code: client.reps_code ?? '',
    provider_class: client.provider_class,
    legal_nature: client.legal_nature,
    care_level: client.care_level,
    address: client.address ?? '',
    city_id: client.city_id,
    sites: client.sites.map((s) => ({
      id: s.id,
      name: s.name,
      reps_site_code: s.reps_site_code ?? '',
      address: s.address ?? '',
      city_id: s.city_id,
    })),
  };
}

const text = (v: string | undefined) => v?.trim() || null;

/**
 * The body of `PUT /clients/:id`: text trimmed (empty is null), codes as chosen, and the whole list
 * of sites, which the API takes as the new list (a site left out is removed; a kept one carries its id).
 */
export function institutionBody(v: InstitutionValues): Pick<Settings, (typeof INSTITUTION_FIELDS)[number]> {
  return {
    nit: text(v.nit),
    reps_code: text(v.reps_code),
    provider_class: v.provider_class ?? null,
    legal_nature: v.legal_nature ?? null,
    care_level: v.care_level ?? null,
    address: text(v.address),
    city_id: v.city_id ?? null,
    sites: (v.sites ?? []).map((s) => ({
      ...(s.id ? { id: s.id } : {}),
      name: s.name?.trim() ?? '',
      reps_site_code: text(s.reps_site_code),
      address: text(s.address),
      city_id: s.city_id ?? null,
    })),
  };
}

/**
 * A field the API names in a 400 (`sites[1].name`, `sites.1.name`, `/sites/1/name`, `reps_code`)
 * as the form's name path, so the message shows under that input of that row.
 */
export function fieldPath(field: string): (string | number)[] {
  return field
    .replace(/^\//, '')
    .split(/[.[\]/]+/)
    .filter(Boolean)
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}
