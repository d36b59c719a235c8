import { useMemo, useRef } from 'react';
import { keyForSubmit, newUuid, type KeptKey } from './idempotency-keys';

/**
 * A form's Idempotency-Key (issue 50): `keyFor(submit)` when the user submits (the same key while
 * the same call and body are sent again: a retry after a lost answer is stored once by the API),
 * `succeeded()` once the write went through, so the next submit is a new one.
 */
export function useIdempotencyKey() {
  const last = useRef<KeptKey | null>(null);
  return useMemo(
    () => ({
      keyFor(submit: unknown): string {
        last.current = keyForSubmit(last.current, submit, newUuid);
        return last.current.key;
      },
      succeeded(): void {
        last.current = null;
      },
    }),
    [],
  );
}
