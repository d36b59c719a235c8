import { useState } from 'react';
import { Alert, Button, Form, Input, Modal } from 'antd';
import { MailOutlined } from '@ant-design/icons';
import { validateEmail } from '@vigia/contract/rules/validation';
import { apiRequest } from '../../providers/api';
import { isHttpError } from '../../providers/errors';
import { fromValidator } from './login-rules';

type Answer = { type: 'success' | 'error'; message: string };

/**
 * '¿Olvidó su contraseña?' (issue 38): asks for a recovery link. The API answers the same whether or
 * not the e-mail has an account, so this shows its message as it comes.
 */
export function ForgotPasswordDialog({ open, initialEmail, onClose }: { open: boolean; initialEmail?: string; onClose: () => void }) {
  const [form] = Form.useForm<{ email: string }>();
  const [pending, setPending] = useState(false);
  const [answer, setAnswer] = useState<Answer | null>(null);

  const close = () => {
    setAnswer(null);
    form.resetFields();
    onClose();
  };

  const send = async ({ email }: { email: string }) => {
    setPending(true);
    setAnswer(null);
    try {
      const res = await apiRequest('post', '/password_resets', { values: { email: email.trim() }, token: null });
      setAnswer({ type: 'success', message: res.message });
    } catch (error) {
      setAnswer({ type: 'error', message: isHttpError(error) ? error.message : 'No fue posible enviar la solicitud.' });
    } finally {
      setPending(false);
    }
  };

  const sent = answer?.type === 'success';
  return (
    <Modal
      open={open}
      title="¿Olvidó su contraseña?"
      onCancel={close}
      destroyOnHidden
      footer={
        sent ? (
          <Button type="primary" onClick={close}>
            Entendido
          </Button>
        ) : (
          <>
            <Button onClick={close}>Cancelar</Button>
            <Button type="primary" loading={pending} onClick={() => form.submit()}>
              Enviar enlace
            </Button>
          </>
        )
      }
    >
      {answer && (
        <Alert
          type={answer.type}
          showIcon
          role={answer.type === 'error' ? 'alert' : 'status'}
          message={answer.message}
          style={{ marginBottom: 16 }}
        />
      )}
      {!sent && (
        <>
          <p>Escriba el correo de su cuenta de Vigía. Le enviaremos un enlace para elegir una contraseña nueva, válido por 30 minutos.</p>
          <Form
            form={form}
            name="forgot_password"
            layout="vertical"
            requiredMark={false}
            onFinish={send}
            initialValues={{ email: initialEmail ?? '' }}
            disabled={pending}
          >
            <Form.Item
              name="email"
              label="Correo electrónico"
              validateTrigger="onBlur"
              rules={[fromValidator((v) => validateEmail(v, true))]}
            >
              <Input
                prefix={<MailOutlined />}
                type="email"
                inputMode="email"
                autoComplete="username"
                placeholder="nombre@institucion.com"
              />
            </Form.Item>
          </Form>
        </>
      )}
    </Modal>
  );
}
