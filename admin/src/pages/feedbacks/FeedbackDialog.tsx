import { useMemo } from 'react';
import { Form, Input, Modal, Radio, Typography } from 'antd';
import { RadioGroup } from '../../crud/form-controls';
import { FrownOutlined, MehOutlined, SmileOutlined } from '@ant-design/icons';
import { useCreate, type HttpError } from '@refinedev/core';
import type { Schemas } from '../../contract';
import { contractDoc } from '../../crud/contract-doc';
import { serverErrorNotification } from '../../crud/notifications';
import { describeField, toFormRules, toRequestBody } from '../../crud/schema-rules';

type FeedbackInput = Schemas['FeedbackInput'];
type Notification = Schemas['Notification'];

const ICONS: Record<number, React.ReactNode> = {
  1: <SmileOutlined />,
  2: <MehOutlined />,
  3: <FrownOutlined />,
};

/** Opinión (01 §2): rating 1 Positiva, 2 Normal, 3 Negativa and a message; POST /feedbacks. */
export default function FeedbackDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<FeedbackInput>();
  const qualification = Form.useWatch('qualification', form);
  const message = Form.useWatch('message', form);
  const fields = useMemo(
    () => ({
      qualification: describeField(contractDoc, 'FeedbackInput', 'qualification'),
      message: describeField(contractDoc, 'FeedbackInput', 'message'),
    }),
    [],
  );
  const { mutate, mutation } = useCreate<Notification, HttpError, FeedbackInput>();

  const empty = (qualification === undefined || qualification === null) && !message?.trim();

  const submit = (values: FeedbackInput) => {
    mutate(
      {
        resource: 'feedbacks',
        values: toRequestBody(Object.values(fields), values) as FeedbackInput,
        successNotification: (data) => ({
          type: 'success',
          message: data?.data?.message || '¡Gracias! Recibimos su opinión.',
        }),
        errorNotification: (error) => serverErrorNotification(error),
      },
      {
        onSuccess: () => {
          form.resetFields();
          onClose();
        },
      },
    );
  };

  return (
    <Modal
      open={open}
      title="Su opinión nos ayuda a mejorar"
      okText="Enviar"
      cancelText="Cancelar"
      onOk={() => form.submit()}
      onCancel={onClose}
      okButtonProps={{ disabled: empty, loading: mutation.isPending }}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">
        Cuéntenos cómo ha sido su experiencia con Vigía. Puede elegir una calificación, escribir un mensaje o ambos.
      </Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item name="qualification" label="¿Cómo califica su experiencia?" rules={toFormRules(fields.qualification)}>
          <RadioGroup optionType="button" buttonStyle="solid" className="vigia-feedback-rating">
            {fields.qualification.options?.map((option) => (
              <Radio.Button key={option.value} value={option.value}>
                <span className="vigia-feedback-option">
                  {ICONS[Number(option.value)]} {option.label}
                </span>
              </Radio.Button>
            ))}
          </RadioGroup>
        </Form.Item>
        <Form.Item name="message" label="Mensaje" rules={toFormRules(fields.message)}>
          <Input.TextArea
            autoSize={{ minRows: 4, maxRows: 8 }}
            maxLength={fields.message.maxLength}
            showCount
            placeholder="¿Qué le gustó? ¿Qué podríamos mejorar?"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
