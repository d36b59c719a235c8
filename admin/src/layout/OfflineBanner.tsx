import { Alert } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { offlineText } from '@vigia/contract/rules/reads';
import { useOnline } from '../ui/ReadState';

const TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * Once for the whole app, above every screen (issue 50): without network, the data on screen may be
 * old, and since when. react-query pauses its reads meanwhile and reads again by itself when the
 * network is back (refetchOnReconnect), and the banner goes.
 */
export function OfflineBanner() {
  const online = useOnline();
  const queryClient = useQueryClient();
  if (online) return null;
  const lastReadAt = Math.max(
    0,
    ...queryClient
      .getQueryCache()
      .getAll()
      .map((q) => q.state.dataUpdatedAt),
  );
  return (
    <Alert
      className="vigia-offline-banner"
      type="warning"
      showIcon
      banner
      role="status"
      message={offlineText(lastReadAt, Date.now(), TIME_ZONE)}
    />
  );
}
