import { lazy, Suspense, useMemo, useSyncExternalStore } from 'react';
import { App } from 'antd';
import type { NotificationProvider, OpenNotificationParams } from '@refinedev/core';
import { NOTIFICATION_DURATION_S } from '../constants';
import { NOTIFICATION_COLORS as COLORS } from './notification-colors';
import { notificationStore, type NotificationType } from './notification-store';

let sequence = 0;

function toType(type: OpenNotificationParams['type']): NotificationType {
  return type === 'error' ? 'error' : 'success';
}

/**
 * Refine notification provider on antd's notification (03 §2): top right, 4 s, success green,
 * error red. Once more than two are open, the toasts give way to a dialog that lists them.
 */
export function useNotificationProvider(): NotificationProvider {
  const { notification } = App.useApp();

  return useMemo<NotificationProvider>(
    () => ({
      open({ key, type, message, description }) {
        const id = key ?? `vigia-${++sequence}`;
        const kind = toType(type);
        notificationStore.append({ key: id, type: kind, message, description, show: true });

        if (notificationStore.getState().overflow) {
          notification.destroy();
          return;
        }
        notification.open({
          key: id,
          type: kind,
          message,
          description,
          placement: 'topRight',
          duration: NOTIFICATION_DURATION_S,
          style: { background: COLORS[kind].background, borderLeft: `5px solid ${COLORS[kind].accent}` },
          onClose: () => {
            if (!notificationStore.getState().overflow) {
              notificationStore.removeAt(notificationStore.indexOf(id));
            }
          },
        });
      },
      close(key) {
        notification.destroy(key);
        notificationStore.removeAt(notificationStore.indexOf(key));
      },
    }),
    [notification],
  );
}

const NotificationDialog = lazy(() => import('./notification-dialog'));

/** Mounts the list dialog (its own chunk) only once more than two notifications are open. */
export function NotificationOverflow() {
  const overflow = useSyncExternalStore(
    notificationStore.subscribe,
    () => notificationStore.getState().overflow,
  );
  if (!overflow) return null;
  return (
    <Suspense fallback={null}>
      <NotificationDialog />
    </Suspense>
  );
}
