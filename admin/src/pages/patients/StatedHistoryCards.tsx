import { useState, type ReactNode } from 'react';
import { Button, Card, Empty, Form, Input, List, Modal, Popconfirm, Switch, Tag, Tooltip, Typography } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import type { Schemas } from '../../contract';
import { cleanStatement, HISTORY_DESCRIPTION_MAX, normaliseIcd10 } from '@vigia/contract/rules/history';
import { Select } from '../../crud/form-controls';
import { useApiMutation, useApiQuery } from '../../providers/calls';
import { fieldErrors } from '../../providers/errors';
import { formError, logOnly, serverError, success } from '../../providers/notices';
import { useInvalidatePaths } from '../../providers/queries';
import { useIdempotencyKey } from '../../hooks/useIdempotencyKey';
import { recordWriteState } from '../../components/record-access';
import { ReadFailedAlert, useReadState, type Read } from '../../ui/ReadState';
import type { Patient } from './types';

/**
 * 'Alergias' and 'Antecedentes familiares' (issue 51): the history the patient states, which the
 * 'RDA de paciente' carries. Each card reads its list and the guide's code list it labels with; a
 * read that failed shows as failed, never as 'Sin…' (P212). Written by the roles that write the
 * patient's conditions (clinical.write, the server's rule), never for a deceased patient.
 */

type Allergy = Schemas['PatientAllergy'];
type FamilyEntry = Schemas['PatientFamilyHistory'];
type CodeList = 'allergy_types' | 'family_relationships';

const REQUIRED = '¡El campo es requerido!';
const NONE: never[] = [];

/** A guide code list as select options; the code ('01') is the value, as the API stores it. */
function useCodeOptions(list: CodeList): { options: { value: string; label: string }[]; read: Read } {
  const { query } = useApiQuery('/listings/{list_name}', {
    params: { list_name: list },
    queryOptions: { staleTime: Infinity },
    errorNotification: logOnly(`listado ${list}`),
  });
  const data = query.data?.data?.data;
  return { options: data ? Object.entries(data).map(([value, label]) => ({ value, label })) : NONE, read: query };
}

const descriptionRules = [
  { required: true, whitespace: true, message: REQUIRED },
  { max: HISTORY_DESCRIPTION_MAX, message: `Debe tener máximo de ${HISTORY_DESCRIPTION_MAX} caracteres` },
];

/** The frame both cards share: title, 'Agregar', the read's state, and the rows. */
function HistoryCard<T extends { id: number }>(props: {
  title: string;
  what: string;
  addLabel: string;
  emptyText: string;
  reads: Read[];
  rows: T[];
  canWrite: boolean;
  reason?: string;
  onAdd: () => void;
  renderRow: (row: T) => ReactNode;
}) {
  const status = useReadState(props.reads, props.rows.length === 0, props.what);
  return (
    <Card
      className="patient-card history-card"
      title={props.title}
      extra={
        <Tooltip title={props.canWrite ? undefined : props.reason}>
          <Button
            icon={<PlusOutlined />}
            aria-label={props.addLabel}
            disabled={!props.canWrite || status.phase === 'failed'}
            onClick={props.onAdd}
          >
            Agregar
          </Button>
        </Tooltip>
      }
    >
      <ReadFailedAlert status={status} />
      {status.phase === 'failed' || status.phase === 'loading' ? null : props.rows.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={props.emptyText} />
      ) : (
        <List className="history-list" dataSource={props.rows} rowKey="id" renderItem={(row) => props.renderRow(row)} />
      )}
    </Card>
  );
}

/** A row's edit and delete buttons, disabled with the reason when the user may not write. */
function RowActions(props: { name: string; what: string; canWrite: boolean; reason?: string; onEdit: () => void; onDelete: () => void }) {
  return (
    <span className="history-actions">
      <Tooltip title={props.canWrite ? `Editar ${props.what}` : props.reason}>
        <Button type="text" icon={<EditOutlined />} aria-label={`Editar ${props.name}`} disabled={!props.canWrite} onClick={props.onEdit} />
      </Tooltip>
      <Popconfirm
        title={`¿Eliminar ${props.what}?`}
        okText="Eliminar"
        cancelText="Cancelar"
        okButtonProps={{ danger: true }}
        onConfirm={props.onDelete}
        disabled={!props.canWrite}
      >
        <Tooltip title={props.canWrite ? 'Eliminar' : props.reason}>
          <Button type="text" danger icon={<DeleteOutlined />} aria-label={`Eliminar ${props.name}`} disabled={!props.canWrite} />
        </Tooltip>
      </Popconfirm>
    </span>
  );
}

const ALLERGY_FIELDS = ['allergy_type', 'description', 'active'] as const;
type AllergyValues = { allergy_type: string; description: string; active: boolean };

export function AllergiesCard({ patient }: { patient: Patient }) {
  const path = `/patients/${patient.id}/allergies`;
  const { canWrite, reason } = recordWriteState(patient, 'clinical.write');
  const { query } = useApiQuery('/patients/{id}/allergies', {
    params: { id: patient.id },
    errorNotification: serverError('No fue posible cargar las alergias'),
  });
  const types = useCodeOptions('allergy_types');
  const rows = query.data?.data ?? NONE;
  const [editing, setEditing] = useState<Allergy | 'new' | null>(null);
  const [form] = Form.useForm<AllergyValues>();
  const { mutate, mutation } = useApiMutation();
  const idempotency = useIdempotencyKey();
  const refresh = useInvalidatePaths();

  const open = (row: Allergy | 'new') => {
    setEditing(row);
    form.setFieldsValue(row === 'new' ? { allergy_type: undefined, description: '', active: true } : row);
  };
  const done = () => {
    setEditing(null);
    void refresh(path);
  };
  const submit = async () => {
    const v = await form.validateFields();
    const body = { allergy_type: v.allergy_type, description: cleanStatement(v.description), active: v.active };
    const notices = { errorNotification: formError('No fue posible guardar la alergia', ALLERGY_FIELDS) };
    const onError = (error: unknown) => form.setFields(fieldErrors(error, ALLERGY_FIELDS));
    if (editing === 'new')
      mutate(
        {
          method: 'post',
          path: '/patients/{id}/allergies',
          params: { id: patient.id },
          values: body,
          idempotencyKey: idempotency.keyFor({ patient: patient.id, body }),
          successNotification: success('Alergia registrada'),
          ...notices,
        },
        { onSuccess: () => (idempotency.succeeded(), done()), onError },
      );
    else if (editing)
      mutate(
        {
          method: 'put',
          path: '/patients/{id}/allergies/{allergyId}',
          params: { id: patient.id, allergyId: editing.id },
          values: body,
          successNotification: success('Alergia actualizada'),
          ...notices,
        },
        { onSuccess: done, onError },
      );
  };
  const remove = (row: Allergy) =>
    mutate(
      {
        method: 'delete',
        path: '/patients/{id}/allergies/{allergyId}',
        params: { id: patient.id, allergyId: row.id },
        successNotification: success('Alergia eliminada'),
        errorNotification: serverError('No fue posible eliminar la alergia'),
      },
      { onSuccess: done },
    );

  return (
    <>
      <HistoryCard
        title="Alergias"
        what="las alergias"
        addLabel="Agregar alergia"
        emptyText="Sin alergias registradas"
        reads={[query, types.read]}
        rows={rows}
        canWrite={canWrite}
        reason={reason}
        onAdd={() => open('new')}
        renderRow={(row) => (
          <List.Item className={row.active ? undefined : 'history-inactive'}>
            <div className="history-row">
              <div className="history-text">
                <Tag color={row.active ? 'volcano' : 'default'}>{row.allergy_type_name}</Tag>
                {!row.active && <Tag>Ya no la tiene</Tag>}
                <span className="history-description">{row.description}</span>
              </div>
              <RowActions
                name={`alergia ${row.description}`}
                what="la alergia"
                canWrite={canWrite}
                reason={reason}
                onEdit={() => open(row)}
                onDelete={() => remove(row)}
              />
            </div>
          </List.Item>
        )}
      />
      <Modal
        open={editing !== null}
        title={editing === 'new' ? 'Agregar alergia' : 'Editar alergia'}
        okText="Guardar"
        cancelText="Cancelar"
        onOk={() => void submit()}
        onCancel={() => setEditing(null)}
        confirmLoading={mutation.isPending}
        forceRender
      >
        <Form form={form} name="allergy" layout="vertical" requiredMark>
          <Form.Item name="allergy_type" label="Tipo de alergia" rules={[{ required: true, message: REQUIRED }]}>
            <Select options={types.options} placeholder="Seleccione el tipo" />
          </Form.Item>
          <Form.Item name="description" label="¿A qué es alérgico el paciente?" rules={descriptionRules}>
            <Input.TextArea
              rows={3}
              maxLength={HISTORY_DESCRIPTION_MAX}
              showCount
              placeholder="La sustancia y, si la conoce, la reacción"
            />
          </Form.Item>
          <Form.Item name="active" label="La tiene actualmente" valuePropName="checked">
            <Switch checkedChildren="Sí" unCheckedChildren="No" />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}

const FAMILY_FIELDS = ['relationship', 'description', 'icd10'] as const;
type FamilyValues = { relationship: string; description: string; icd10?: string | null };

const icd10Rule = {
  validator: (_: unknown, v: string | null | undefined) =>
    !v?.trim() || normaliseIcd10(v)
      ? Promise.resolve()
      : Promise.reject(new Error('Escriba un código CIE-10 válido, por ejemplo I10X o E119')),
};

export function FamilyHistoryCard({ patient }: { patient: Patient }) {
  const path = `/patients/${patient.id}/family_history`;
  const { canWrite, reason } = recordWriteState(patient, 'clinical.write');
  const { query } = useApiQuery('/patients/{id}/family_history', {
    params: { id: patient.id },
    errorNotification: serverError('No fue posible cargar los antecedentes familiares'),
  });
  const relationships = useCodeOptions('family_relationships');
  const rows = query.data?.data ?? NONE;
  const [editing, setEditing] = useState<FamilyEntry | 'new' | null>(null);
  const [form] = Form.useForm<FamilyValues>();
  const { mutate, mutation } = useApiMutation();
  const idempotency = useIdempotencyKey();
  const refresh = useInvalidatePaths();

  const open = (row: FamilyEntry | 'new') => {
    setEditing(row);
    form.setFieldsValue(row === 'new' ? { relationship: undefined, description: '', icd10: '' } : { ...row, icd10: row.icd10 ?? '' });
  };
  const done = () => {
    setEditing(null);
    void refresh(path);
  };
  const submit = async () => {
    const v = await form.validateFields();
    const body = { relationship: v.relationship, description: cleanStatement(v.description), icd10: v.icd10?.trim() || null };
    const notices = { errorNotification: formError('No fue posible guardar el antecedente familiar', FAMILY_FIELDS) };
    const onError = (error: unknown) => form.setFields(fieldErrors(error, FAMILY_FIELDS));
    if (editing === 'new')
      mutate(
        {
          method: 'post',
          path: '/patients/{id}/family_history',
          params: { id: patient.id },
          values: body,
          idempotencyKey: idempotency.keyFor({ patient: patient.id, body }),
          successNotification: success('Antecedente familiar registrado'),
          ...notices,
        },
        { onSuccess: () => (idempotency.succeeded(), done()), onError },
      );
    else if (editing)
      mutate(
        {
          method: 'put',
          path: '/patients/{id}/family_history/{familyHistoryId}',
          params: { id: patient.id, familyHistoryId: editing.id },
          values: body,
          successNotification: success('Antecedente familiar actualizado'),
          ...notices,
        },
        { onSuccess: done, onError },
      );
  };
  const remove = (row: FamilyEntry) =>
    mutate(
      {
        method: 'delete',
        path: '/patients/{id}/family_history/{familyHistoryId}',
        params: { id: patient.id, familyHistoryId: row.id },
        successNotification: success('Antecedente familiar eliminado'),
        errorNotification: serverError('No fue posible eliminar el antecedente familiar'),
      },
      { onSuccess: done },
    );

  return (
    <>
      <HistoryCard
        title="Antecedentes familiares"
        what="los antecedentes familiares"
        addLabel="Agregar antecedente familiar"
        emptyText="Sin antecedentes familiares registrados"
        reads={[query, relationships.read]}
        rows={rows}
        canWrite={canWrite}
        reason={reason}
        onAdd={() => open('new')}
        renderRow={(row) => (
          <List.Item>
            <div className="history-row">
              <div className="history-text">
                <Tag color="blue">{row.relationship_name}</Tag>
                <span className="history-description">{row.description}</span>
                {row.icd10 && (
                  <Typography.Text type="secondary" className="history-code">
                    {' '}
                    · CIE-10 {row.icd10}
                  </Typography.Text>
                )}
              </div>
              <RowActions
                name={`antecedente ${row.description}`}
                what="el antecedente familiar"
                canWrite={canWrite}
                reason={reason}
                onEdit={() => open(row)}
                onDelete={() => remove(row)}
              />
            </div>
          </List.Item>
        )}
      />
      <Modal
        open={editing !== null}
        title={editing === 'new' ? 'Agregar antecedente familiar' : 'Editar antecedente familiar'}
        okText="Guardar"
        cancelText="Cancelar"
        onOk={() => void submit()}
        onCancel={() => setEditing(null)}
        confirmLoading={mutation.isPending}
        forceRender
      >
        <Form form={form} name="family_history" layout="vertical" requiredMark>
          <Form.Item name="relationship" label="Parentesco" rules={[{ required: true, message: REQUIRED }]}>
            <Select options={relationships.options} placeholder="Seleccione el parentesco" />
          </Form.Item>
          <Form.Item name="description" label="Enfermedad del familiar" rules={descriptionRules}>
            <Input maxLength={HISTORY_DESCRIPTION_MAX} showCount />
          </Form.Item>
          <Form.Item name="icd10" label="Código CIE-10 (opcional)" rules={[icd10Rule]}>
            <Input maxLength={7} placeholder="Por ejemplo I10X" />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
