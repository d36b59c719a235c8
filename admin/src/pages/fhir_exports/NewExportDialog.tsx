import { lazy, Suspense, useState, type ComponentProps } from 'react';
import { useCreate } from '@refinedev/core';
import { Alert, Checkbox, Form, Modal, Select, Skeleton } from 'antd';
import { useClientTags } from '../../hooks/useClientTags';
import { fieldErrors, isHttpError } from '../../providers/errors';
import { success } from '../../providers/notices';
import { EXPORT_TYPES, newExportBody, TYPE_OPTIONS, type FhirExport, type NewExportValues } from './fhir-exports';

/** The date-time picker (dd/mm/aaaa hh:mm) loads with the form that needs it. */
const DateInput = lazy(() => import('../../crud/date-input'));

/** The picker as the form item's control: the item hands its value, onChange and id to it, not to Suspense. */
function SinceInput(control: ComponentProps<typeof DateInput>) {
  return (
    <Suspense fallback={<Skeleton.Input active block />}>
      <DateInput {...control} withTime placeholder="dd/mm/aaaa hh:mm" />
    </Suspense>
  );
}

/**
 * At least one type. A validator, not `required`: antd would put aria-required on the checkbox group's
 * plain div, where ARIA does not allow it (axe aria-allowed-attr).
 */
const TYPES_RULE = {
  validator: (_: unknown, types: unknown[] | undefined) =>
    types?.length ? Promise.resolve() : Promise.reject(new Error('Elija uno o más tipos de recurso')),
};

const FIELDS = ['types', 'since', 'group_id'] as const;

/**
 * 'Nueva exportación': which FHIR types (all nine ticked), from when (empty: the whole history) and
 * whose patients (a tag, or all). The API's refusals show under their field; one that names no field
 * (too many exports at once, 429) shows at the top of the form.
 */
export function NewExportDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<NewExportValues>();
  const [refusal, setRefusal] = useState<string | null>(null);
  const { mutate, mutation } = useCreate<FhirExport>();
  const tags = useClientTags();
  const busy = mutation.isPending;

  function start(values: NewExportValues) {
    setRefusal(null);
    mutate(
      {
        resource: 'fhir_exports',
        values: newExportBody(values),
        successNotification: success('Exportación en cola', 'Los archivos aparecen en la lista cuando termine.'),
        errorNotification: false,
      },
      {
        onSuccess: () => onClose(),
        onError: (error) => {
          const errors = fieldErrors<NewExportValues>(error, FIELDS);
          form.setFields(errors);
          if (!errors.length) setRefusal(isHttpError(error) ? error.message : 'No fue posible iniciar la exportación');
        },
      },
    );
  }

  return (
    <Modal
      open={open}
      title="Nueva exportación FHIR"
      okText="Iniciar exportación"
      cancelText="Cancelar"
      onOk={() => form.submit()}
      onCancel={() => !busy && onClose()}
      okButtonProps={{ loading: busy }}
      afterClose={() => {
        form.resetFields();
        setRefusal(null);
      }}
      destroyOnHidden
      width={560}
    >
      {refusal && <Alert type="error" showIcon message={refusal} style={{ marginBottom: 16 }} />}
      <Form form={form} layout="vertical" onFinish={start} initialValues={{ types: EXPORT_TYPES }} disabled={busy}>
        <Form.Item
          name="types"
          label="Datos que se exportan"
          rules={[TYPES_RULE]}
          extra="Un archivo por tipo (o varios, si son muchos recursos)."
        >
          <Checkbox.Group options={TYPE_OPTIONS} className="fhir-export-types" />
        </Form.Item>
        <Form.Item name="since" label="Desde (opcional)" extra="Solo los recursos creados o modificados después. Vacío: todo el historial.">
          <SinceInput />
        </Form.Item>
        <Form.Item name="group_id" label="Etiqueta (opcional)" extra="Solo los pacientes de esa etiqueta. Vacío: todos los pacientes.">
          <Select
            allowClear
            showSearch
            optionFilterProp="label"
            placeholder="Todos los pacientes"
            options={tags.map((t) => ({ value: t.id, label: t.name }))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
