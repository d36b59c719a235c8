import { useState } from 'react';
import { Select } from '../../crud/form-controls';
import { useList, useOne } from '@refinedev/core';
import type { Schemas } from '../../contract';
import { logOnly } from '../../providers/notices';
import { useDebounced } from '../../hooks/useDebounced';

type Medicine = Schemas['Medicine'];

const label = (m: Medicine) => `${m.name} ${m.presentation}`;

/** Searchable medicine choice from the catalogue (GET /medicines?q=); `onChange` also hands over the chosen medicine. */
export function MedicineSelect({
  value,
  onChange,
  id,
}: {
  value?: number;
  onChange?: (v: number, medicine?: Medicine) => void;
  id?: string;
}) {
  const [q, setQ] = useState('');
  // The first 50 matches, 250 ms after the last key; the previous matches stay while the next load.
  const settled = useDebounced(q, 250);
  const { result } = useList<Medicine>({
    resource: 'medicines',
    filters: settled ? [{ field: 'q', operator: 'eq', value: settled }] : [],
    pagination: { currentPage: 1, pageSize: 50 },
    queryOptions: { placeholderData: (previous) => previous },
    errorNotification: logOnly('medicamentos'),
  });
  const found = result.data;
  // The chosen medicine, when it is not among the matches (an order being edited).
  const known = !value || found.some((o) => o.id === value);
  const chosen = useOne<Medicine>({
    resource: 'medicines',
    id: value,
    queryOptions: { enabled: !known },
    errorNotification: logOnly('medicamento'),
  }).result;
  const options = chosen && !found.some((o) => o.id === chosen.id) ? [chosen, ...found] : found;
  return (
    <Select
      id={id}
      showSearch
      value={value}
      onChange={(v: number) =>
        onChange?.(
          v,
          options.find((o) => o.id === v),
        )
      }
      filterOption={false}
      onSearch={setQ}
      placeholder="Busque por nombre, p. ej. Losartán"
      options={options.map((m) => ({ value: m.id, label: label(m) }))}
      notFoundContent="Sin resultados"
      aria-label="Medicamento"
    />
  );
}
