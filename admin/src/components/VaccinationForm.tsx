import { useMemo } from 'react';
import { Checkbox, Form, Input } from 'antd';
import { RadioGroup, Select } from '../crud/form-controls';
import type { Schemas } from '../contract';
import { contractDoc } from '../crud/contract-doc';
import { enumOptions, objectSchema, REQUIRED_MESSAGE } from '../crud/schema-rules';
import { useList } from '@refinedev/core';
import { loadFailed } from '../providers/notices';

type Supply = Schemas['Supply'];
type Stock = Schemas['Stock'];

const required = [{ required: true, message: REQUIRED_MESSAGE }];

/** The `PUT /encounters/{id}` body of a vaccination from this form's values. */
export function vaccinationBody(values: Record<string, unknown>): Schemas['EncounterUpdate'] {
  return {
    biological_type: values.biological_type as string,
    medication_id: values.medication_id as number,
    dose: values.dose as Schemas['VaccineDose'],
    stock_id: (values.stock_id as number | undefined) ?? null,
    vaccination_card: !!values.vaccination_card,
    observations: (values.observations as string | undefined)?.trim() || null,
  };
}

/** Vaccination form (03 §2, §5): biological type, laboratory (trade-name buttons), dose, batch. */
export function VaccinationForm({ readOnly }: { readOnly: boolean }) {
  const form = Form.useFormInstance();
  const biologicalType = Form.useWatch('biological_type', form) as string | undefined;
  const medicationId = Form.useWatch('medication_id', form) as number | undefined;
  const supplies = useList<Supply>({
    resource: 'supplies',
    filters: [
      { field: 'type', operator: 'eq', value: 'biologico' },
      { field: 'active', operator: 'eq', value: true },
    ],
    sorters: [{ field: 'tradename', order: 'asc' }],
    pagination: { currentPage: 1, pageSize: 100, mode: 'server' },
    errorNotification: loadFailed,
  });
  const batches = useList<Stock>({
    resource: 'stocks',
    filters: [
      { field: 'medical_supply_id', operator: 'eq', value: medicationId },
      { field: 'active', operator: 'eq', value: true },
    ],
    pagination: { currentPage: 1, pageSize: 100, mode: 'server' },
    queryOptions: { enabled: !!medicationId },
    errorNotification: loadFailed,
  });
  const doses = useMemo(() => enumOptions(objectSchema(contractDoc, 'VaccineDose')), []);
  const types = [...new Set(supplies.result.data.map((s) => s.generic_name).filter((g): g is string => !!g))].sort();
  const labs = supplies.result.data.filter((s) => s.generic_name === biologicalType);
  const usable = (medicationId ? batches.result.data : []).filter((b) => b.cuantity > 0 && !b.expired);

  return (
    <>
      <Form.Item name="biological_type" label="Tipo de Biológico" rules={required}>
        <Select
          disabled={readOnly}
          placeholder="Seleccione el biológico"
          options={types.map((t) => ({ value: t, label: t }))}
          loading={supplies.query.isFetching}
          onChange={() => form.setFieldsValue({ medication_id: undefined, stock_id: undefined })}
          notFoundContent="No hay biológicos registrados en Suministros"
        />
      </Form.Item>
      <Form.Item
        name="medication_id"
        label="Laboratorio"
        rules={required}
        extra={biologicalType ? undefined : 'Elija primero el tipo de biológico.'}
      >
        <RadioGroup
          disabled={readOnly || !biologicalType}
          optionType="button"
          buttonStyle="solid"
          options={labs.map((s) => ({ value: s.id, label: s.tradename }))}
          onChange={() => form.setFieldValue('stock_id', undefined)}
        />
      </Form.Item>
      <Form.Item name="dose" label="Dosis" rules={required}>
        <Select disabled={readOnly} placeholder="Seleccione la dosis" options={doses} />
      </Form.Item>
      <Form.Item name="stock_id" label="Lote" extra="Si no elige uno, se usa el lote vigente que vence primero.">
        <Select
          disabled={readOnly || !medicationId}
          allowClear
          placeholder="Automático (el que vence primero)"
          options={usable.map((b) => ({ value: b.id, label: `${b.serial} · vence ${b.formated_expiration_date} · ${b.cuantity} und.` }))}
          notFoundContent="No hay lotes vigentes con unidades"
        />
      </Form.Item>
      <Form.Item name="vaccination_card" valuePropName="checked">
        <Checkbox disabled={readOnly}>El paciente presentó su carné de vacunación</Checkbox>
      </Form.Item>
      <Form.Item name="observations" label="Observaciones" rules={[{ max: 600, message: 'Debe tener máximo de 600 caracteres' }]}>
        <Input.TextArea disabled={readOnly} autoSize={{ minRows: 2, maxRows: 6 }} maxLength={600} showCount />
      </Form.Item>
    </>
  );
}
