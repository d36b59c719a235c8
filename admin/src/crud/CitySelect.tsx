import { useState } from 'react';
import { Select } from './form-controls';
import type { Option } from '../hooks/listings';
import { useApiQuery } from '../providers/calls';
import { logOnly } from '../providers/notices';

/**
 * A city of a country, searched by name as it is typed (`/search?type=cities`): the patient forms
 * and the institution's data (issue 51) choose municipalities with it.
 */
export function CitySelect({
  countryId,
  initial,
  placeholder = 'Elija la ciudad o escriba para buscarla',
  ...control
}: {
  countryId?: number;
  initial?: Option | null;
  placeholder?: string;
  value?: number;
  onChange?: (v: number) => void;
  id?: string;
}) {
  const [q, setQ] = useState('');
  // The chosen city stays an option whatever the search shows.
  const [picked, setPicked] = useState<Option | null>(initial ?? null);
  // Cities of the country by name (`/search?type=cities`), read again with every key; the previous
  // matches stay while the next ones load.
  const { query } = useApiQuery('/search', {
    query: { type: 'cities', country_id: countryId, q, per_page: 30 },
    queryOptions: { enabled: !!countryId, placeholderData: (previous) => previous },
    errorNotification: logOnly('ciudades'),
  });
  const loading = query.isFetching;
  const found: Option[] = (query.data?.data.data.data ?? []).map((c) => ({
    value: c.id,
    label: c.detail ? `${c.name} (${c.detail})` : c.name,
  }));
  const keep = picked && picked.value === control.value && !found.some((o) => o.value === picked.value) ? [picked] : [];
  const options = [...keep, ...found];
  const onChange = (v: number) => {
    setPicked(options.find((o) => o.value === v) ?? null);
    control.onChange?.(v);
  };
  return (
    <Select
      {...control}
      onChange={onChange}
      showSearch
      filterOption={false}
      onSearch={setQ}
      loading={loading}
      options={options}
      placeholder={countryId ? placeholder : 'Elija primero el país'}
      disabled={!countryId}
      notFoundContent={loading ? 'Buscando…' : 'Sin resultados'}
    />
  );
}
