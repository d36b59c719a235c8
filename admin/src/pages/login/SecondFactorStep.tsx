import { useState } from 'react';
import { Alert, Button, Divider, Form, Input } from 'antd';
import { KeyOutlined } from '@ant-design/icons';
import type { Schemas, Session } from '../../contract';
import { passkeyErrorMessage, provePasskey } from '../../components/passkey-ceremony';
import { totpCodeRule, TotpCodeInput } from '../../components/TotpSetup';
import { apiRequest } from '../../providers/api';
import { isHttpError } from '../../providers/errors';
import { tokenSpent } from './second-step';

type SignInChallenge = Schemas['SignInChallenge'];
type Mode = 'code' | 'recovery_code';
type Values = { code?: string; recovery_code?: string };

/** The contract's RecoveryCode (x-message), checked before the request. */
const RECOVERY_MESSAGE = 'El código de recuperación tiene 10 letras y números (xxxxx-xxxxx).';
const recoveryRule = {
  validator: async (_: unknown, value: string | undefined) => {
    if (!/^ *[A-Za-z0-9]{5}[- ]?[A-Za-z0-9]{5} *$/.test(value ?? '')) throw new Error(RECOVERY_MESSAGE);
  },
};

/**
 * The sign-in's second step (issue 38): the 6-digit code of the authenticator app, a recovery code,
 * or a passkey, whichever the user has (`challenge.methods`). A wrong code stays here to try again;
 * an expired intermediate token goes back to the password.
 */
export function SecondFactorStep({
  challenge,
  onSignedIn,
  onRestart,
}: {
  challenge: SignInChallenge;
  onSignedIn: (session: Session) => void;
  onRestart: (message?: string) => void;
}) {
  const hasTotp = challenge.methods.includes('totp');
  const hasPasskey = challenge.methods.includes('passkey');
  const hasRecovery = challenge.methods.includes('recovery_code');
  const [mode, setMode] = useState<Mode>(hasTotp || hasPasskey ? 'code' : 'recovery_code');
  const [form] = Form.useForm<Values>();
  const [pending, setPending] = useState<'code' | 'passkey' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const showCodeForm = hasTotp || mode === 'recovery_code';

  const refused = (failure: unknown, field?: Mode) => {
    if (!isHttpError(failure)) {
      setError(passkeyErrorMessage(failure));
      return;
    }
    if (tokenSpent(failure)) {
      onRestart(failure.message);
      return;
    }
    if (field && (failure.code === 'second_factor_invalid' || failure.statusCode === 400)) {
      form.setFields([{ name: field, value: '', errors: [failure.message] }]);
      return;
    }
    setError(failure.message);
  };

  const submit = async (values: Values) => {
    setError(null);
    setPending('code');
    const body = mode === 'code' ? { code: values.code?.trim() } : { recovery_code: values.recovery_code?.trim() };
    try {
      onSignedIn(await apiRequest('post', '/sessions/second-factor', { values: { token: challenge.token, ...body }, token: null }));
    } catch (failure) {
      refused(failure, mode);
    } finally {
      setPending(null);
    }
  };

  const signInWithPasskey = async () => {
    setError(null);
    setPending('passkey');
    try {
      const options = await apiRequest('post', '/sessions/passkey-options', { values: { token: challenge.token }, token: null });
      const response = await provePasskey(options);
      onSignedIn(await apiRequest('post', '/sessions/passkey', { values: { token: challenge.token, response }, token: null }));
    } catch (failure) {
      refused(failure);
    } finally {
      setPending(null);
    }
  };

  const switchMode = (next: Mode) => {
    setError(null);
    form.resetFields();
    setMode(next);
  };

  return (
    <>
      <h2 className="login-title">Verificación en dos pasos</h2>
      <p className="login-subtitle">
        {!showCodeForm
          ? 'Use su llave de acceso (huella, rostro o PIN de su dispositivo) para terminar de entrar.'
          : mode === 'code'
            ? 'Escriba el código de 6 dígitos que muestra ahora su aplicación de autenticación.'
            : 'Escriba uno de los códigos de recuperación que guardó al activar la verificación. Cada uno sirve una sola vez.'}
      </p>
      {error && (
        <Alert type="error" showIcon role="alert" message={error} className="login-error" closable onClose={() => setError(null)} />
      )}

      {showCodeForm && (
        <Form<Values> form={form} layout="vertical" requiredMark={false} onFinish={submit} disabled={pending !== null} size="large">
          {mode === 'code' ? (
            <Form.Item name="code" label="Código de verificación" rules={[totpCodeRule]} validateTrigger="onSubmit">
              <TotpCodeInput autoFocus />
            </Form.Item>
          ) : (
            <Form.Item name="recovery_code" label="Código de recuperación" rules={[recoveryRule]} validateTrigger="onSubmit">
              <Input autoComplete="off" autoCapitalize="off" spellCheck={false} placeholder="xxxxx-xxxxx" autoFocus maxLength={13} />
            </Form.Item>
          )}
          <Button type="primary" htmlType="submit" block loading={pending === 'code'}>
            Verificar
          </Button>
        </Form>
      )}

      <div className="login-second-links">
        {hasTotp && mode === 'recovery_code' && (
          <Button type="link" size="small" onClick={() => switchMode('code')}>
            Usar el código de la aplicación
          </Button>
        )}
        {hasRecovery && mode === 'code' && (
          <Button type="link" size="small" onClick={() => switchMode('recovery_code')}>
            Usar un código de recuperación
          </Button>
        )}
      </div>

      {hasPasskey && (
        <>
          {showCodeForm && <Divider plain>o</Divider>}
          <Button
            block
            size="large"
            type={showCodeForm ? 'default' : 'primary'}
            icon={<KeyOutlined aria-hidden />}
            loading={pending === 'passkey'}
            disabled={pending === 'code'}
            onClick={() => void signInWithPasskey()}
          >
            Usar una llave de acceso
          </Button>
        </>
      )}

      <Button block type="text" className="login-back" onClick={() => onRestart()} disabled={pending !== null}>
        Volver
      </Button>
    </>
  );
}
