import { useState } from 'react';
import { Alert, Button, Card, Col, Form, Modal, Row, Space, Typography } from 'antd';
import { ArrowLeftOutlined, HeartOutlined, MedicineBoxOutlined } from '@ant-design/icons';
import { OrderFields, SINGLE_ORDER_DEFAULTS, orderBody } from './OrderFields';
import type { Schemas } from '../../contract';
import { useApiMutation } from '../../providers/calls';

/** Single-order dialog (02 §2.3): type choice, then the form; Cerrar and Guardar; on save it closes and resets. */
export function SingleOrderDialog({
  patientId,
  open,
  onClose,
  onCreated,
}: {
  patientId: number;
  open: boolean;
  onClose: () => void;
  onCreated: () => void;
}) {
  const [type, setType] = useState<0 | 1 | null>(null);
  const { mutate, mutation } = useApiMutation();
  const saving = mutation.isPending;
  const [error, setError] = useState<string | null>(null);
  const [form] = Form.useForm();
  const reset = () => {
    setType(null);
    setError(null);
    form.resetFields();
  };
  const close = () => {
    reset();
    onClose();
  };
  const save = async () => {
    if (type === null) return;
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    mutate(
      {
        method: 'post',
        path: '/patients/{id}/orders',
        params: { id: patientId },
        values: orderBody(type, { ...SINGLE_ORDER_DEFAULTS, ...values }) as Schemas['OrderInput'],
        // 02 §8: create failures show no notification; the dialog keeps the reason in view.
        errorNotification: false,
      },
      {
        onSuccess: () => {
          close();
          onCreated();
        },
        onError: (e) => setError(e.message ?? null),
      },
    );
  };
  return (
    <Modal
      open={open}
      onCancel={close}
      destroyOnHidden
      width={720}
      title={
        <Space>
          {type !== null && <Button type="text" icon={<ArrowLeftOutlined />} aria-label="Volver a la selección de tipo" onClick={reset} />}
          {type === null ? 'Nueva orden' : type === 1 ? 'Orden de medicamento' : 'Orden de signos vitales'}
        </Space>
      }
      footer={[
        <Button key="close" onClick={close}>
          Cerrar
        </Button>,
        <Button key="save" type="primary" disabled={type === null || saving} loading={saving} onClick={save}>
          Guardar
        </Button>,
      ]}
    >
      {type === null ? (
        <>
          <Typography.Paragraph>Seleccione el tipo de Orden que desea realizar</Typography.Paragraph>
          <Row gutter={16}>
            {(
              [
                [0, 'Signos Vitales', <HeartOutlined key="h" />],
                [1, 'Medicamentos', <MedicineBoxOutlined key="m" />],
              ] as const
            ).map(([value, label, icon]) => (
              <Col span={12} key={value}>
                <Card hoverable onClick={() => setType(value)} role="button" aria-label={label} style={{ textAlign: 'center' }}>
                  <div style={{ fontSize: 32 }}>{icon}</div>
                  <Typography.Text strong>{label}</Typography.Text>
                </Card>
              </Col>
            ))}
          </Row>
        </>
      ) : (
        <Form form={form} layout="vertical" initialValues={SINGLE_ORDER_DEFAULTS} requiredMark>
          <OrderFields orderType={type} />
          {error && <Alert type="error" showIcon message={error} />}
        </Form>
      )}
    </Modal>
  );
}
