import { NOTIFICATION_DIALOG_THRESHOLD } from '../constants';

export type NotificationType = 'success' | 'error';

/** A global notification (03 §2): type, message and show flag. */
export type StoredNotification = {
  key: string;
  type: NotificationType;
  message: string;
  description?: string;
  show: boolean;
};

type State = {
  items: StoredNotification[];
  /** True once more than the threshold were open at once: the dialog lists them. */
  overflow: boolean;
};

let state: State = { items: [], overflow: false };
const listeners = new Set<() => void>();

function set(next: State) {
  state = next;
  listeners.forEach((listener) => listener());
}

/** Small store behind the notification provider; notifications are appended and removed by index. */
export const notificationStore = {
  getState: (): State => state,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** Appends (or replaces the one with the same key) and returns its index. */
  append(item: StoredNotification): number {
    const existing = state.items.findIndex((n) => n.key === item.key);
    const items = existing >= 0 ? state.items.map((n, i) => (i === existing ? item : n)) : [...state.items, item];
    set({ items, overflow: state.overflow || items.length > NOTIFICATION_DIALOG_THRESHOLD });
    return existing >= 0 ? existing : items.length - 1;
  },
  removeAt(index: number): void {
    if (index < 0 || index >= state.items.length) return;
    const items = state.items.filter((_, i) => i !== index);
    set({ items, overflow: state.overflow && items.length > 0 });
  },
  indexOf(key: string): number {
    return state.items.findIndex((n) => n.key === key);
  },
  clear(): void {
    set({ items: [], overflow: false });
  },
};
