import { useState, type ReactNode } from 'react';
import { Button, Modal } from 'antd';
import { DeleteOutlined } from '@ant-design/icons';
import { useDelete, type BaseKey } from '@refinedev/core';
import { crudNotifications } from './notifications';
import type { AnyResource } from './types';

/** A delete button whose confirmation is a dialog with the declaration's texts (e.g. 02 §2.10). */
export function DeleteDialogButton({
  resource,
  id,
  dialog,
  disabled,
}: {
  resource: AnyResource;
  id: BaseKey;
  dialog: { title: string; content: ReactNode; okText: string; busyText: string };
  disabled?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const { mutate, mutation } = useDelete();
  const busy = mutation.isPending;
  return (
    <>
      <Button size="small" danger icon={<DeleteOutlined />} aria-label="Eliminar" disabled={disabled} onClick={() => setOpen(true)} />
      <Modal
        open={open}
        title={dialog.title}
        onCancel={() => !busy && setOpen(false)}
        destroyOnHidden
        footer={[
          <Button key="cancel" onClick={() => setOpen(false)} disabled={busy}>
            Cancelar
          </Button>,
          <Button
            key="ok"
            danger
            type="primary"
            loading={busy}
            onClick={() =>
              mutate({ resource: resource.name, id, ...crudNotifications(resource, 'delete') }, { onSuccess: () => setOpen(false) })
            }
          >
            {busy ? dialog.busyText : dialog.okText}
          </Button>,
        ]}
      >
        {dialog.content}
      </Modal>
    </>
  );
}
