import { Navigate, useParams } from 'react-router';
import { Form } from 'antd';
import { Create, Edit, useForm } from '@refinedev/antd';
import type { BaseRecord, HttpError } from '@refinedev/core';
import { CrudFormFields, formBody, formValues, useFormFields } from './form';
import { crudNotifications } from './notifications';
import { RecordPageTitle } from './PageHeader';
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
  const onFinish = async (values: Values) => {
    try {
      await form.onFinish(formBody(resource, fields, values, action));
    } catch {
      // Already shown: the server's message as a notification and field errors under the fields.
    }
  };
  return { ...form, fields, onFinish };
}

/** Create page of any declaration (for resources whose form is not a dialog, or a direct link). */
export function CrudCreate({ resource }: { resource: AnyResource }) {
  const { formProps, saveButtonProps, fields, onFinish } = useCrudPageForm(resource, 'create');
  return (
    <Create
      resource={resource.name}
      title={<RecordPageTitle resource={resource} title={resource.labels.createTitle ?? resource.labels.create} />}
      goBack={false}
      breadcrumb={false}
      saveButtonProps={{ ...saveButtonProps, children: 'Guardar' }}
    >
      <Form
        {...formProps}
        name={`${resource.name}-create`}
        layout="vertical"
        onFinish={(v) => onFinish(v as Values)}
        style={{ maxWidth: 560 }}
      >
        <CrudFormFields resource={resource} fields={fields} action="create" autoFocus />
      </Form>
    </Create>
  );
}

/** Edit page of any declaration. */
export function CrudEdit({ resource }: { resource: AnyResource }) {
  const { formProps, saveButtonProps, fields, onFinish, id, query } = useCrudPageForm(resource, 'edit');
  // A record that does not exist (or belongs to another client, D14) leads to the 404 page (03 §8).
  if (query?.error?.statusCode === 404) return <Navigate to="/404notfound" replace />;
  return (
    <Edit
      resource={resource.name}
      recordItemId={id}
      title={<RecordPageTitle resource={resource} title={resource.labels.editTitle} />}
      goBack={false}
      breadcrumb={false}
      saveButtonProps={{ ...saveButtonProps, children: 'Guardar' }}
      canDelete={resource.actions?.delete ?? false}
      deleteButtonProps={crudNotifications(resource, 'delete')}
      headerButtons={() => null}
    >
      <Form
        {...formProps}
        initialValues={formValues(resource, formProps.initialValues)}
        name={`${resource.name}-edit`}
        layout="vertical"
        onFinish={(v) => onFinish(v as Values)}
        style={{ maxWidth: 560 }}
      >
        <CrudFormFields resource={resource} fields={fields} action="edit" />
      </Form>
    </Edit>
  );
}
