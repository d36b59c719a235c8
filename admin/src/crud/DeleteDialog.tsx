import type { ReactNode } from 'react';
import { DeleteOutlined } from '@ant-design/icons';
import { useDelete, type BaseKey } from '@refinedev/core';
import { ConfirmButton } from './ConfirmButton';
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
  const { mutate, mutation } = useDelete();
  return (
    <ConfirmButton
      trigger={{ size: 'small', danger: true, icon: <DeleteOutlined />, 'aria-label': 'Eliminar', disabled }}
      title={dialog.title}
      content={dialog.content}
      okText={dialog.okText}
      busyText={dialog.busyText}
      busy={mutation.isPending}
      onConfirm={(close) => mutate({ resource: resource.name, id, ...crudNotifications(resource, 'delete') }, { onSuccess: close })}
    />
  );
}
