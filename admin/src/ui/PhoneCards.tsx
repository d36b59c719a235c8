import { useSyncExternalStore, type ReactNode } from 'react';
import { Empty, Pagination, Spin, type PaginationProps } from 'antd';
import './phone-cards.css';

/** Below antd's `md` (768 px): a phone, where a table of five columns cuts the ones that matter. */
export const PHONE_QUERY = '(max-width: 767px)';

/** True on a phone: the lists below draw their rows as cards instead of a table. */
export function usePhoneLayout(): boolean {
  // layout/useMediaQuery's shape, kept here: ui/ imports no layout (layout reads ui).
  return useSyncExternalStore(subscribePhone, () => window.matchMedia(PHONE_QUERY).matches);
}

function subscribePhone(onChange: () => void): () => void {
  const list = window.matchMedia(PHONE_QUERY);
  list.addEventListener('change', onChange);
  return () => list.removeEventListener('change', onChange);
}

export interface PhoneCardField<T> {
  key: string;
  label: string;
  render: (row: T) => ReactNode;
  /** Not shown for this row (a value it does not have). */
  hidden?: (row: T) => boolean;
}

/**
 * A table's rows as cards on a phone (issue 50), as Priorización draws its patients: each row's
 * title, its key fields stacked as label and value (wrapping, never cut), and its actions at the
 * foot of the card. The same data and actions as the desktop's table; loading, empty and paging
 * as the table had them. A failed read is its caller's ReadState, never this empty state.
 */
export function PhoneCards<T>({
  rows,
  rowKey,
  title,
  fields,
  actions,
  below,
  loading = false,
  empty,
  label,
  pagination,
}: {
  rows: readonly T[];
  rowKey: (row: T) => string | number;
  title: (row: T) => ReactNode;
  fields: PhoneCardField<T>[];
  actions?: (row: T) => ReactNode;
  /** Something a row opens under itself (an export's files). */
  below?: (row: T) => ReactNode;
  loading?: boolean;
  empty: ReactNode;
  /** The list's accessible name: 'Alertas cerradas'. */
  label: string;
  pagination?: PaginationProps | false;
}) {
  return (
    <div className="phone-cards-wrap" aria-busy={loading}>
      {rows.length === 0 ? (
        loading ? (
          <Spin className="phone-cards-loading" />
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} />
        )
      ) : (
        <ul className="phone-cards" aria-label={label}>
          {rows.map((row) => (
            <li key={rowKey(row)} className="phone-card">
              <div className="phone-card-title">{title(row)}</div>
              <dl className="phone-card-fields">
                {fields
                  .filter((f) => !f.hidden?.(row))
                  .map((f) => (
                    <div key={f.key} className="phone-card-field">
                      <dt>{f.label}</dt>
                      <dd>{f.render(row)}</dd>
                    </div>
                  ))}
              </dl>
              {actions && <div className="phone-card-actions">{actions(row)}</div>}
              {below?.(row)}
            </li>
          ))}
        </ul>
      )}
      {pagination && <Pagination size="small" className="phone-cards-pagination" {...pagination} />}
    </div>
  );
}
