import { useSyncExternalStore, type CSSProperties, type ReactNode } from 'react';
import { Alert, Button } from 'antd';
import { onlineManager } from '@tanstack/react-query';
import { failedReadText, readPhase, READ_TEXT, type ReadPhase } from '@vigia/contract/rules/reads';
import './read-state.css';

/**
 * The staff app's one decision of what a read shows (P212, issue 50; the rule itself is
 * @vigia/contract/rules/reads): loading, empty, failed with 'Reintentar', or its last data marked
 * with when it was read. A screen hands it its react-query reads (Refine's `query`) and never draws
 * its empty state after a read that failed.
 */

/** What ReadState needs of a react-query read (`useList(...).query`, `useApiQuery(...).query`). */
export interface Read {
  data: unknown;
  isError: boolean;
  isFetching: boolean;
  dataUpdatedAt: number;
  refetch: () => unknown;
}

const subscribeOnline = (onChange: () => void) => onlineManager.subscribe(onChange);
const isOnline = () => onlineManager.isOnline();

/** Whether the browser has a network, as react-query sees it (it pauses its reads while it has none). */
export function useOnline(): boolean {
  return useSyncExternalStore(subscribeOnline, isOnline);
}

const TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

export interface ReadStatus {
  phase: ReadPhase;
  /** The phase's message for 'failed' and 'stale', else null. */
  message: string | null;
  retry: () => void;
  retrying: boolean;
}

/**
 * The state of one read or of a group a screen shows as one (every read must have answered for
 * the group to have data). `empty`: the answers hold nothing to show. `failedText`: a message the
 * specification gives for this read's failure (a chart's, 01 §8), said instead of the general one.
 */
export function useReadState(reads: Read[], empty: boolean, what: string, failedText?: string): ReadStatus {
  const online = useOnline();
  // Data carried over from another page or filter (Refine's placeholder) has no time of its own (0).
  const readAt = Math.min(...reads.map((r) => r.dataUpdatedAt));
  const hasData = reads.every((r) => r.data !== undefined);
  const failed = reads.some((r) => r.isError);
  const phase = readPhase({ hasData: hasData && readAt > 0, empty, failed, offline: !online });
  const message =
    phase === 'failed' && failedText && online
      ? failedText
      : phase === 'failed' || phase === 'stale'
        ? failedReadText(phase, what, readAt, Date.now(), TIME_ZONE, !online)
        : null;
  const retry = () => {
    for (const r of reads) void r.refetch();
  };
  return { phase, message, retry, retrying: reads.some((r) => r.isFetching) };
}

/** The inline message of a read that failed or could not be refreshed, with 'Reintentar'. */
export function ReadFailedAlert({ status, style }: { status: ReadStatus; style?: CSSProperties }) {
  if (!status.message) return null;
  return (
    <Alert
      className="read-failed"
      type={status.phase === 'failed' ? 'error' : 'warning'}
      showIcon
      style={{ marginBottom: 12, ...style }}
      message={status.message}
      action={
        <Button size="small" onClick={status.retry} loading={status.retrying}>
          {READ_TEXT.retry}
        </Button>
      }
    />
  );
}

/**
 * A list, card, count or chart by the state of its reads: the failed message instead of it when
 * nothing was ever read, its last data under the message when a refresh failed, `empty` (when
 * given) for an empty answer, `loading` (when given) until the first answer; otherwise `children`,
 * which draw their own loading and empty state (a table) but are never shown for a failed read.
 */
export function ReadState({
  reads,
  what,
  isEmpty = false,
  empty,
  loading,
  children,
}: {
  reads: Read[];
  /** What was read, with its article: 'las alertas abiertas'. */
  what: string;
  isEmpty?: boolean;
  empty?: ReactNode;
  loading?: ReactNode;
  children: ReactNode;
}) {
  const status = useReadState(reads, isEmpty, what);
  return (
    <ReadStateView status={status} empty={empty} loading={loading}>
      {children}
    </ReadStateView>
  );
}

/** ReadState for a status a screen already has (useReadState), e.g. to disable an action too. */
export function ReadStateView({
  status,
  empty,
  loading,
  children,
}: {
  status: ReadStatus;
  empty?: ReactNode;
  loading?: ReactNode;
  children: ReactNode;
}) {
  switch (status.phase) {
    case 'failed':
      return <ReadFailedAlert status={status} />;
    case 'stale':
      return (
        <>
          <ReadFailedAlert status={status} />
          {children}
        </>
      );
    case 'empty':
      return <>{empty ?? children}</>;
    case 'loading':
      // Children that draw their own loading (a table's spinner) never show their empty text meanwhile.
      return <>{loading ?? <div className="read-loading">{children}</div>}</>;
    default:
      return <>{children}</>;
  }
}
