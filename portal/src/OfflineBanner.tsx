import { offlineText } from '@vigia/contract/rules/reads';

const TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * The portal's counterpart of the staff app's banner (issue 50): said once for the whole screen
 * while the phone has no network, with the time of the last read that worked.
 */
export function OfflineBanner({ online, lastReadAt }: { online: boolean; lastReadAt: number }) {
  if (online) return null;
  return (
    <div className="offline-banner" role="status">
      {offlineText(lastReadAt, Date.now(), TIME_ZONE)}
    </div>
  );
}
