import { useState, type ReactNode } from 'react';
import { Alert, Button, Form, Input, Skeleton, Typography } from 'antd';
import type { Schemas } from '../contract';
import { isHttpError } from '../providers/errors';
import './second-factor.css';

type TotpEnrolment = Schemas['TotpEnrolment'];

/** The contract's TotpCode (x-message), checked before the request. */
const CODE_MESSAGE = 'El código tiene 6 dígitos.';
export const totpCodeRule = {
  validator: async (_: unknown, value: string | undefined) => {
    if (!/^[0-9]{6}$/.test((value ?? '').trim())) throw new Error(CODE_MESSAGE);
  },
};

/** One field for a 6-digit code: the phone's number pad, and the code offered by the keyboard (SMS/autofill). */
export function TotpCodeInput(props: { autoFocus?: boolean; id?: string; 'aria-describedby'?: string }) {
  return (
    <Input {...props} inputMode="numeric" autoComplete="one-time-code" maxLength={6} placeholder="123456" className="vigia-code-input" />
  );
}

/** The key in groups of four, as authenticator apps show it; the copy button copies it whole. */
function groupKey(secret: string): string {
  return secret.replace(/(.{4})/g, '$1 ').trim();
}

/**
 * Enrolling an authenticator app (issue 38): the QR code the server drew, the key as text for
 * typing by hand, then the first code to prove the app shows the same numbers. `onConfirm` throws
 * the API's error; its message goes under the field.
 */
export function TotpSetup({
  enrolment,
  loadError,
  onConfirm,
  onCancel,
  cancelLabel = 'Cancelar',
  busy,
}: {
  enrolment: TotpEnrolment | null;
  loadError?: string | null;
  onConfirm: (code: string) => Promise<void>;
  onCancel?: () => void;
  cancelLabel?: ReactNode;
  busy?: boolean;
}) {
  const [form] = Form.useForm<{ code: string }>();
  const [pending, setPending] = useState(false);

  const submit = async ({ code }: { code: string }) => {
    setPending(true);
    try {
      await onConfirm(code.trim());
    } catch (error) {
      const message = isHttpError(error) ? error.message : 'No fue posible confirmar el código.';
      form.setFields([{ name: 'code', errors: [message] }]);
    } finally {
      setPending(false);
    }
  };

  if (loadError) return <Alert type="error" showIcon role="alert" message={loadError} />;
  if (!enrolment) return <Skeleton active />;
  const qr = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(enrolment.qr_svg)}`;
  return (
    <div className="vigia-totp-setup">
      <ol className="vigia-totp-steps">
        <li>
          Abra en su teléfono una aplicación de autenticación (Google Authenticator, Microsoft Authenticator, FreeOTP u otra) y escanee este
          código:
          <div className="vigia-totp-qr">
            <img src={qr} alt="Código QR para agregar su cuenta de Vigía a la aplicación de autenticación" width={192} height={192} />
          </div>
          {/* On the phone that holds the app, the QR code cannot be scanned: the link opens the app with the key. */}
          <a className="vigia-totp-open" href={enrolment.otpauth_uri}>
            ¿Está en el teléfono con la aplicación? Ábrala con este enlace
          </a>
          <div className="vigia-totp-key">
            <span id="totp-key-label">Si no puede escanearlo, escriba esta clave en la aplicación:</span>
            <Typography.Text
              code
              className="vigia-totp-secret"
              aria-labelledby="totp-key-label"
              copyable={{ text: enrolment.secret, tooltips: ['Copiar la clave', 'Clave copiada'] }}
            >
              {groupKey(enrolment.secret)}
            </Typography.Text>
          </div>
        </li>
        <li>
          <Form form={form} layout="vertical" requiredMark={false} onFinish={submit} disabled={pending || busy}>
            <Form.Item
              name="code"
              label="Escriba el código de 6 dígitos que muestra la aplicación"
              rules={[totpCodeRule]}
              validateTrigger="onSubmit"
            >
              <TotpCodeInput />
            </Form.Item>
            <div className="vigia-step-actions">
              {onCancel && <Button onClick={onCancel}>{cancelLabel}</Button>}
              <Button type="primary" htmlType="submit" loading={pending || busy}>
                Confirmar
              </Button>
            </div>
          </Form>
        </li>
      </ol>
    </div>
  );
}
