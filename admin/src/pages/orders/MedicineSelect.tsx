import { useEffect, useState } from 'react';
import { Select } from 'antd';
import { ordersApi, type Medicine } from './orders.api';

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
  const [options, setOptions] = useState<Medicine[]>([]);
  const [q, setQ] = useState('');
  useEffect(() => {
    let alive = true;
    const timer = setTimeout(() => {
      ordersApi
        .medicines(q)
        .then((rows) => alive && setOptions(rows))
        .catch(console.error);
    }, 250);
    return () => {
      alive = false;
      clearTimeout(timer);
    };
  }, [q]);
  useEffect(() => {
    if (value && !options.some((o) => o.id === value))
      ordersApi
        .medicine(value)
        .then((m) => setOptions((o) => [m, ...o]))
        .catch(console.error);
  }, [value, options]);
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
