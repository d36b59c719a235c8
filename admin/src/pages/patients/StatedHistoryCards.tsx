import { useState, type ReactNode } from 'react';
import { Button, Card, Empty, Form, Input, List, Modal, Popconfirm, Switch, Tag, Tooltip, Typography } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import type { Schemas } from '../../contract';
import { cleanStatement, HISTORY_DESCRIPTION_MAX, normaliseIcd10 } from '@vigia/contract/rules/history';
import { Select } from '../../crud/form-controls';
import {
  apiRead,
  useApiMutation,
  useApiQuery,
  useApiRead,
  type ApiRead,
  type ApiWrite,
  type PathWith,
  type WriteMethod,
} from '../../providers/calls';
import { fieldErrors } from '../../providers/errors';
import { formError, logOnly, serverError, success } from '../../providers/notices';
import { useInvalidatePaths } from '../../providers/queries';
import { useIdempotencyKey } from '../../hooks/useIdempotencyKey';
import { recordWriteState } from '../../components/record-access';
import { ReadFailedAlert, useReadState, type Read } from '../../ui/ReadState';
import type { Patient } from './types';

/**
 * 'Alergias' and 'Antecedentes familiares' (issue 51): the history the patient states, which the
 * 'RDA de paciente' carries. One card, configured per kind: it reads its list and the guide's code
 * list it labels with; a read that failed shows as failed, never as 'Sin…' (P212). Written by the
 * roles that write the patient's conditions (clinical.write, the server's rule), never for a
 * deceased patient.
 */

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

/** One write of a list, checked against the contract where its kind builds it (`checked`). */
type HistoryWrite = { method: WriteMethod; path: string; params: Record<string, number>; values?: object };
const checked = <M extends WriteMethod, P extends PathWith<M>>(write: ApiWrite<M, P>) => write as unknown as HistoryWrite;

/** What one kind of stated history is: its calls, its code field, its texts, its rows and its form. */
interface HistoryKind<Row extends { id: number; description: string }, Values extends { description: string }> {
  /** The list's path segment under the patient, refreshed after a write. */
  segment: string;
  read(patientId: number): ApiRead<Row[]>;
  create(patientId: number, values: Values): HistoryWrite;
  update(patientId: number, entryId: number, values: Values): HistoryWrite;
  remove(patientId: number, entryId: number): HistoryWrite;
  /** The form's fields, which a 400 from the API may name. */
  fields: readonly string[];
  /** The coded field: its name, the guide's list it takes its codes from, its label and placeholder. */
  code: { name: string; list: CodeList; label: string; placeholder: string };
  description: { label: string; input: ReactNode };
  /** The form's fields after the description. */
  more: ReactNode;
  formName: string;
  blank: Partial<Values>;
  valuesOf(row: Row): Values;
  texts: {
    title: string;
    /** The list, as the read's state names it ('las alergias'). */
    what: string;
    /** 'Agregar alergia': the button's accessible name and the new entry's dialog. */
    add: string;
    edit: string;
    empty: string;
    loadFailed: string;
    saveFailed: string;
    created: string;
    updated: string;
    deleted: string;
    deleteFailed: string;
    /** One entry ('la alergia'), and its name in a row's button ('alergia Penicilina'). */
    one: string;
    rowName(row: Row): string;
  };
  rowClass?(row: Row): string | undefined;
  /** What a row shows before the description (its code's name) and after it. */
  tags(row: Row): ReactNode;
  after?(row: Row): ReactNode;
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

/** The card of one kind: title, 'Agregar', the read's state, the rows, and the dialog that adds or edits an entry. */
function StatedHistoryCard<Row extends { id: number; description: string }, Values extends { description: string }>({
  patient,
  kind,
}: {
  patient: Patient;
  kind: HistoryKind<Row, Values>;
}) {
  const { texts } = kind;
  const { canWrite, reason } = recordWriteState(patient, 'clinical.write');
  const { query } = useApiRead(kind.read(patient.id), { errorNotification: serverError(texts.loadFailed) });
  const codes = useCodeOptions(kind.code.list);
  const rows = query.data?.data ?? NONE;
  const [editing, setEditing] = useState<Row | 'new' | null>(null);
  const [form] = Form.useForm<Values>();
  const { mutate, mutation } = useApiMutation();
  const idempotency = useIdempotencyKey();
  const refresh = useInvalidatePaths();
  const status = useReadState([query, codes.read], rows.length === 0, texts.what);

  const open = (row: Row | 'new') => {
    setEditing(row);
    form.setFieldsValue((row === 'new' ? kind.blank : kind.valuesOf(row)) as Parameters<typeof form.setFieldsValue>[0]);
  };
  const done = () => {
    setEditing(null);
    void refresh(`/patients/${patient.id}/${kind.segment}`);
  };
  // The writes were checked against the contract where the kind built them (`checked`).
  const send = (write: HistoryWrite & Record<string, unknown>, callbacks: { onSuccess: () => void; onError?: (error: unknown) => void }) =>
    mutate(write as never, callbacks);
  const submit = async () => {
    const v = await form.validateFields();
    const values = { ...v, description: cleanStatement(v.description) };
    const notices = { errorNotification: formError(texts.saveFailed, kind.fields) };
    const onError = (error: unknown) => form.setFields(fieldErrors(error, kind.fields) as Parameters<typeof form.setFields>[0]);
    if (editing === 'new') {
      const write = kind.create(patient.id, values);
      send(
        {
          ...write,
          idempotencyKey: idempotency.keyFor({ patient: patient.id, body: write.values }),
          successNotification: success(texts.created),
          ...notices,
        },
        { onSuccess: () => (idempotency.succeeded(), done()), onError },
      );
    } else if (editing)
      send(
        { ...kind.update(patient.id, editing.id, values), successNotification: success(texts.updated), ...notices },
        { onSuccess: done, onError },
      );
  };
  const remove = (row: Row) =>
    send(
      {
        ...kind.remove(patient.id, row.id),
        successNotification: success(texts.deleted),
        errorNotification: serverError(texts.deleteFailed),
      },
      { onSuccess: done },
    );

  return (
    <>
      <Card
        className="patient-card history-card"
        title={texts.title}
        extra={
          <Tooltip title={canWrite ? undefined : reason}>
            <Button
              icon={<PlusOutlined />}
              aria-label={texts.add}
              disabled={!canWrite || status.phase === 'failed'}
              onClick={() => open('new')}
            >
              Agregar
            </Button>
          </Tooltip>
        }
      >
        <ReadFailedAlert status={status} />
        {status.phase === 'failed' || status.phase === 'loading' ? null : rows.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={texts.empty} />
        ) : (
          <List
            className="history-list"
            dataSource={rows}
            rowKey="id"
            renderItem={(row) => (
              <List.Item className={kind.rowClass?.(row)}>
                <div className="history-row">
                  <div className="history-text">
                    {kind.tags(row)}
                    <span className="history-description">{row.description}</span>
                    {kind.after?.(row)}
                  </div>
                  <RowActions
                    name={texts.rowName(row)}
                    what={texts.one}
                    canWrite={canWrite}
                    reason={reason}
                    onEdit={() => open(row)}
                    onDelete={() => remove(row)}
                  />
                </div>
              </List.Item>
            )}
          />
        )}
      </Card>
      <Modal
        open={editing !== null}
        title={editing === 'new' ? texts.add : texts.edit}
        okText="Guardar"
        cancelText="Cancelar"
        onOk={() => void submit()}
        onCancel={() => setEditing(null)}
        confirmLoading={mutation.isPending}
        forceRender
      >
        <Form form={form} name={kind.formName} layout="vertical" requiredMark>
          <Form.Item name={kind.code.name} label={kind.code.label} rules={[{ required: true, message: REQUIRED }]}>
            <Select options={codes.options} placeholder={kind.code.placeholder} />
          </Form.Item>
          <Form.Item name="description" label={kind.description.label} rules={descriptionRules}>
            {kind.description.input}
          </Form.Item>
          {kind.more}
        </Form>
      </Modal>
    </>
  );
}

type Allergy = Schemas['PatientAllergy'];
type AllergyValues = { allergy_type: string; description: string; active: boolean };

const allergyBody = (v: AllergyValues) => ({ allergy_type: v.allergy_type, description: v.description, active: v.active });

const ALLERGIES: HistoryKind<Allergy, AllergyValues> = {
  segment: 'allergies',
  read: (id) => apiRead('/patients/{id}/allergies', { params: { id } }),
  create: (id, v) => checked({ method: 'post', path: '/patients/{id}/allergies', params: { id }, values: allergyBody(v) }),
  update: (id, allergyId, v) =>
    checked({ method: 'put', path: '/patients/{id}/allergies/{allergyId}', params: { id, allergyId }, values: allergyBody(v) }),
  remove: (id, allergyId) => checked({ method: 'delete', path: '/patients/{id}/allergies/{allergyId}', params: { id, allergyId } }),
  fields: ['allergy_type', 'description', 'active'],
  code: { name: 'allergy_type', list: 'allergy_types', label: 'Tipo de alergia', placeholder: 'Seleccione el tipo' },
  description: {
    label: '¿A qué es alérgico el paciente?',
    input: (
      <Input.TextArea rows={3} maxLength={HISTORY_DESCRIPTION_MAX} showCount placeholder="La sustancia y, si la conoce, la reacción" />
    ),
  },
  more: (
    <Form.Item name="active" label="La tiene actualmente" valuePropName="checked">
      <Switch checkedChildren="Sí" unCheckedChildren="No" />
    </Form.Item>
  ),
  formName: 'allergy',
  blank: { allergy_type: undefined, description: '', active: true },
  valuesOf: (row) => row,
  texts: {
    title: 'Alergias',
    what: 'las alergias',
    add: 'Agregar alergia',
    edit: 'Editar alergia',
    empty: 'Sin alergias registradas',
    loadFailed: 'No fue posible cargar las alergias',
    saveFailed: 'No fue posible guardar la alergia',
    created: 'Alergia registrada',
    updated: 'Alergia actualizada',
    deleted: 'Alergia eliminada',
    deleteFailed: 'No fue posible eliminar la alergia',
    one: 'la alergia',
    rowName: (row) => `alergia ${row.description}`,
  },
  rowClass: (row) => (row.active ? undefined : 'history-inactive'),
  tags: (row) => (
    <>
      <Tag color={row.active ? 'volcano' : 'default'}>{row.allergy_type_name}</Tag>
      {!row.active && <Tag>Ya no la tiene</Tag>}
    </>
  ),
};

type FamilyEntry = Schemas['PatientFamilyHistory'];
type FamilyValues = { relationship: string; description: string; icd10?: string | null };

const icd10Rule = {
  validator: (_: unknown, v: string | null | undefined) =>
    !v?.trim() || normaliseIcd10(v)
      ? Promise.resolve()
      : Promise.reject(new Error('Escriba un código CIE-10 válido, por ejemplo I10X o E119')),
};

const familyBody = (v: FamilyValues) => ({ relationship: v.relationship, description: v.description, icd10: v.icd10?.trim() || null });

const FAMILY_HISTORY: HistoryKind<FamilyEntry, FamilyValues> = {
  segment: 'family_history',
  read: (id) => apiRead('/patients/{id}/family_history', { params: { id } }),
  create: (id, v) => checked({ method: 'post', path: '/patients/{id}/family_history', params: { id }, values: familyBody(v) }),
  update: (id, familyHistoryId, v) =>
    checked({
      method: 'put',
      path: '/patients/{id}/family_history/{familyHistoryId}',
      params: { id, familyHistoryId },
      values: familyBody(v),
    }),
  remove: (id, familyHistoryId) =>
    checked({ method: 'delete', path: '/patients/{id}/family_history/{familyHistoryId}', params: { id, familyHistoryId } }),
  fields: ['relationship', 'description', 'icd10'],
  code: { name: 'relationship', list: 'family_relationships', label: 'Parentesco', placeholder: 'Seleccione el parentesco' },
  description: { label: 'Enfermedad del familiar', input: <Input maxLength={HISTORY_DESCRIPTION_MAX} showCount /> },
  more: (
    <Form.Item name="icd10" label="Código CIE-10 (opcional)" rules={[icd10Rule]}>
      <Input maxLength={7} placeholder="Por ejemplo I10X" />
    </Form.Item>
  ),
  formName: 'family_history',
  blank: { relationship: undefined, description: '', icd10: '' },
  valuesOf: (row) => ({ ...row, icd10: row.icd10 ?? '' }),
  texts: {
    title: 'Antecedentes familiares',
    what: 'los antecedentes familiares',
    add: 'Agregar antecedente familiar',
    edit: 'Editar antecedente familiar',
    empty: 'Sin antecedentes familiares registrados',
    loadFailed: 'No fue posible cargar los antecedentes familiares',
    saveFailed: 'No fue posible guardar el antecedente familiar',
    created: 'Antecedente familiar registrado',
    updated: 'Antecedente familiar actualizado',
    deleted: 'Antecedente familiar eliminado',
    deleteFailed: 'No fue posible eliminar el antecedente familiar',
    one: 'el antecedente familiar',
    rowName: (row) => `antecedente ${row.description}`,
  },
  tags: (row) => <Tag color="blue">{row.relationship_name}</Tag>,
  after: (row) =>
    row.icd10 && (
      <Typography.Text type="secondary" className="history-code">
        {' '}
        · CIE-10 {row.icd10}
      </Typography.Text>
    ),
};

export const AllergiesCard = ({ patient }: { patient: Patient }) => <StatedHistoryCard patient={patient} kind={ALLERGIES} />;
export const FamilyHistoryCard = ({ patient }: { patient: Patient }) => <StatedHistoryCard patient={patient} kind={FAMILY_HISTORY} />;
