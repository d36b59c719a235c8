import { useState, type ReactNode } from 'react';
import { Button, Modal, type ButtonProps } from 'antd';

/**
 * A button whose action asks first: a dialog with the question, a way back and the action, which
 * shows `busyText` while `busy` and cannot be closed meanwhile. `onConfirm` gets `close` to call when
 * the action is over. The generic delete (crud/DeleteDialog.tsx) and an export's 'Cancelar' or
 * 'Borrar archivos' (pages/fhir_exports) are this one dialog.
 */
export function ConfirmButton({
  trigger,
  title,
  content,
  backText = 'Cancelar',
  okText,
  busyText,
  busy,
  onConfirm,
}: {
  trigger: ButtonProps;
  title: string;
  content: ReactNode;
  backText?: string;
  okText: string;
  busyText?: string;
  busy: boolean;
  onConfirm: (close: () => void) => void;
}) {
  const [open, setOpen] = useState(false);
  const close = () => setOpen(false);
  return (
    <>
      <Button {...trigger} onClick={() => setOpen(true)} />
      <Modal
        open={open}
        title={title}
        onCancel={() => !busy && close()}
        destroyOnHidden
        footer={[
          <Button key="back" onClick={close} disabled={busy}>
            {backText}
          </Button>,
          <Button key="ok" danger type="primary" loading={busy} onClick={() => onConfirm(close)}>
            {busy && busyText ? busyText : okText}
          </Button>,
        ]}
      >
        {content}
      </Modal>
    </>
  );
}
