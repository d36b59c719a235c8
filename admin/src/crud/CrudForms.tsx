import { useParams } from 'react-router';
import { Form } from 'antd';
import { Create, Edit, useForm } from '@refinedev/antd';
import type { BaseRecord, HttpError } from '@refinedev/core';
import { CrudFormFields, useFormFields } from './form';
import { crudNotifications } from './notifications';
import { toRequestBody } from './schema-rules';
import type { AnyResource } from './types';

type Values = Record<string, unknown>;

function useCrudPageForm(resource: AnyResource, action: 'create' | 'edit') {
  const { id } = useParams();
  const fields = useFormFields(resource, action);
  const form = useForm<BaseRecord, HttpError, Values>({
    resource: resource.name,
    action,
    id: action === 'edit' ? id : undefined,
    redirect: 'list',
    ...crudNotifications(resource, action),
  });
  const onFinish = (values: Values) => form.onFinish(toRequestBody(fields.map((f) => f.spec), values));
  return { ...form, fields, onFinish };
}

/** Create page of any declaration (for resources whose form is not a dialog, or a direct link). */
export function CrudCreate({ resource }: { resource: AnyResource }) {
  const { formProps, saveButtonProps, fields, onFinish } = useCrudPageForm(resource, 'create');
  return (
    <Create
      resource={resource.name}
      title={resource.labels.createTitle ?? resource.labels.create}
      breadcrumb={false}
      saveButtonProps={{ ...saveButtonProps, children: 'Guardar' }}
    >
      <Form {...formProps} layout="vertical" onFinish={(v) => onFinish(v as Values)} style={{ maxWidth: 560 }}>
        <CrudFormFields resource={resource} fields={fields} autoFocus />
      </Form>
    </Create>
  );
}

/** Edit page of any declaration. */
export function CrudEdit({ resource }: { resource: AnyResource }) {
  const { formProps, saveButtonProps, fields, onFinish, id } = useCrudPageForm(resource, 'edit');
  return (
    <Edit
      resource={resource.name}
      recordItemId={id}
      title={resource.labels.editTitle}
      breadcrumb={false}
      saveButtonProps={{ ...saveButtonProps, children: 'Guardar' }}
      canDelete={resource.actions?.delete ?? false}
      deleteButtonProps={crudNotifications(resource, 'delete')}
      headerButtons={() => null}
    >
      <Form {...formProps} layout="vertical" onFinish={(v) => onFinish(v as Values)} style={{ maxWidth: 560 }}>
        <CrudFormFields resource={resource} fields={fields} />
      </Form>
    </Edit>
  );
}
