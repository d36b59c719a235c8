import { useMemo, useRef } from 'react';
import { useNotification } from '@refinedev/core';

/**
 * @deprecated Use the hooks' `successNotification` / `errorNotification` (providers/notices.ts);
 * kept only for the patient record until it is converted.
 *
 * The app's notifications (4 s, top right, green or red; 03 §2) as stable functions. */
export function useNotify() {
  const { open } = useNotification();
  const ref = useRef(open);
  ref.current = open;
  return useMemo(
    () => ({
      success: (message: string, description?: string) => ref.current?.({ type: 'success', message, description }),
      error: (error: unknown, fallback = 'No fue posible completar la operación') =>
        ref.current?.({ type: 'error', message: (error as { message?: string } | null)?.message || fallback }),
    }),
    [],
  );
}
