import { useEffect, useLayoutEffect, useState } from 'react';
import { Col, DatePicker, Form, Input, Modal, Row, Typography } from 'antd';
import { RadioGroup } from '../../../crud/form-controls';
import dayjs, { type Dayjs } from 'dayjs';
import { CHARTS, MEASUREMENT_DELETE_ERROR } from '@vigia/contract/rules/charts';
import { DELETION_REASON_MAX, DELETION_REASON_MESSAGE, validateDeletionReason, validateVitalValue } from '@vigia/contract/rules/vitals';
import { formatWhen } from '@vigia/contract/rules/dates';
import { elementUnit } from '@vigia/contract/rules/alarms';
import type { Schemas } from '../../../contract';
import { useApiMutation } from '../../../providers/calls';
import { useIdempotencyKey } from '../../../hooks/useIdempotencyKey';
import { fieldErrors } from '../../../providers/errors';
import { formError, success } from '../../../providers/notices';

const RECORD_FIELDS = ['value', 'systolic', 'diastolic', 'when'] as const;

type ChartDef = (typeof CHARTS)[number];

export /** One reading as the 'últimas lecturas' list shows it (blood pressure: systolic/diastolic). */
interface Reading {
  id: number;
  when: string;
  text: string;
  eraseble: boolean;
  label: string;
}

interface RecordValues {
  chart: ChartDef['key'];
  value?: string;
  systolic?: string;
  diastolic?: string;
  when: Dayjs;
}

/** 'Registrar medición': one reading; blood pressure as systolic and diastolic (D6, 03 §5 vitals rule). */
export function RecordDialog({
  open,
  patientId,
  onClose,
  onSaved,
}: {
  open: boolean;
  patientId: number;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [form] = Form.useForm<RecordValues>();
  const { mutate, mutation } = useApiMutation();
  // One key per submit, kept for its retries: a reading whose answer was lost is stored once (issue 50).
  const idempotency = useIdempotencyKey();
  const saving = mutation.isPending;
  const key = Form.useWatch('chart', form);
  const chart = CHARTS.find((c) => c.key === key) ?? CHARTS[0];
  const isPressure = chart.key === 'blood_pressure';

  // Before the dialog is painted: set after paint (useEffect), the defaults could land after a
  // quick first click and undo it (seen in the browser test on a loaded machine).
  useLayoutEffect(() => {
    if (open) form.setFieldsValue({ chart: 'heart_rate', value: undefined, systolic: undefined, diastolic: undefined, when: dayjs() });
  }, [open, form]);

  const rule = (element: number) => ({
    required: true,
    validator: (_: unknown, v: string | undefined) => {
      const message = validateVitalValue(element, v?.trim() ?? '');
      return message ? Promise.reject(new Error(message)) : Promise.resolve();
    },
  });

  const submit = async () => {
    const v = await form.validateFields();
    const when = v.when.toDate().toISOString();
    const body: Schemas['MeasurementInput'] = isPressure
      ? { systolic: Number(v.systolic), diastolic: Number(v.diastolic), when }
      : { clinical_element: chart.elements[0], value: Number(v.value), when };
    mutate(
      {
        method: 'post',
        path: '/patients/{id}/measurements',
        params: { id: patientId },
        values: body,
        idempotencyKey: idempotency.keyFor({ patientId, body }),
        successNotification: success('Medición registrada correctamente'),
        // A 400 about one of the form's fields shows on that field instead.
        errorNotification: formError('No fue posible registrar la medición', RECORD_FIELDS),
      },
      {
        onSuccess: () => {
          idempotency.succeeded();
          onSaved();
        },
        onError: (error) => form.setFields(fieldErrors(error, RECORD_FIELDS)),
      },
    );
  };

  return (
    <Modal
      open={open}
      title="Registrar medición"
      okText="Guardar"
      cancelText="Cancelar"
      onOk={() => void submit()}
      onCancel={onClose}
      confirmLoading={saving}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" requiredMark>
        <Form.Item name="chart" label="Signo vital" rules={[{ required: true, message: '¡El campo es requerido!' }]}>
          <RadioGroup
            optionType="button"
            buttonStyle="solid"
            options={CHARTS.map((c) => ({ value: c.key, label: c.title }))}
            style={{ display: 'flex', flexWrap: 'wrap', gap: 6 }}
          />
        </Form.Item>
        {isPressure ? (
          <Row gutter={12}>
            <Col span={12}>
              <Form.Item name="systolic" label={`Sistólica (${elementUnit(3)})`} rules={[rule(3)]}>
                <Input inputMode="decimal" maxLength={5} />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item name="diastolic" label={`Diastólica (${elementUnit(4)})`} rules={[rule(4)]}>
                <Input inputMode="decimal" maxLength={5} />
              </Form.Item>
            </Col>
          </Row>
        ) : (
          <Form.Item name="value" label={`Valor (${chart.unit})`} rules={[rule(chart.elements[0])]}>
            <Input inputMode="decimal" maxLength={5} />
          </Form.Item>
        )}
        <Form.Item name="when" label="Fecha y hora" rules={[{ required: true, message: '¡El campo es requerido!' }]}>
          <DatePicker
            showTime={{ format: 'HH:mm' }}
            format="DD/MM/YYYY HH:mm"
            style={{ width: '100%' }}
            disabledDate={(d) => d.isAfter(dayjs(), 'day')}
            allowClear={false}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Soft delete with a reason of 15 to 140 characters (D15, 01 §4). */
export function DeleteDialog({
  reading,
  patientId,
  timeZone,
  onClose,
  onDeleted,
}: {
  reading: Reading | null;
  patientId: number;
  timeZone: string;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const [comment, setComment] = useState('');
  const { mutate, mutation } = useApiMutation();
  const saving = mutation.isPending;
  useEffect(() => setComment(''), [reading]);
  const error = validateDeletionReason(comment);
  const remove = () => {
    if (!reading || error) return;
    mutate(
      {
        method: 'put',
        path: '/patients/{id}/measurements/{mid}',
        params: { id: patientId, mid: reading.id },
        values: { status: 1, comment: comment.trim() },
        successNotification: success('Medición eliminada'),
        errorNotification: { type: 'error', message: MEASUREMENT_DELETE_ERROR },
      },
      { onSuccess: onDeleted },
    );
  };
  return (
    <Modal
      open={!!reading}
      title="Eliminar medición"
      okText="Eliminar"
      cancelText="Cancelar"
      okButtonProps={{ danger: true, disabled: !!error }}
      confirmLoading={saving}
      onOk={() => void remove()}
      onCancel={onClose}
      destroyOnHidden
    >
      {reading && (
        <Typography.Paragraph>
          {reading.label}: <Typography.Text strong>{reading.text}</Typography.Text> del {formatWhen(reading.when, timeZone)}. La medición
          dejará de mostrarse en las gráficas y reportes.
        </Typography.Paragraph>
      )}
      <Form layout="vertical">
        <Form.Item
          label="Motivo de la eliminación"
          required
          validateStatus={comment && error ? 'error' : undefined}
          help={comment && error ? DELETION_REASON_MESSAGE : undefined}
        >
          <Input.TextArea
            aria-label="Motivo de la eliminación"
            value={comment}
            onChange={(e) => setComment(e.target.value)}
            rows={3}
            showCount
            maxLength={DELETION_REASON_MAX}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
