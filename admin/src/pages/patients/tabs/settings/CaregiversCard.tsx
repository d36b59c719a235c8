import { useEffect, useState } from 'react';
import { Button, Card, Empty, Form, Input, Modal, Popconfirm, Space, Switch, Table, Tooltip } from 'antd';
import { Select } from '../../../../crud/form-controls';
import { DisconnectOutlined, EditOutlined, UserAddOutlined } from '@ant-design/icons';
import { CAREGIVER_RELATIONSHIPS } from '@vigia/contract/rules/record';
import { normaliseName, validateEmail, validateName, validateNid, validatePhone, MESSAGES } from '@vigia/contract/rules/validation';
import type { Schemas } from '../../../../contract';
import { readSession } from '../../../../session';
import { useApiMutation, useApiQuery } from '../../../../providers/calls';
import { ReadState } from '../../../../ui/ReadState';
import { serverError, success } from '../../../../providers/notices';
import { useInvalidatePaths } from '../../../../providers/queries';
import { useIdTypes, useListing } from '../../../../hooks/listings';
import { ListingsFailedAlert } from '../../ListingsFailedAlert';
import type { Patient } from '../../types';
import { editState } from './edit-state';

type Caregiver = Schemas['Caregiver'];

interface CaregiverForm {
  country_id: number;
  id_type: number;
  nid: string;
  first_name: string;
  last_name: string;
  prefix: string;
  cellphone: string;
  email?: string;
  relationship?: string;
  notification: boolean;
}

/** 'Cuidadores': the patient's caregivers, added, edited and unlinked in place (01 §2, §5, §8). */
export function CaregiversCard({ patient, active }: { patient: Patient; active: boolean }) {
  const session = readSession();
  const [editing, setEditing] = useState<Caregiver | 'new' | null>(null);
  const [hasErrors, setHasErrors] = useState(false);
  const [form] = Form.useForm<CaregiverForm>();
  const countryId = Form.useWatch('country_id', form);
  const idTypeId = Form.useWatch('id_type', form);
  const idTypes = useIdTypes(countryId);
  const countries = useListing('countries');
  const { canEdit, reason } = editState(patient);
  const path = `/patients/${patient.id}/caregivers`;
  // Read while the tab is the visible one; showing it again reads afresh (01 §2).
  const { query } = useApiQuery('/patients/{id}/caregivers', {
    params: { id: patient.id },
    queryOptions: { enabled: active, placeholderData: (previous) => previous },
    errorNotification: serverError('No fue posible cargar los cuidadores'),
  });
  const list = query.data?.data ?? [];
  const loading = query.isFetching;
  const { mutate } = useApiMutation();
  const refresh = useInvalidatePaths();
  // 01 §5: the id-number check reloads when the country or the id type changes.
  useEffect(() => {
    if (editing && form.getFieldValue('nid')) void form.validateFields(['nid']).catch(() => undefined);
  }, [idTypeId, idTypes, editing, form]);

  const open = (c: Caregiver | 'new') => {
    form.resetFields();
    setHasErrors(false);
    form.setFieldsValue(
      c === 'new'
        ? { country_id: session?.country_id, prefix: session?.prefix, id_type: 1, notification: true }
        : {
            ...c,
            email: c.email ?? undefined,
            relationship: c.relationship ?? undefined,
            prefix: c.prefix ?? undefined,
            cellphone: c.cellphone ?? undefined,
          },
    );
    setEditing(c);
  };

  const save = async () => {
    const v = await form.validateFields();
    const body = {
      ...v,
      nid: v.nid.trim(),
      first_name: normaliseName(v.first_name),
      last_name: normaliseName(v.last_name),
      relationship: v.relationship ? normaliseName(v.relationship) : null,
      email: v.email?.trim() ? v.email.trim() : null,
    };
    // 01 §8: a failed caregiver save shows the server notification and the dialog closes.
    const notices = {
      successNotification: (res: { data?: Schemas['CaregiverSaved'] }) =>
        ({ type: 'success', message: res?.data?.notification_message.message ?? '' }) as const,
      errorNotification: serverError('No fue posible guardar el cuidador'),
    };
    const callbacks = { onSuccess: () => void refresh(path), onSettled: () => setEditing(null) };
    if (editing === 'new')
      mutate({ method: 'post', path: '/patients/{id}/caregivers', params: { id: patient.id }, values: body, ...notices }, callbacks);
    else
      mutate(
        {
          method: 'put',
          path: '/patients/{id}/caregivers/{caregiverId}',
          params: { id: patient.id, caregiverId: (editing as Caregiver).id },
          values: body,
          ...notices,
        },
        callbacks,
      );
  };

  const unlink = (c: Caregiver) =>
    mutate(
      {
        method: 'delete',
        path: '/patients/{id}/caregivers/{caregiverId}',
        params: { id: patient.id, caregiverId: c.id },
        successNotification: success('Cuidador desvinculado del paciente'),
        errorNotification: serverError('No fue posible desvincular el cuidador'),
      },
      { onSuccess: () => void refresh(path) },
    );

  const regex = idTypes.find((t) => t.id === idTypeId)?.validation_regex;
  const check = (fn: (v: string) => string | null) => ({
    validator: (_: unknown, v: string) => {
      const m = fn(v);
      return m ? Promise.reject(new Error(m)) : Promise.resolve();
    },
  });

  return (
    <Card
      size="small"
      title="Cuidadores"
      className="settings-wide"
      extra={
        <Tooltip title={canEdit ? undefined : reason}>
          <Button size="small" icon={<UserAddOutlined />} disabled={!canEdit} onClick={() => open('new')}>
            Agregar cuidador
          </Button>
        </Tooltip>
      }
    >
      <ReadState reads={[query]} what="los cuidadores" isEmpty={list.length === 0}>
        <Table<Caregiver>
          size="small"
          rowKey="id"
          loading={loading}
          pagination={false}
          dataSource={list}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="Sin cuidadores registrados" /> }}
          columns={[
            { title: 'Nombre', render: (_, c) => `${c.first_name} ${c.last_name}` },
            { title: 'Parentesco', dataIndex: 'relationship', render: (r: string | null) => r ?? '—' },
            { title: 'Teléfono', render: (_, c) => (c.cellphone ? `${c.prefix ?? ''} ${c.cellphone}` : '—') },
            {
              title: <span className="vigia-sr-only">Acciones</span>,
              key: 'actions',
              width: 90,
              render: (_, c) => (
                <Space size={0}>
                  <Button type="text" aria-label="Editar cuidador" icon={<EditOutlined />} disabled={!canEdit} onClick={() => open(c)} />
                  <Popconfirm
                    title="¿Desvincular este cuidador del paciente?"
                    okText="Desvincular"
                    cancelText="Cancelar"
                    onConfirm={() => unlink(c)}
                    disabled={!canEdit}
                  >
                    <Button type="text" aria-label="Desvincular cuidador" icon={<DisconnectOutlined />} disabled={!canEdit} />
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
        />
      </ReadState>
      <Modal
        open={editing !== null}
        title={editing === 'new' ? 'Nuevo cuidador' : 'Editar cuidador'}
        onCancel={() => setEditing(null)}
        onOk={save}
        okText="Guardar"
        cancelText="Cancelar"
        okButtonProps={{ disabled: hasErrors }}
        destroyOnHidden
        width={620}
      >
        <ListingsFailedAlert />
        <Form form={form} layout="vertical" onFieldsChange={() => setHasErrors(form.getFieldsError().some((f) => f.errors.length > 0))}>
          <div className="caregiver-row">
            <Form.Item name="country_id" label="País" rules={[{ required: true, message: MESSAGES.required }]} style={{ flex: 1 }}>
              <Select options={countries} onChange={() => form.setFieldValue('id_type', undefined)} />
            </Form.Item>
            <Form.Item
              name="id_type"
              label="Tipo de documento"
              rules={[{ required: true, message: MESSAGES.required }]}
              style={{ flex: 1 }}
            >
              <Select options={idTypes.map((t) => ({ value: t.id, label: t.name }))} />
            </Form.Item>
          </div>
          <Form.Item name="nid" label="Número de documento" required rules={[check((v) => validateNid(v, regex))]}>
            <Input />
          </Form.Item>
          <div className="caregiver-row">
            <Form.Item
              name="first_name"
              label="Nombres"
              required
              rules={[check((v) => validateName(v))]}
              normalize={(v: string) => v?.toUpperCase()}
              style={{ flex: 1 }}
            >
              <Input />
            </Form.Item>
            <Form.Item
              name="last_name"
              label="Apellidos"
              required
              rules={[check((v) => validateName(v))]}
              normalize={(v: string) => v?.toUpperCase()}
              style={{ flex: 1 }}
            >
              <Input />
            </Form.Item>
          </div>
          <div className="caregiver-row caregiver-phone">
            <Form.Item name="prefix" label="Prefijo" rules={[{ required: true, message: MESSAGES.required }]}>
              <Input />
            </Form.Item>
            <Form.Item name="cellphone" label="Celular" required rules={[check((v) => validatePhone(v))]} style={{ flex: 1 }}>
              <Input inputMode="numeric" />
            </Form.Item>
          </div>
          <Form.Item name="email" label="Correo electrónico" rules={[check((v) => validateEmail(v, false))]}>
            <Input type="email" />
          </Form.Item>
          <Form.Item name="relationship" label="Parentesco con el paciente">
            <Select allowClear showSearch options={CAREGIVER_RELATIONSHIPS.map((r) => ({ value: r, label: r }))} />
          </Form.Item>
          <Form.Item name="notification" label="Recibe notificaciones" valuePropName="checked">
            <Switch />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
