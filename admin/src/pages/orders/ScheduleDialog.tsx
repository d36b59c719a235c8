import { useState } from 'react';
import { Button, Form, Modal, Typography } from 'antd';
import { Select } from '../../crud/form-controls';
import { MESSAGES } from '@vigia/contract/rules/validation';
import type { Schemas } from '../../contract';
import type { VigiaHttpError } from '../../providers/errors';
import { useApiMutation } from '../../providers/calls';
import { hourOptions, patientInstant, todayIn } from '../../components/order-ui';

import '../../components/orders/orders.css';
import { DayPicker } from '../../crud/DayPicker';

type Order = Schemas['Order'];
type OrderUpdate = Schemas['OrderUpdate'];

/** 'Programar Actividades' (02 §4): the start date and hour, then the order's activities are generated; a failure stays in the dialog. */
export function ScheduleDialog({ order, open, onClose, onDone }: { order: Order; open: boolean; onClose: () => void; onDone: () => void }) {
  const [form] = Form.useForm<{ date: string; hour: string }>();
  const [error, setError] = useState<string | null>(null);
  const { mutateAsync, mutation } = useApiMutation();
  const saving = mutation.isPending;
  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    const params = { id: order.patient.id!, orderId: order.id };
    try {
      // 02 §4: save start_at, then generate the activities; the page reloads. A failure shows in the dialog.
      const start: OrderUpdate = { start_at: patientInstant(v.date, v.hour, order.time_zone_patient) };
      await mutateAsync({ method: 'put', path: '/patients/{id}/orders/{orderId}', params, values: start, errorNotification: false });
      await mutateAsync({ method: 'post', path: '/patients/{id}/orders/{orderId}/activities', params, errorNotification: false });
      onDone();
    } catch (e) {
      setError((e as VigiaHttpError).message ?? null);
    }
  };
  return (
    <Modal
      open={open}
      title="Programar Actividades"
      onCancel={onClose}
      destroyOnHidden
      footer={[
        <Button key="c" onClick={onClose}>
          Cerrar
        </Button>,
        <Button key="s" type="primary" loading={saving} disabled={saving} onClick={submit}>
          Programar Actividades
        </Button>,
      ]}
    >
      <Form form={form} layout="vertical" initialValues={{ date: todayIn(order.time_zone_patient), hour: order.hours?.[0] ?? '08:00' }}>
        <Form.Item name="date" label="Fecha de inicio" rules={[{ required: true, message: MESSAGES.required }]}>
          <DayPicker min={todayIn(order.time_zone_patient)} />
        </Form.Item>
        <Form.Item name="hour" label="Hora de inicio" rules={[{ required: true, message: MESSAGES.required }]}>
          <Select options={hourOptions} showSearch />
        </Form.Item>
        <Typography.Text type="secondary">Hora del paciente ({order.time_zone_patient}).</Typography.Text>
        {error && <Typography.Paragraph type="danger">{error}</Typography.Paragraph>}
      </Form>
    </Modal>
  );
}
