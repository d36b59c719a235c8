import { apiRequest } from '../../providers/api';
import type { Session } from '../../contract';

/** 03 §8: what the staff sees when the identity provider's sign-in fails. */
export const SSO_FAILED_TEXT = 'login failed. Error #KJN838';
/** 03 §2: the callback route's text. */
export const SSO_FINALIZING_TEXT = 'finalizing authentication...';

const STATE_KEY = 'vigia.sso.state';
const FAILED_KEY = 'vigia.sso.failed';

/** Starts the sign-on: the API keeps the PKCE verifier; this tab remembers the state it started, so a foreign callback is refused. */
export async function startSso(): Promise<void> {
  const { url, state } = await apiRequest('post', '/sso/authorize', { token: null });
  sessionStorage.setItem(STATE_KEY, state);
  window.location.assign(url);
}

export async function finishSso(params: URLSearchParams): Promise<Session> {
  const state = params.get('state');
  const expected = sessionStorage.getItem(STATE_KEY);
  sessionStorage.removeItem(STATE_KEY);
  const code = params.get('code');
  if (!code || !state || state !== expected || params.get('error')) throw new Error('sso failed');
  const iss = params.get('iss');
  return apiRequest('post', '/sso/callback', { values: { code, state, ...(iss ? { iss } : {}) }, token: null });
}

/** After a failure /login shows the message instead of starting again (no redirect loop). */
export const markSsoFailed = () => sessionStorage.setItem(FAILED_KEY, '1');
export function takeSsoFailed(): boolean {
  const failed = sessionStorage.getItem(FAILED_KEY) === '1';
  sessionStorage.removeItem(FAILED_KEY);
  return failed;
}
