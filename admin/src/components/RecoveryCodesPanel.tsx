import { Alert, Button, Space, Typography } from 'antd';
import { CopyOutlined, DownloadOutlined } from '@ant-design/icons';
import { notify } from '../providers/notification';

/** The file a user keeps: one code a line, with what they are for. */
function recoveryCodesText(codes: string[], email?: string): string {
  return [
    'Vigía: códigos de recuperación',
    email ? `Cuenta: ${email}` : null,
    'Cada código sirve una sola vez para entrar si no tiene a mano su aplicación de autenticación o su llave de acceso.',
    '',
    ...codes,
    '',
  ]
    .filter((line) => line !== null)
    .join('\n');
}

function download(codes: string[], email?: string) {
  const blob = new Blob([recoveryCodesText(codes, email)], { type: 'text/plain;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = 'vigia-codigos-de-recuperacion.txt';
  document.body.appendChild(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

/**
 * The ten recovery codes, shown once (issue 38): copy or download them, then 'Ya los guardé'.
 * Only their hashes stay on the server, so this is the one moment they can be kept.
 */
export function RecoveryCodesPanel({
  codes,
  email,
  onDone,
  doneLabel = 'Ya los guardé',
  heading = true,
}: {
  codes: string[];
  email?: string;
  onDone: () => void;
  doneLabel?: string;
  /** Off inside a dialog, whose own title names it. */
  heading?: boolean;
}) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      notify.success('Códigos copiados');
    } catch {
      notify.error('No fue posible copiar', 'Descárguelos o escríbalos en un lugar seguro.');
    }
  };
  return (
    <section aria-label="Sus códigos de recuperación" className="vigia-recovery-codes">
      {heading && (
        <Typography.Title level={2} style={{ fontSize: 18 }}>
          Sus códigos de recuperación
        </Typography.Title>
      )}
      <Alert
        type="warning"
        showIcon
        message="Guárdelos ahora: no se volverán a mostrar."
        description="Si pierde el teléfono o la llave, cada código le sirve una vez para entrar. Guárdelos fuera de este equipo (impresos o en un gestor de contraseñas)."
        style={{ marginBottom: 16 }}
      />
      <ol className="vigia-recovery-code-list" aria-label="Códigos de recuperación">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <Space wrap style={{ marginTop: 16 }}>
        <Button icon={<CopyOutlined aria-hidden />} onClick={() => void copy()}>
          Copiar
        </Button>
        <Button icon={<DownloadOutlined aria-hidden />} onClick={() => download(codes, email)}>
          Descargar .txt
        </Button>
        <Button type="primary" onClick={onDone}>
          {doneLabel}
        </Button>
      </Space>
    </section>
  );
}
