import { ReadState } from '../../../ui/ReadState';
import { useState } from 'react';
import { useList } from '@refinedev/core';
import { Button, Card, Empty, Form, Input, List, Modal, Popconfirm, Spin, Tag, Tooltip, Typography } from 'antd';
import { Select } from '../../../crud/form-controls';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { Schemas } from '../../../contract';
import { EMPTY_OBSERVATIONS, formatDateTime, STAFF_OBSERVATION_TYPES } from '@vigia/contract/rules/record';
import { useApiMutation } from '../../../providers/calls';
import { serverError, logOnly, success } from '../../../providers/notices';
import { useInvalidatePaths } from '../../../providers/queries';
import { recordWriteState } from '../../../components/record-access';
import type { PatientTabProps } from '../types';
import './record-tabs.css';
import { SectionTitle } from '../../../components/SectionTitle';

type Observation = Schemas['Observation'];
const TYPE_COLORS = ['blue', 'purple', 'green', 'orange', 'default', 'cyan'];

/** Tab 'Anotaciones' of the patient page (01 §2). */
export default function ObservationsTab({ patient, active }: PatientTabProps) {
  const [creating, setCreating] = useState(false);
  const [type, setType] = useState<Schemas['ObservationInput']['observation_type'] | undefined>();
  const [text, setText] = useState('');
  const { canWrite, reason } = recordWriteState(patient, 'clinical.write');
  const path = `/patients/${patient.id}/observations`;
  // Read while the tab is the visible one; showing it again reads afresh (01 §2).
  const { query, result } = useList<Observation>({
    resource: path.slice(1),
    pagination: { currentPage: 1, pageSize: 100 },
    queryOptions: { enabled: active },
    // Logged, and said in place with 'Reintentar' (P212, superseding 01 §8's 'logged only').
    errorNotification: logOnly('anotaciones'),
  });
  const notes = result.data;
  const loading = query.isFetching;
  const { mutate, mutation } = useApiMutation();
  const saving = mutation.isPending;
  const refresh = useInvalidatePaths();

  const open = () => {
    setType(undefined);
    setText('');
    setCreating(true);
  };

  const create = () => {
    if (type === undefined || !text.trim()) return;
    mutate(
      {
        method: 'post',
        path: '/patients/{id}/observations',
        params: { id: patient.id },
        values: { observation_type: type, value_text: text.trim() },
        successNotification: success('Anotación creada'),
        errorNotification: serverError('No fue posible crear la anotación'),
      },
      {
        onSuccess: () => {
          setCreating(false);
          void refresh(path);
        },
      },
    );
  };

  const remove = (note: Observation) =>
    mutate(
      {
        method: 'delete',
        path: '/patients/{id}/observations/{observationId}',
        params: { id: patient.id, observationId: note.id },
        successNotification: success('Anotación eliminada'),
        errorNotification: serverError('No fue posible eliminar la anotación'),
      },
      { onSuccess: () => void refresh(path) },
    );

  return (
    <div className="record-tab">
      <div className="record-tab-head">
        <SectionTitle>Anotaciones</SectionTitle>
        <Tooltip title={canWrite ? undefined : reason}>
          <Button type="primary" icon={<PlusOutlined />} disabled={!canWrite} onClick={open}>
            Crear Anotación
          </Button>
        </Tooltip>
      </div>
      <Spin spinning={loading}>
        <ReadState reads={[query]} what="las anotaciones" isEmpty={notes.length === 0} empty={<Empty description={EMPTY_OBSERVATIONS} />}>
          <List
            dataSource={notes}
            renderItem={(note) => (
              // A list item around each card: the list's <ul> may hold only <li> (axe `list`).
              <List.Item key={note.id} className="observation-item">
                <Card size="small" className="observation-card">
                  <div className="observation-meta">
                    <Tag color={TYPE_COLORS[note.observation_type] ?? 'default'}>{note.observation_type_name}</Tag>
                    <Typography.Text type="secondary">
                      {note.user_name ?? ''} · {formatDateTime(new Date(note.observed_at), note.time_zone)} · {note.timespan_text}
                    </Typography.Text>
                    {note.erasable && (
                      <Popconfirm
                        title="¿Eliminar esta anotación?"
                        okText="Eliminar"
                        cancelText="Cancelar"
                        okButtonProps={{ danger: true }}
                        onConfirm={() => remove(note)}
                        disabled={!canWrite}
                      >
                        <Tooltip title={canWrite ? 'Eliminar' : reason}>
                          <Button
                            aria-label="Eliminar anotación"
                            type="text"
                            danger
                            size="small"
                            icon={<DeleteOutlined />}
                            disabled={!canWrite}
                            className="observation-delete"
                          />
                        </Tooltip>
                      </Popconfirm>
                    )}
                  </div>
                  <Typography.Paragraph className="observation-text">{note.value_text}</Typography.Paragraph>
                </Card>
              </List.Item>
            )}
          />
        </ReadState>
      </Spin>
      <Modal
        open={creating}
        title="Crear Anotación"
        onCancel={() => setCreating(false)}
        destroyOnHidden
        footer={[
          <Button key="cancel" onClick={() => setCreating(false)}>
            Cancelar
          </Button>,
          <Button key="create" type="primary" loading={saving} disabled={type === undefined || !text.trim()} onClick={create}>
            Crear
          </Button>,
        ]}
      >
        <Form layout="vertical">
          <Form.Item label="Tipo" htmlFor="observation-type">
            <Select
              id="observation-type"
              placeholder="Seleccione el tipo"
              value={type}
              onChange={setType}
              options={STAFF_OBSERVATION_TYPES.map((t) => ({ ...t }))}
            />
          </Form.Item>
          <Form.Item label="Observación" htmlFor="observation-text">
            <Input.TextArea
              id="observation-text"
              rows={5}
              maxLength={600}
              showCount
              value={text}
              onChange={(e) => setText(e.target.value)}
            />
          </Form.Item>
        </Form>
      </Modal>
    </div>
  );
}
