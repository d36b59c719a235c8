import type { AuthActionResponse, AuthProvider } from '@refinedev/core';
import type { Schemas, Session } from '../contract';
import {
  clearSession,
  markLoggingOut,
  mergeProfile,
  peekLogoutReason,
  readSession,
  readToken,
  rememberRedirect,
  saveSession,
  setLogoutReason,
  takeLogoutReason,
  takeRedirect,
  type LogoutReason,
} from '../session';
import { apiRequest } from './api';
import { fromResponse, isHttpError } from './errors';

export type LoginParams = { email: string; password: string };
export type SignInChallenge = Schemas['SignInChallenge'];
export type LogoutParams = { reason?: LogoutReason } | undefined;

const LOGIN_ERROR_TITLE = 'No fue posible iniciar sesión';

function rememberCurrentPage() {
  rememberRedirect(window.location.pathname + window.location.search);
}

/** The session answer stored (after the password, or after its second step), and where the app goes. */
export function signedIn(session: Session): AuthActionResponse {
  saveSession(session);
  return {
    success: true,
    redirectTo: takeRedirect() ?? '/dashboard',
    successNotification: { message: session.message || `Bienvenido, ${session.first_name}` },
  };
}

/**
 * Staff login (03 §4): clears any old token first; on success stores the session answer. A 202
 * `challenge` (issue 38: a second factor, or its enrolment, is due) is handed back to the login
 * page with nothing stored: its intermediate token opens nothing else.
 */
async function login({ email, password }: LoginParams): Promise<AuthActionResponse & { challenge?: SignInChallenge }> {
  clearSession();
  takeLogoutReason();
  try {
    const answer = await apiRequest('post', '/sessions', { values: { email: email.trim(), password } });
    if ('step' in answer) return { success: false, challenge: answer };
    return signedIn(answer);
  } catch (error) {
    const httpError = isHttpError(error) ? error : fromResponse(0, undefined);
    return {
      success: false,
      error: { name: LOGIN_ERROR_TITLE, message: httpError.message, statusCode: httpError.statusCode },
    };
  }
}

/** A 401 `session_ended` (closed from another session, by an administrator, by a new password) says why on the login page. */
function endedOrExpired(error: { code?: string; message?: string }) {
  if (error.code === 'session_ended') setLogoutReason('ended', error.message);
  else setLogoutReason('expired');
}

/** Session handling of 03 §4: staff login, logout, token check and "any 401 logs out". */
export const authProvider = {
  login,

  async logout(params?: LogoutParams) {
    if (params?.reason) {
      // The session ended on its own: come back to the same page after logging in again.
      rememberCurrentPage();
      setLogoutReason(params.reason);
    }
    if (!peekLogoutReason()) markLoggingOut();
    // Forget the token first so nothing else is sent with it, then revoke it on the server; a
    // failure there (already expired, offline) must not keep the user in.
    const token = readToken();
    clearSession();
    if (token) await apiRequest('delete', '/sessions', { token }).catch(() => undefined);
    return { success: true, redirectTo: '/' };
  },

  async check() {
    return readSession() ? { authenticated: true } : { authenticated: false, logout: true, redirectTo: '/' };
  },

  async onError(error: { statusCode?: number; status?: number; code?: string; message?: string }) {
    const status = error?.statusCode ?? error?.status;
    // Without a stored session (e.g. a request still in flight after logging out) there is
    // nothing to end.
    if (status === 401 && readSession()) {
      // Bring the user back to the same screen once they log in again.
      rememberCurrentPage();
      endedOrExpired(error);
      return { logout: true, redirectTo: '/' };
    }
    return {};
  },

  async getIdentity() {
    const session = readSession();
    if (!session) return null;
    try {
      return mergeProfile(await apiRequest('get', '/me')) ?? session;
    } catch (error) {
      if (isHttpError(error) && error.statusCode === 401) {
        // The token was revoked or expired: same outcome as any other 401.
        rememberCurrentPage();
        endedOrExpired(error);
        clearSession();
        window.location.replace('/');
      }
      return session;
    }
  },

  async getPermissions() {
    return readSession()?.role_name ?? null;
  },
} satisfies AuthProvider;
