import { useState } from 'react';
import { Alert, Button, Card, Descriptions, Form, Input, Modal, Radio, Tooltip, Typography } from 'antd';
import { RadioGroup } from '../../../../crud/form-controls';
import { EditOutlined } from '@ant-design/icons';
import { canSetMultipatientCard } from '@vigia/contract/rules/record';
import { MESSAGES } from '@vigia/contract/rules/validation';
import { readSession } from '../../../../session';
import { usePatientUpdate } from '../../hooks/usePatientUpdate';
import type { Patient } from '../../types';
import { editState } from './edit-state';

/** 'Dispositivo': the patient's gateway card, or the multipatient card where the client has them. */
export function DeviceCard({ patient }: { patient: Patient }) {
  const multipatientClient = !!readSession()?.client_with_multipatient_glady;
  const [open, setOpen] = useState(false);
  const [kind, setKind] = useState<'card_id' | 'multipatient_card_id'>('card_id');
  const [value, setValue] = useState('');
  const [touched, setTouched] = useState(false);
  const { canEdit, reason } = editState(patient);
  const { save: savePatient } = usePatientUpdate(patient.id);
  const multiAllowed = canSetMultipatientCard(multipatientClient, patient);
  const error = value.trim() ? null : MESSAGES.required;
  const start = () => {
    const k = patient.multipatient_card_id && multiAllowed ? 'multipatient_card_id' : 'card_id';
    setKind(k);
    setValue(patient[k] ?? '');
    setTouched(false);
    setOpen(true);
  };
  const save = async () => {
    if (error) return setTouched(true);
    const body = kind === 'card_id' ? { card_id: value.trim() } : { multipatient_card_id: value.trim() };
    if (await savePatient(body)) setOpen(false);
  };
  return (
    <Card
      size="small"
      title="Dispositivo"
      extra={
        <Tooltip title={canEdit ? 'Editar' : reason}>
          <Button type="text" aria-label="Editar dispositivo" icon={<EditOutlined />} disabled={!canEdit} onClick={start} />
        </Tooltip>
      }
    >
      <Descriptions column={1} size="small">
        <Descriptions.Item label="Gateway (tarjeta)">
          {patient.card_id ?? <Typography.Text type="secondary">Sin dispositivo</Typography.Text>}
        </Descriptions.Item>
        {multipatientClient && (
          <Descriptions.Item label="Tarjeta multipaciente">
            {patient.multipatient_card_id ?? <Typography.Text type="secondary">Sin tarjeta</Typography.Text>}
          </Descriptions.Item>
        )}
      </Descriptions>
      <Modal
        open={open}
        title="Tarjeta del dispositivo"
        onCancel={() => setOpen(false)}
        onOk={save}
        okText="Guardar"
        cancelText="Cancelar"
        okButtonProps={{ disabled: !!error }}
        destroyOnHidden
      >
        {multipatientClient && (
          <RadioGroup
            value={kind}
            onChange={(e) => {
              setKind(e.target.value);
              setValue(patient[e.target.value as typeof kind] ?? '');
            }}
            style={{ marginBottom: 12 }}
          >
            <Radio value="card_id">Gateway del paciente</Radio>
            <Radio value="multipatient_card_id" disabled={!multiAllowed}>
              Tarjeta multipaciente
            </Radio>
          </RadioGroup>
        )}
        {multipatientClient && !multiAllowed && (
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 12 }}
            message="La tarjeta multipaciente solo se puede asignar a un paciente sin gateway."
          />
        )}
        <Form layout="vertical">
          <Form.Item
            label="Número de tarjeta"
            htmlFor="device-card"
            validateStatus={touched && error ? 'error' : undefined}
            help={touched && error ? error : undefined}
          >
            <Input
              id="device-card"
              value={value}
              maxLength={64}
              onChange={(e) => {
                setValue(e.target.value);
                setTouched(true);
              }}
            />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
