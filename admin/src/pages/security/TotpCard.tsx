import { useState } from 'react';
import { Alert, Button, Card, Modal, Space, Tag, Typography } from 'antd';
import { MobileOutlined } from '@ant-design/icons';
import { formatDate } from '@vigia/contract/rules/dates';
import type { Schemas } from '../../contract';
import { TotpSetup } from '../../components/TotpSetup';
import { isHttpError } from '../../providers/errors';
import { notify } from '../../providers/notification';
import { staffTimeZone } from '../../session';
import { ProofDialog } from './ProofDialog';
import { useFactorWrite } from './security.api';

type Factors = Schemas['Factors'];

/** 'Aplicación de autenticación' (issue 38): enrol with the QR and a first code, or remove it with a code. */
export function TotpCard({ factors, onChanged, onCodes }: { factors: Factors; onChanged: () => void; onCodes: (codes: string[]) => void }) {
  const write = useFactorWrite();
  const [setup, setSetup] = useState<{ enrolment: Schemas['TotpEnrolment'] | null; error?: string } | null>(null);
  const [removing, setRemoving] = useState(false);
  const { enabled, enrolled_at: since } = factors.totp;
  const otherFactor = factors.passkeys.length > 0;

  const start = async () => {
    setSetup({ enrolment: null });
    try {
      setSetup({ enrolment: await write({ method: 'post', path: '/me/factors/totp' }) });
    } catch (failure) {
      setSetup({ enrolment: null, error: isHttpError(failure) ? failure.message : 'No fue posible empezar la configuración.' });
    }
  };

  const confirm = async (code: string) => {
    const answer = await write({ method: 'post', path: '/me/factors/totp/confirm', values: { code } });
    setSetup(null);
    notify.success(answer.message);
    onChanged();
    if (answer.recovery_codes.length) onCodes(answer.recovery_codes);
  };

  return (
    <Card
      title={
        <Space>
          <MobileOutlined aria-hidden /> Aplicación de autenticación
        </Space>
      }
      extra={enabled ? <Tag color="green">Activa</Tag> : <Tag>No configurada</Tag>}
    >
      {enabled ? (
        <>
          <Typography.Paragraph>
            Al entrar, después de la contraseña, se le pide el código de 6 dígitos de la aplicación
            {since ? ` (activa desde el ${formatDate(since, staffTimeZone())})` : ''}.
          </Typography.Paragraph>
          <Button danger onClick={() => setRemoving(true)}>
            Quitar aplicación
          </Button>
        </>
      ) : (
        <>
          <Typography.Paragraph>
            Un código de 6 dígitos que cambia cada 30 segundos en su teléfono (Google Authenticator, Microsoft Authenticator u otra
            aplicación). Funciona sin conexión.
          </Typography.Paragraph>
          <Button type="primary" onClick={() => void start()}>
            Configurar aplicación
          </Button>
        </>
      )}

      <Modal
        open={setup !== null}
        title="Configurar la aplicación de autenticación"
        footer={null}
        onCancel={() => setSetup(null)}
        destroyOnHidden
      >
        {setup && <TotpSetup enrolment={setup.enrolment} loadError={setup.error} onConfirm={confirm} onCancel={() => setSetup(null)} />}
      </Modal>

      <ProofDialog
        open={removing}
        title="Quitar la aplicación de autenticación"
        okText="Quitar aplicación"
        danger
        allowRecovery
        onClose={() => setRemoving(false)}
        onProve={async (proof) => {
          const answer = await write({ method: 'post', path: '/me/factors/totp/remove', values: proof });
          notify.success(answer.message);
          onChanged();
        }}
      >
        {factors.required && !otherFactor ? (
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 16 }}
            message="Su institución exige un segundo paso para su rol: agregue antes una llave de acceso, o configure la aplicación de nuevo después."
          />
        ) : (
          <Typography.Paragraph>
            {otherFactor
              ? 'Seguirá entrando con su llave de acceso.'
              : 'Al quitarla, su cuenta quedará protegida solo por la contraseña y sus códigos de recuperación dejarán de servir.'}
          </Typography.Paragraph>
        )}
      </ProofDialog>
    </Card>
  );
}
