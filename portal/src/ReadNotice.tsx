import { useSyncExternalStore } from 'react';
import { failedReadText, READ_TEXT, type ReadPhase } from '@vigia/contract/rules/reads';

/**
 * The portal's drawing of the read rule the staff app shares (P212; @vigia/contract/rules/reads):
 * a read that failed says so with 'Reintentar', and data that could not be refreshed says when it
 * was read. The decision (readPhase) and the words come from the contract; this is only the markup.
 */

const subscribe = (onChange: () => void) => {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
};

/** Whether the phone has a network now. */
export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, () => navigator.onLine);
}

const TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The message of a read in the 'failed' or 'stale' phase (`text` replaces the general failure when the specification has one). */
export function ReadNotice({
  phase,
  what,
  readAt,
  online,
  onRetry,
  text,
}: {
  phase: ReadPhase;
  what: string;
  readAt: number;
  online: boolean;
  onRetry: () => void;
  text?: string;
}) {
  if (phase !== 'failed' && phase !== 'stale') return null;
  const message = phase === 'failed' && text && online ? text : failedReadText(phase, what, readAt, Date.now(), TIME_ZONE, !online);
  return (
    <div className={phase === 'failed' ? 'read-notice alert' : 'read-notice read-notice--stale'} role="alert">
      <p className="read-notice__text">{message}</p>
      <button type="button" className="button button--ghost read-notice__retry" onClick={onRetry}>
        {READ_TEXT.retry}
      </button>
    </div>
  );
}
