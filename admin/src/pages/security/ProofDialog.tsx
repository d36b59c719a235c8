import { useState, type ReactNode } from 'react';
import { Alert, Button, Form, Input, Modal } from 'antd';
import { totpCodeRule, TotpCodeInput } from '../../components/TotpSetup';
import { fieldErrors, isHttpError } from '../../providers/errors';

export type Proof = { code: string } | { recovery_code: string };
type Values = { code?: string; recovery_code?: string };

const RECOVERY_MESSAGE = 'El código de recuperación tiene 10 letras y números (xxxxx-xxxxx).';
const recoveryRule = {
  validator: async (_: unknown, value: string | undefined) => {
    if (!/^ *[A-Za-z0-9]{5}[- ]?[A-Za-z0-9]{5} *$/.test(value ?? '')) throw new Error(RECOVERY_MESSAGE);
  },
};

/**
 * Asks for a current code of the authenticator app (or, with `allowRecovery`, a recovery code)
 * before a change that lowers the account's protection (issue 38: nobody removes their factor
 * without proving they hold it).
 */
export function ProofDialog({
  open,
  title,
  children,
  okText,
  danger,
  allowRecovery,
  onProve,
  onClose,
}: {
  open: boolean;
  title: string;
  children?: ReactNode;
  okText: string;
  danger?: boolean;
  allowRecovery?: boolean;
  onProve: (proof: Proof) => Promise<void>;
  onClose: () => void;
}) {
  const [form] = Form.useForm<Values>();
  const [mode, setMode] = useState<'code' | 'recovery_code'>('code');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const close = () => {
    form.resetFields();
    setMode('code');
    setError(null);
    onClose();
  };

  const submit = async (values: Values) => {
    setPending(true);
    setError(null);
    try {
      await onProve(mode === 'code' ? { code: values.code!.trim() } : { recovery_code: values.recovery_code!.trim() });
      close();
    } catch (failure) {
      const fields = fieldErrors<Values>(failure, ['code', 'recovery_code']);
      if (fields.length) form.setFields(fields.map((f) => ({ ...f, name: mode, value: '' })));
      else setError(isHttpError(failure) ? failure.message : 'No fue posible completar la operación.');
    } finally {
      setPending(false);
    }
  };

  return (
    <Modal
      open={open}
      title={title}
      onCancel={close}
      destroyOnHidden
      footer={
        <>
          <Button onClick={close}>Cancelar</Button>
          <Button type="primary" danger={danger} loading={pending} onClick={() => form.submit()}>
            {okText}
          </Button>
        </>
      }
    >
      {children}
      {error && <Alert type="error" showIcon role="alert" message={error} style={{ marginBottom: 16 }} />}
      <Form form={form} layout="vertical" requiredMark={false} onFinish={submit} disabled={pending}>
        {mode === 'code' ? (
          <Form.Item name="code" label="Código de 6 dígitos de su aplicación" rules={[totpCodeRule]} validateTrigger="onSubmit">
            <TotpCodeInput autoFocus />
          </Form.Item>
        ) : (
          <Form.Item name="recovery_code" label="Código de recuperación" rules={[recoveryRule]} validateTrigger="onSubmit">
            <Input autoComplete="off" autoCapitalize="off" spellCheck={false} placeholder="xxxxx-xxxxx" maxLength={13} autoFocus />
          </Form.Item>
        )}
      </Form>
      {allowRecovery && (
        <Button
          type="link"
          size="small"
          style={{ paddingInline: 0 }}
          onClick={() => {
            form.resetFields();
            setMode(mode === 'code' ? 'recovery_code' : 'code');
          }}
        >
          {mode === 'code' ? 'Usar un código de recuperación' : 'Usar el código de la aplicación'}
        </Button>
      )}
    </Modal>
  );
}
