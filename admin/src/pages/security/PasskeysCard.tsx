import { useState } from 'react';
import { Alert, Button, Card, Form, Input, List, Modal, Popconfirm, Space, Typography } from 'antd';
import { KeyOutlined } from '@ant-design/icons';
import { formatWhen } from '@vigia/contract/rules/dates';
import type { Schemas } from '../../contract';
import { createPasskey, passkeyErrorMessage, passkeysSupported } from '../../components/passkey-ceremony';
import { fieldErrors, isHttpError } from '../../providers/errors';
import { notify } from '../../providers/notification';
import { staffTimeZone } from '../../session';
import { useFactorWrite } from './security.api';
import { ItemMeta } from '../../ui/ItemMeta';

type Factors = Schemas['Factors'];
type Passkey = Schemas['Passkey'];

const NAME_RULES = [{ required: true, whitespace: true, max: 60, message: 'Escriba un nombre para la llave (máximo 60 caracteres).' }];

/** A name for a passkey: new (then the browser's prompt) or a rename. */
function NameDialog({
  open,
  title,
  okText,
  initial,
  intro,
  onSave,
  onClose,
}: {
  open: boolean;
  title: string;
  okText: string;
  initial?: string;
  intro?: string;
  onSave: (name: string) => Promise<void>;
  onClose: () => void;
}) {
  const [form] = Form.useForm<{ name: string }>();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setError(null);
    onClose();
  };
  const submit = async ({ name }: { name: string }) => {
    setPending(true);
    setError(null);
    try {
      await onSave(name.trim());
      close();
    } catch (failure) {
      const fields = fieldErrors<{ name: string }>(failure, ['name']);
      if (fields.length) form.setFields(fields);
      else setError(isHttpError(failure) ? failure.message : passkeyErrorMessage(failure));
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
          <Button type="primary" loading={pending} onClick={() => form.submit()}>
            {okText}
          </Button>
        </>
      }
    >
      {intro && <Typography.Paragraph>{intro}</Typography.Paragraph>}
      {error && <Alert type="error" showIcon role="alert" message={error} style={{ marginBottom: 16 }} />}
      <Form form={form} layout="vertical" requiredMark={false} onFinish={submit} disabled={pending} initialValues={{ name: initial ?? '' }}>
        <Form.Item name="name" label="Nombre de la llave" rules={NAME_RULES}>
          <Input maxLength={60} placeholder="Ej.: Portátil de la oficina" autoComplete="off" autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** 'Llaves de acceso' (issue 38): the user's passkeys (name, created, last used); add, rename, delete. */
export function PasskeysCard({
  factors,
  onChanged,
  onCodes,
}: {
  factors: Factors;
  onChanged: () => void;
  onCodes: (codes: string[]) => void;
}) {
  const write = useFactorWrite();
  const timeZone = staffTimeZone();
  const [adding, setAdding] = useState(false);
  const [renaming, setRenaming] = useState<Passkey | null>(null);
  const supported = passkeysSupported();
  const lastFactor = factors.required && !factors.totp.enabled && factors.passkeys.length === 1;

  const add = async (name: string) => {
    const options = await write({ method: 'post', path: '/me/factors/passkeys/options' });
    const response = await createPasskey(options);
    const answer = await write({ method: 'post', path: '/me/factors/passkeys', values: { name, response } });
    notify.success(answer.message);
    onChanged();
    if (answer.recovery_codes.length) onCodes(answer.recovery_codes);
  };

  const remove = async (passkey: Passkey) => {
    try {
      const answer = await write({ method: 'delete', path: '/me/factors/passkeys/{id}', params: { id: passkey.id } });
      notify.success(answer.message);
      onChanged();
    } catch (failure) {
      notify.error('No fue posible eliminar la llave', isHttpError(failure) ? failure.message : undefined);
    }
  };

  return (
    <Card
      title={
        <Space>
          <KeyOutlined aria-hidden /> Llaves de acceso
        </Space>
      }
    >
      <Typography.Paragraph>
        Entre con la huella, el rostro o el PIN de su dispositivo en lugar de un código. No sirven en un sitio falso que imite a Vigía.
      </Typography.Paragraph>
      {!supported && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          message="Este navegador no admite llaves de acceso. Use la aplicación de autenticación."
        />
      )}
      <List
        itemLayout="vertical"
        dataSource={factors.passkeys}
        locale={{ emptyText: 'Aún no tiene llaves de acceso.' }}
        renderItem={(p) => (
          <List.Item
            actions={[
              <Button key="rename" size="small" onClick={() => setRenaming(p)} aria-label={`Cambiar nombre: ${p.name}`}>
                Cambiar nombre
              </Button>,
              <Popconfirm
                key="delete"
                title={`¿Eliminar la llave «${p.name}»?`}
                description={
                  lastFactor
                    ? 'Es su único segundo factor y su institución lo exige: no se puede eliminar.'
                    : 'Ya no podrá entrar con ella.'
                }
                okText="Eliminar"
                okButtonProps={{ danger: true, disabled: lastFactor }}
                cancelText="Cancelar"
                onConfirm={() => remove(p)}
              >
                <Button size="small" danger aria-label={`Eliminar: ${p.name}`}>
                  Eliminar
                </Button>
              </Popconfirm>,
            ]}
          >
            <ItemMeta
              avatar={<KeyOutlined style={{ fontSize: 20 }} aria-hidden />}
              title={p.name}
              description={
                <>
                  <div>Creada: {formatWhen(p.created_at, timeZone)}</div>
                  <div>Último uso: {p.last_used_at ? formatWhen(p.last_used_at, timeZone) : 'nunca'}</div>
                </>
              }
            />
          </List.Item>
        )}
      />
      <Button
        type={factors.passkeys.length ? 'default' : 'primary'}
        disabled={!supported}
        onClick={() => setAdding(true)}
        style={{ marginTop: 8 }}
      >
        Agregar llave de acceso
      </Button>

      <NameDialog
        open={adding}
        title="Agregar llave de acceso"
        okText="Continuar"
        intro="Póngale un nombre para reconocerla después. Al continuar, el navegador le pedirá su huella, su rostro o el PIN del dispositivo."
        onSave={add}
        onClose={() => setAdding(false)}
      />
      <NameDialog
        open={renaming !== null}
        title="Cambiar el nombre de la llave"
        okText="Guardar"
        initial={renaming?.name}
        onSave={async (name) => {
          await write({ method: 'patch', path: '/me/factors/passkeys/{id}', params: { id: renaming!.id }, values: { name } });
          notify.success('Nombre de la llave guardado');
          onChanged();
        }}
        onClose={() => setRenaming(null)}
      />
    </Card>
  );
}
