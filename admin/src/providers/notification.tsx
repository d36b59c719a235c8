import { lazy, Suspense, useEffect, useSyncExternalStore } from 'react';
import { notification } from 'antd';
import type { NotificationProvider, OpenNotificationParams } from '@refinedev/core';
import { NOTIFICATION_DURATION_S, TOAST_TOP_PX } from '../constants';
import { NOTIFICATION_COLORS as COLORS } from './notification-colors';
import { notificationStore, type NotificationType } from './notification-store';

type NotificationApi = ReturnType<typeof notification.useNotification>[0];

let api: NotificationApi | null = null;
/** Notifications asked for before the host mounted (e.g. during the first render). */
let pending: OpenNotificationParams[] = [];
let sequence = 0;

function toType(type: OpenNotificationParams['type']): NotificationType {
  return type === 'error' ? 'error' : 'success';
}

function show(params: OpenNotificationParams) {
  if (!api) {
    pending.push(params);
    return;
  }
  const id = params.key ?? `vigia-${++sequence}`;
  const kind = toType(params.type);
  notificationStore.append({ key: id, type: kind, message: params.message, description: params.description, show: true });

  if (notificationStore.getState().overflow) {
    // More than two at once: the dialog lists them instead of a pile of toasts.
    api.destroy();
    return;
  }
  api.open({
    key: id,
    type: kind,
    message: params.message,
    description: params.description,
    role: kind === 'error' ? 'alert' : 'status',
    style: { background: COLORS[kind].background, borderLeft: `5px solid ${COLORS[kind].accent}` },
    onClose: () => {
      if (!notificationStore.getState().overflow) notificationStore.removeAt(notificationStore.indexOf(id));
    },
  });
}

function close(key: string) {
  api?.destroy(key);
  notificationStore.removeAt(notificationStore.indexOf(key));
}

/**
 * Global notifications (03 §2) on antd's notification: top right below the header, 4 s, success green, error red.
 * The same functions serve Refine (as its notification provider) and the login page, which works
 * without Refine so that it loads fast.
 */
export const notificationProvider: NotificationProvider = { open: show, close };
export const notify = {
  success: (message: string, description?: string) => show({ type: 'success', message, description }),
  error: (message: string, description?: string) => show({ type: 'error', message, description }),
};

const NotificationDialog = lazy(() => import('./notification-dialog'));

const REGION_ID = 'vigia-notifications';

/**
 * Renders antd's notification holder and, when more than two are open, the list dialog. The
 * toasts sit in a landmark of their own, 'Notificaciones' (issue 19, axe `region`), instead of
 * loose at the end of the page.
 */
export function NotificationHost() {
  const [instance, holder] = notification.useNotification({
    placement: 'topRight',
    // Below the header: a toast over 'Salir' or the menu would hide the controls a user reaches for.
    top: TOAST_TOP_PX,
    duration: NOTIFICATION_DURATION_S,
    stack: false,
    getContainer: () => document.getElementById(REGION_ID) ?? document.body,
  });
  const overflow = useSyncExternalStore(notificationStore.subscribe, () => notificationStore.getState().overflow);

  useEffect(() => {
    api = instance;
    const queued = pending;
    pending = [];
    queued.forEach(show);
    return () => {
      api = null;
    };
  }, [instance]);

  return (
    <>
      <section id={REGION_ID} aria-label="Notificaciones" />
      {holder}
      {overflow && (
        <Suspense fallback={null}>
          <NotificationDialog />
        </Suspense>
      )}
    </>
  );
}
