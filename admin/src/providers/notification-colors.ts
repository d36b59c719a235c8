import type { NotificationType } from './notification-store';

/** Success green, error red (03 §2). */
export const NOTIFICATION_COLORS: Record<NotificationType, { accent: string; background: string }> = {
  success: { accent: '#2e7d32', background: '#edf7ed' },
  error: { accent: '#c62828', background: '#fdecea' },
};
