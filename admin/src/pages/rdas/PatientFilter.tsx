import { useState } from 'react';
import { useList } from '@refinedev/core';
import { Select } from '../../crud/form-controls';
import type { Schemas } from '../../contract';
import { useDebounced } from '../../hooks/useDebounced';
import { logOnly } from '../../providers/notices';

type Patient = Schemas['Patient'];

const label = (p: Pick<Patient, 'first_name' | 'last_name' | 'nid'>) => `${p.first_name} ${p.last_name} (${p.nid})`;

/** 'Paciente' of the RDA list: a patient found by name or document (GET /patients?q=), or none. */
export function PatientFilter({ value, onChange }: { value?: number; onChange: (id?: number) => void }) {
  const [q, setQ] = useState('');
  const settled = useDebounced(q, 250);
  const { result } = useList<Patient>({
    resource: 'patients',
    filters: settled ? [{ field: 'q', operator: 'eq', value: settled }] : [],
    pagination: { currentPage: 1, pageSize: 20 },
    queryOptions: { placeholderData: (previous) => previous },
    errorNotification: logOnly('pacientes'),
  });
  return (
    <Select
      showSearch
      allowClear
      value={value}
      onChange={(v?: number) => onChange(v ?? undefined)}
      filterOption={false}
      onSearch={setQ}
      placeholder="Todos los pacientes"
      options={result.data.map((p) => ({ value: p.id, label: label(p) }))}
      notFoundContent="Sin resultados"
      aria-label="Paciente"
      className="rdas-filter rdas-filter-patient"
    />
  );
}
