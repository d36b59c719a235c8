import { useCallback, useEffect, useState } from 'react';
import { Button, Card, Empty, Form, Input, List, Modal, Popconfirm, Select, Spin, Tag, Tooltip, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { Schemas } from '../../../contract';
import { notify } from '../../../providers/notification';
import { EMPTY_OBSERVATIONS, formatDateTime, STAFF_OBSERVATION_TYPES } from '@vigia/contract/rules/record';
import { deleteJson, errorMessage, getList, postJson } from '../../prompts/record-api';
import { recordWriteState } from '../../prompts/record-access';
import type { PatientTabProps } from '../types';
import './record-tabs.css';

type Observation = Schemas['Observation'];
const TYPE_COLORS = ['blue', 'purple', 'green', 'orange', 'default', 'cyan'];

/** Tab 'Anotaciones' of the patient page (01 §2). */
export default function ObservationsTab({ patient, active }: PatientTabProps) {
  const [notes, setNotes] = useState<Observation[]>([]);
  const [loading, setLoading] = useState(false);
  const [creating, setCreating] = useState(false);
  const [type, setType] = useState<number | undefined>();
  const [text, setText] = useState('');
  const [saving, setSaving] = useState(false);
  const { canWrite, reason } = recordWriteState(patient, 'clinical.write');
  const path = `/patients/${patient.id}/observations`;

  const load = useCallback(async () => {
    setLoading(true);
    try {
      setNotes((await getList<Observation>(path, { _start: 0, _end: 100 })).rows);
    } catch (error) {
      // 01 §8: a failed note list is only logged.
      console.error('[vigia] anotaciones', error);
    } finally {
      setLoading(false);
    }
  }, [path]);

  useEffect(() => {
    if (active) void load();
  }, [active, load]);

  const open = () => {
    setType(undefined);
    setText('');
    setCreating(true);
  };

  const create = async () => {
    if (type === undefined || !text.trim()) return;
    setSaving(true);
    try {
      await postJson(path, { observation_type: type, value_text: text.trim() });
      notify.success('Anotación creada');
      setCreating(false);
      await load();
    } catch (error) {
      notify.error(errorMessage(error, 'No fue posible crear la anotación'));
    } finally {
      setSaving(false);
    }
  };

  const remove = async (note: Observation) => {
    try {
      await deleteJson(`${path}/${note.id}`);
      notify.success('Anotación eliminada');
      await load();
    } catch (error) {
      notify.error(errorMessage(error, 'No fue posible eliminar la anotación'));
    }
  };

  return (
    <div className="record-tab">
      <div className="record-tab-head">
        <Typography.Title level={5}>Anotaciones</Typography.Title>
        <Tooltip title={canWrite ? undefined : reason}>
          <Button type="primary" icon={<PlusOutlined />} disabled={!canWrite} onClick={open}>
            Crear Anotación
          </Button>
        </Tooltip>
      </div>
      <Spin spinning={loading}>
        {notes.length === 0 && !loading ? (
          <Empty description={EMPTY_OBSERVATIONS} />
        ) : (
          <List
            dataSource={notes}
            renderItem={(note) => (
              <Card size="small" className="observation-card" key={note.id}>
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
            )}
          />
        )}
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
