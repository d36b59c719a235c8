import { useSyncExternalStore } from 'react';

/** The two screens the API answers with this app; the screen is chosen from location.pathname. */
export const LOGIN_PATH = '/login_patient';
export const PORTAL_PATH = '/portal_patient';

const CHANGE = 'vigia:navigate';

export function navigate(path: string, options: { replace?: boolean } = {}): void {
  if (options.replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  window.dispatchEvent(new Event(CHANGE));
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('popstate', onChange);
  window.addEventListener(CHANGE, onChange);
  return () => {
    window.removeEventListener('popstate', onChange);
    window.removeEventListener(CHANGE, onChange);
  };
}

export function usePathname(): string {
  return useSyncExternalStore(subscribe, () => location.pathname);
}
