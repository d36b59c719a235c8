import { useState } from 'react';
import { Button, Card, Descriptions, Form, Modal, Tooltip } from 'antd';
import { Select } from '../../../../crud/form-controls';
import { EditOutlined } from '@ant-design/icons';
import { useListing } from '../../../../hooks/listings';
import { usePatientUpdate } from '../../hooks/usePatientUpdate';
import { ListingsFailedAlert } from '../../ListingsFailedAlert';
import type { Patient } from '../../types';
import { editState, INCOMPLETE } from './edit-state';

/** 'Datos sociodemográficos': occupation, schooling and civil status, edited in a dialog. */
export function DemographicsCard({ patient }: { patient: Patient }) {
  const occupations = useListing('occupations');
  const scholarships = useListing('scholarships');
  const civil = useListing('civil_statuses');
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm();
  const { canEdit, reason } = editState(patient);
  const { save: savePatient } = usePatientUpdate(patient.id);
  const save = async () => {
    const v = form.getFieldsValue();
    const body = { occupation: v.occupation ?? null, scholarship: v.scholarship ?? null, civil_status: v.civil_status ?? null };
    if (await savePatient(body)) setOpen(false);
  };
  return (
    <Card
      size="small"
      title="Datos sociodemográficos"
      extra={
        <Tooltip title={canEdit ? 'Editar' : reason}>
          <Button
            type="text"
            aria-label="Editar datos sociodemográficos"
            icon={<EditOutlined />}
            disabled={!canEdit}
            onClick={() => {
              form.setFieldsValue(patient);
              setOpen(true);
            }}
          />
        </Tooltip>
      }
    >
      <Descriptions column={1} size="small">
        <Descriptions.Item label="Ocupación">{patient.occupation_name ?? INCOMPLETE}</Descriptions.Item>
        <Descriptions.Item label="Escolaridad">{patient.scholarship_name ?? INCOMPLETE}</Descriptions.Item>
        <Descriptions.Item label="Estado Civil">{patient.civil_status_name ?? INCOMPLETE}</Descriptions.Item>
      </Descriptions>
      <Modal
        open={open}
        title="Datos sociodemográficos"
        onCancel={() => setOpen(false)}
        onOk={save}
        okText="Guardar"
        cancelText="Cancelar"
        destroyOnHidden
      >
        <ListingsFailedAlert />
        <Form form={form} layout="vertical">
          <Form.Item name="occupation" label="Ocupación">
            <Select allowClear showSearch optionFilterProp="label" options={occupations} />
          </Form.Item>
          <Form.Item name="scholarship" label="Escolaridad">
            <Select allowClear options={scholarships} />
          </Form.Item>
          <Form.Item name="civil_status" label="Estado Civil">
            <Select allowClear options={civil} />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
