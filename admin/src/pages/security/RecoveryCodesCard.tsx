import { useState } from 'react';
import { Button, Card, Modal, Space, Typography } from 'antd';
import { SafetyCertificateOutlined } from '@ant-design/icons';
import type { Schemas } from '../../contract';
import { isHttpError } from '../../providers/errors';
import { notify } from '../../providers/notification';
import { ProofDialog } from './ProofDialog';
import { useFactorWrite } from './security.api';

type Factors = Schemas['Factors'];

/**
 * 'Códigos de recuperación' (issue 38): how many are left, and ten new ones (the old ones stop
 * working). With the app, a current code proves it is the user; with passkeys only, the passkey of
 * this sign-in already did.
 */
export function RecoveryCodesCard({ factors, onCodes }: { factors: Factors; onCodes: (codes: string[]) => void }) {
  const write = useFactorWrite();
  const [asking, setAsking] = useState(false);
  const hasFactor = factors.totp.enabled || factors.passkeys.length > 0;
  const left = factors.recovery_codes_left;

  const renew = async (values: object) => {
    const answer = await write({ method: 'post', path: '/me/factors/recovery-codes', values });
    onCodes(answer.recovery_codes);
  };

  const confirmWithoutCode = () =>
    Modal.confirm({
      title: '¿Generar códigos nuevos?',
      content: 'Los códigos que tiene guardados dejarán de servir.',
      okText: 'Generar códigos',
      cancelText: 'Cancelar',
      onOk: () =>
        renew({}).catch((failure) =>
          notify.error('No fue posible generar los códigos', isHttpError(failure) ? failure.message : undefined),
        ),
    });

  return (
    <Card
      title={
        <Space>
          <SafetyCertificateOutlined aria-hidden /> Códigos de recuperación
        </Space>
      }
    >
      <Typography.Paragraph>
        {!hasFactor
          ? 'Se crean al configurar la aplicación o una llave de acceso. Le sirven para entrar si pierde el teléfono o la llave.'
          : left === 1
            ? 'Le queda 1 código de recuperación sin usar.'
            : `Le quedan ${left} códigos de recuperación sin usar.`}
        {hasFactor && left <= 3 && ' Genere códigos nuevos antes de que se le acaben.'}
      </Typography.Paragraph>
      <Button disabled={!hasFactor} onClick={() => (factors.totp.enabled ? setAsking(true) : confirmWithoutCode())}>
        Generar códigos nuevos
      </Button>
      <ProofDialog
        open={asking}
        title="Generar códigos nuevos"
        okText="Generar códigos"
        onClose={() => setAsking(false)}
        onProve={(proof) => renew(proof)}
      >
        <Typography.Paragraph>
          Los códigos que tiene guardados dejarán de servir. Confirme con el código de su aplicación.
        </Typography.Paragraph>
      </ProofDialog>
    </Card>
  );
}
