import { Form, Modal } from 'antd';
import { useModalForm, type UseModalFormReturnType } from '@refinedev/antd';
import type { BaseKey, BaseRecord, HttpError } from '@refinedev/core';
import { CrudFormFields, formBody, formValues, useFormFields, type FormField } from './form';
import { crudNotifications } from './notifications';
import type { AnyResource } from './types';

export type Row = BaseRecord & Record<string, unknown>;
export type Values = Record<string, unknown>;

type ModalFormProps = {
  resource: AnyResource;
  action: 'create' | 'edit';
  title: string;
  fields: FormField[];
  form: UseModalFormReturnType<Row, HttpError, Values>;
  onClosed?: () => void;
};

/** Create or edit form of a declaration in a dialog over the list. */
export function CrudModalForm({ resource, action, title, fields, form, onClosed }: ModalFormProps) {
  const { modalProps, formProps } = form;
  return (
    <Modal
      {...modalProps}
      afterClose={() => {
        modalProps.afterClose?.();
        onClosed?.();
      }}
      title={title}
      okText="Guardar"
      cancelText="Cancelar"
      destroyOnHidden
      width={520}
      styles={{ body: { paddingTop: 12 } }}
    >
      <Form
        {...formProps}
        initialValues={action === 'edit' ? formValues(resource, formProps.initialValues) : formProps.initialValues}
        name={`${resource.name}-${action}`}
        layout="vertical"
        requiredMark
        onFinish={async (values) => {
          try {
            await formProps.onFinish?.(formBody(resource, fields, values as Values, action));
          } catch {
            // Already shown: the server's message as a notification and field errors under the fields.
          }
        }}
      >
        <CrudFormFields resource={resource} fields={fields} action={action} autoFocus />
      </Form>
    </Modal>
  );
}

/**
 * The edit dialog exists only while a record is being edited, so its query (and Refine's
 * record fetch) lives exactly as long as the dialog.
 */
export function CrudEditDialog({ resource, id, onClosed }: { resource: AnyResource; id: BaseKey; onClosed: () => void }) {
  const fields = useFormFields(resource, 'edit');
  const form = useModalForm<Row, HttpError, Values>({
    resource: resource.name,
    action: 'edit',
    id,
    defaultVisible: true,
    redirect: false,
    submitOnEnter: true,
    onMutationSuccess: (data) => resource.onSaved?.('edit', data.data as Record<string, unknown>),
    ...crudNotifications(resource, 'edit'),
  });
  return (
    <CrudModalForm
      resource={resource}
      action="edit"
      title={resource.labels.editTitle ?? 'Editar'}
      fields={fields}
      form={form}
      onClosed={onClosed}
    />
  );
}
