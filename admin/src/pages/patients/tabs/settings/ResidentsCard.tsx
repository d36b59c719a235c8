import { useState } from 'react';
import { Alert, Button, Card, Descriptions, Form, Input, Modal, Popconfirm, Result, Space, Spin, Tooltip, Typography } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import type { Schemas } from '../../../../contract';
import { readSession } from '../../../../session';
import { useApiQuery } from '../../../../providers/calls';
import { logOnly } from '../../../../providers/notices';
import { usePatientUpdate } from '../../hooks/usePatientUpdate';
import type { Patient } from '../../types';
import { editState } from './edit-state';
import { ReadFailedAlert, useReadState, type Read } from '../../../../ui/ReadState';

type Resident = Schemas['Resident'];

type LookupState =
  | { state: 'idle' }
  | { state: 'searching' }
  | { state: 'found'; resident: Resident }
  | { state: 'nofound' }
  | { state: 'error'; message: string };

/** 'Sistema de residentes': look a resident up by code and link it to the patient, or unlink it. */
export function ResidentsCard({ patient, read }: { patient: Patient; read?: Read }) {
  const clientId = readSession()?.client_id;
  const [open, setOpen] = useState(false);
  const [code, setCode] = useState('');
  // The code last searched for: the lookup reads it (and reads again when searched anew).
  const [searched, setSearched] = useState<string | null>(null);
  const { canEdit, reason } = editState(patient);
  const { save: savePatient } = usePatientUpdate(patient.id);
  const { query } = useApiQuery('/clients/{id}/residents/{code}', {
    // Without a session there is no client, and no screen to search from.
    params: { id: clientId ?? 0, code: searched ?? '' },
    queryOptions: { enabled: searched !== null, gcTime: 0 },
    // The dialog says what happened.
    errorNotification: false,
  });
  const lookup: LookupState =
    searched === null
      ? { state: 'idle' }
      : query.isFetching
        ? { state: 'searching' }
        : query.isError
          ? query.error.statusCode === 404
            ? { state: 'nofound' }
            : { state: 'error', message: query.error.message || 'No fue posible consultar el sistema de residentes.' }
          : query.data
            ? { state: 'found', resident: query.data.data }
            : { state: 'searching' };
  const resetLookup = () => setSearched(null);
  const search = () => setSearched(code.trim());
  const assign = async (resident: Resident) => {
    const body = { resiplus_data: resident, resiplus_code: resident.code, resiplus_id: String(resident.id) };
    // 01 §8: a failure is logged only.
    if (await savePatient(body, undefined, { success: 'Residente asociado al paciente', error: logOnly('asociar residente') }))
      setOpen(false);
  };
  const unassign = () =>
    void savePatient({ resiplus_data: null, resiplus_code: null, resiplus_id: null }, undefined, {
      success: false,
      error: logOnly('desasociar residente'),
    });
  const data = patient.resiplus_data;
  // The link comes with the record: a refresh of it that failed is never 'no está asociado' (P212).
  const status = useReadState(read ? [read] : [], !data, 'el residente asociado');
  return (
    <Card
      size="small"
      title="Sistema de residentes"
      extra={
        <Tooltip title={canEdit ? undefined : reason}>
          <Button
            size="small"
            icon={<SearchOutlined />}
            disabled={!canEdit}
            onClick={() => {
              setCode('');
              resetLookup();
              setOpen(true);
            }}
          >
            Buscar residente
          </Button>
        </Tooltip>
      }
    >
      <ReadFailedAlert status={status} />
      {status.phase === 'failed' ? null : data ? (
        <>
          <Descriptions column={1} size="small">
            <Descriptions.Item label="Residente">{data.full_name}</Descriptions.Item>
            <Descriptions.Item label="Documento">{`${data.document_id_type ?? ''} ${data.document_id ?? ''}`}</Descriptions.Item>
            <Descriptions.Item label="Código">{patient.resiplus_code}</Descriptions.Item>
          </Descriptions>
          <Popconfirm
            title="¿Desasociar el residente de este paciente?"
            okText="Desasociar"
            cancelText="Cancelar"
            onConfirm={unassign}
            disabled={!canEdit}
          >
            <Button size="small" danger disabled={!canEdit}>
              Desasociar
            </Button>
          </Popconfirm>
        </>
      ) : (
        <Typography.Text type="secondary">El paciente no está asociado a un residente.</Typography.Text>
      )}
      <Modal
        open={open}
        title="Buscar residente por código"
        onCancel={() => setOpen(false)}
        destroyOnHidden
        footer={[
          <Button key="cancel" onClick={() => setOpen(false)}>
            Cancelar
          </Button>,
          <Button
            key="assign"
            type="primary"
            disabled={lookup.state !== 'found'}
            onClick={() => lookup.state === 'found' && assign(lookup.resident)}
          >
            Asociar
          </Button>,
        ]}
      >
        <Form layout="vertical" onFinish={search}>
          <Form.Item label="Código del residente" htmlFor="resident-code" extra="Incluya los ceros a la izquierda (por ejemplo 00010).">
            <Space.Compact block>
              <Input
                id="resident-code"
                value={code}
                inputMode="numeric"
                onChange={(e) => {
                  setCode(e.target.value.replace(/\D/g, ''));
                  resetLookup();
                }}
              />
              <Button htmlType="submit" icon={<SearchOutlined />} loading={lookup.state === 'searching'} disabled={!code}>
                Buscar
              </Button>
            </Space.Compact>
          </Form.Item>
        </Form>
        {lookup.state === 'searching' && <Spin />}
        {lookup.state === 'found' && (
          <Descriptions bordered column={1} size="small">
            <Descriptions.Item label="Nombre">{lookup.resident.full_name}</Descriptions.Item>
            <Descriptions.Item label="Documento">{`${lookup.resident.document_id_type} ${lookup.resident.document_id}`}</Descriptions.Item>
            <Descriptions.Item label="Código">{lookup.resident.code}</Descriptions.Item>
          </Descriptions>
        )}
        {lookup.state === 'nofound' && <Result status="warning" title="Residente no encontrado" />}
        {lookup.state === 'error' && <Alert type="error" showIcon message={lookup.message} />}
      </Modal>
    </Card>
  );
}
