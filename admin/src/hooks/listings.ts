import type { Schemas } from '../contract';
import { useApiQuery } from '../providers/calls';
import { logOnly } from '../providers/notices';
import { useFailedReads } from '../providers/queries';

export type Option = { value: number; label: string };
type ListingName = Schemas['ListName'];
type IdTypeFull = Schemas['IdTypeFull'];

const NONE: never[] = [];

/**
 * A catalogue listing (countries, blood types, ...) as select options; read once a session (the
 * catalogues do not change while the app is open). A failure means no options, logged here; the form
 * says it once (useFailedListings).
 */
export function useListing(name: ListingName, countryId?: number, enabled = true): Option[] {
  const { query } = useApiQuery('/listings/{list_name}', {
    params: { list_name: name },
    query: countryId ? { country_id: countryId } : undefined,
    queryOptions: { enabled, staleTime: Infinity },
    errorNotification: logOnly(`listado ${name}`),
  });
  const data = query.data?.data?.data;
  return data ? Object.entries(data).map(([value, label]) => ({ value: Number(value), label })) : NONE;
}

/** Id types of a country with their validation regex (the id-number rule reloads with them, 01 §5). */
export function useIdTypes(countryId: number | undefined): IdTypeFull[] {
  const { query } = useApiQuery('/listings/id_types_full', {
    // Not sent without a country (disabled below); the contract requires one.
    query: { country_id: countryId ?? 0 },
    queryOptions: { enabled: !!countryId, staleTime: Infinity },
    errorNotification: logOnly('tipos de documento'),
  });
  return (countryId && query.data?.data?.data) || NONE;
}

/** Whether a listing the screen shows failed to load, and a retry of those that did. */
export const useFailedListings = () => useFailedReads('/listings');

export type CodeOption = { value: string; label: string };

/**
 * One of the RDA's code lists (issue 51: biological sexes, ethnicities, professions…) as select
 * options: keyed by the guide's code, which is what the API stores, so the value stays a string.
 */
export function useCodeListing(name: ListingName, enabled = true): CodeOption[] {
  const { query } = useApiQuery('/listings/{list_name}', {
    params: { list_name: name },
    queryOptions: { enabled, staleTime: Infinity },
    errorNotification: logOnly(`listado ${name}`),
  });
  const data = query.data?.data?.data;
  return data ? Object.entries(data).map(([value, label]) => ({ value, label })) : NONE;
}
