import { useState } from 'react';
import { Alert, Button, Form, Input } from 'antd';
import { KeyOutlined, MobileOutlined } from '@ant-design/icons';
import type { Schemas, Session } from '../../contract';
import { createPasskey, passkeyErrorMessage, passkeysSupported } from '../../components/passkey-ceremony';
import { RecoveryCodesPanel } from '../../components/RecoveryCodesPanel';
import { TotpSetup } from '../../components/TotpSetup';
import { apiRequest } from '../../providers/api';
import { isHttpError } from '../../providers/errors';
import { tokenSpent } from './second-step';

type SignInChallenge = Schemas['SignInChallenge'];
type EnrolledSession = Schemas['EnrolledSession'];
type Phase =
  | { at: 'choose' }
  | { at: 'totp'; enrolment: Schemas['TotpEnrolment'] | null; error?: string }
  | { at: 'passkey' }
  | { at: 'codes'; session: EnrolledSession };

const NAME_MESSAGE = 'Escriba un nombre para la llave (máximo 60 caracteres).';

/**
 * Enrolment at sign-in (issue 38): the organisation requires a second factor for the user's role
 * and they have none. They set one up (authenticator app or passkey) before anything else, keep
 * their recovery codes, and only then enter the app.
 */
export function EnrolmentStep({
  challenge,
  onSignedIn,
  onRestart,
}: {
  challenge: SignInChallenge;
  onSignedIn: (session: Session) => void;
  onRestart: (message?: string) => void;
}) {
  const [phase, setPhase] = useState<Phase>({ at: 'choose' });
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [nameForm] = Form.useForm<{ name: string }>();
  const offersTotp = challenge.methods.includes('totp');
  const offersPasskey = challenge.methods.includes('passkey') && passkeysSupported();

  /** The token expired or was spent: back to the password. Otherwise the API's message. */
  const failed = (failure: unknown): string | null => {
    if (tokenSpent(failure)) {
      onRestart(failure.message);
      return null;
    }
    return isHttpError(failure) ? failure.message : passkeyErrorMessage(failure);
  };

  const startTotp = async () => {
    setError(null);
    setPhase({ at: 'totp', enrolment: null });
    try {
      const enrolment = await apiRequest('post', '/sessions/enrolment/totp', { values: { token: challenge.token }, token: null });
      setPhase({ at: 'totp', enrolment });
    } catch (failure) {
      const message = failed(failure);
      if (message) setPhase({ at: 'totp', enrolment: null, error: message });
    }
  };

  const confirmTotp = async (code: string) => {
    try {
      const session = await apiRequest('post', '/sessions/enrolment/totp/confirm', {
        values: { token: challenge.token, code },
        token: null,
      });
      setPhase({ at: 'codes', session });
    } catch (failure) {
      if (tokenSpent(failure)) onRestart(failure.message);
      else throw failure;
    }
  };

  const registerPasskey = async ({ name }: { name: string }) => {
    setError(null);
    setPending(true);
    try {
      const options = await apiRequest('post', '/sessions/enrolment/passkey-options', { values: { token: challenge.token }, token: null });
      const response = await createPasskey(options);
      const session = await apiRequest('post', '/sessions/enrolment/passkey', {
        values: { token: challenge.token, name: name.trim(), response },
        token: null,
      });
      setPhase({ at: 'codes', session });
    } catch (failure) {
      setError(failed(failure));
    } finally {
      setPending(false);
    }
  };

  if (phase.at === 'codes') {
    const { recovery_codes: codes, ...session } = phase.session;
    return (
      <>
        <h2 className="login-title">Verificación activada</h2>
        <RecoveryCodesPanel codes={codes} email={session.email} doneLabel="Ya los guardé, entrar" onDone={() => onSignedIn(session)} />
      </>
    );
  }

  return (
    <>
      <h2 className="login-title">Active la verificación en dos pasos</h2>
      {phase.at === 'choose' && (
        <>
          <p className="login-subtitle">
            Su institución exige un segundo paso al entrar para su rol. Elija cómo quiere confirmar que es usted; después podrá entrar.
          </p>
          {error && <Alert type="error" showIcon role="alert" message={error} className="login-error" />}
          <div className="login-enrol-options">
            {offersTotp && (
              <Button
                block
                size="large"
                icon={<MobileOutlined aria-hidden />}
                onClick={() => void startTotp()}
                className="login-enrol-option"
              >
                <span>
                  <strong>Aplicación de autenticación</strong>
                  <small>Un código de 6 dígitos en su teléfono</small>
                </span>
              </Button>
            )}
            {offersPasskey && (
              <Button
                block
                size="large"
                icon={<KeyOutlined aria-hidden />}
                onClick={() => setPhase({ at: 'passkey' })}
                className="login-enrol-option"
              >
                <span>
                  <strong>Llave de acceso</strong>
                  <small>La huella, el rostro o el PIN de este dispositivo</small>
                </span>
              </Button>
            )}
          </div>
          <Button block type="text" className="login-back" onClick={() => onRestart()}>
            Volver
          </Button>
        </>
      )}

      {phase.at === 'totp' && (
        <TotpSetup
          enrolment={phase.enrolment}
          loadError={phase.error}
          onConfirm={confirmTotp}
          onCancel={() => setPhase({ at: 'choose' })}
          cancelLabel="Volver"
        />
      )}

      {phase.at === 'passkey' && (
        <>
          <p className="login-subtitle">
            Póngale un nombre para reconocerla después. Al continuar, el navegador le pedirá su huella, su rostro o el PIN del dispositivo.
          </p>
          {error && <Alert type="error" showIcon role="alert" message={error} className="login-error" />}
          <Form form={nameForm} layout="vertical" requiredMark={false} onFinish={registerPasskey} disabled={pending} size="large">
            <Form.Item
              name="name"
              label="Nombre de la llave"
              rules={[{ required: true, whitespace: true, max: 60, message: NAME_MESSAGE }]}
            >
              <Input maxLength={60} placeholder="Ej.: Portátil de la oficina" autoFocus autoComplete="off" />
            </Form.Item>
            <div className="vigia-step-actions">
              <Button onClick={() => setPhase({ at: 'choose' })}>Volver</Button>
              <Button type="primary" htmlType="submit" loading={pending}>
                Registrar llave
              </Button>
            </div>
          </Form>
        </>
      )}
    </>
  );
}
