import { useCallback, useEffect, useRef, useState } from 'react';
import { readPhase, type ReadPhase } from '@vigia/contract/rules/reads';
import { ApiError } from './api';
import { LOGIN_PATH, navigate } from './navigation';
import { useOnline } from './ReadNotice';
import { clearSession, readCopy, readSession, saveCopy, type PatientSession } from './session';

export interface CachedRead<T> {
  data: T | null;
  /** When `data` was read (from the network now, or by an earlier visit when it comes from the copy). */
  readAt: number;
  phase: ReadPhase;
  online: boolean;
  retry: () => void;
}

/**
 * One read of the portal with the four states of P212, and an offline copy (issue 50): each answer
 * is kept in the session's storage, and a read that fails with nothing in memory (the portal opened
 * without network) shows that copy, marked with when it was read. It reads again whenever the
 * network comes or goes. A 401 ends the session (and with it every copy).
 */
export function useCachedRead<T>(
  name: string,
  fetchData: (session: PatientSession) => Promise<T>,
  isEmpty: (data: T) => boolean = () => false,
): CachedRead<T> {
  const [state, setState] = useState<{ data: T | null; readAt: number; failed: boolean }>({ data: null, readAt: 0, failed: false });
  const online = useOnline();
  const latest = useRef(0);

  const read = useCallback(() => {
    const session = readSession();
    if (!session) return;
    const copyName = `${session.patient_id}.${name}`;
    const attempt = ++latest.current;
    fetchData(session).then(
      (data) => {
        if (attempt !== latest.current) return;
        const readAt = Date.now();
        saveCopy(copyName, { data, readAt });
        setState({ data, readAt, failed: false });
      },
      (error: unknown) => {
        if (attempt !== latest.current) return;
        if (error instanceof ApiError && error.status === 401) {
          clearSession();
          navigate(LOGIN_PATH, { replace: true });
          return;
        }
        setState((last) => {
          if (last.data !== null) return { ...last, failed: true };
          const copy = readCopy<T>(copyName);
          return copy ? { data: copy.data, readAt: copy.readAt, failed: true } : { ...last, failed: true };
        });
      },
    );
  }, [name, fetchData]);

  // Offline too: the read fails at once and the copy is shown.
  useEffect(() => {
    read();
  }, [online, read]);

  const phase = readPhase({
    hasData: state.data !== null,
    empty: state.data !== null && isEmpty(state.data),
    failed: state.failed,
    offline: !online,
  });
  return { data: state.data, readAt: state.readAt, phase, online, retry: read };
}
