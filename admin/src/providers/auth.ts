import type { AuthProvider } from '@refinedev/core';
import { API_URL } from '../constants';
import type { Profile, Session } from '../contract';
import {
  clearSession,
  markLoggingOut,
  mergeProfile,
  readSession,
  rememberRedirect,
  saveSession,
  takeRedirect,
} from '../session';
import { http, toHttpError } from './http';

export type LoginParams = { email: string; password: string };

const LOGIN_ERROR_TITLE = 'No fue posible iniciar sesión';

/** Session handling of 03 §4: staff login, logout, token check and "any 401 logs out". */
export const authProvider: AuthProvider = {
  async login({ email, password }: LoginParams) {
    // A new login never reuses an old token, even if the call fails.
    clearSession();
    try {
      const { data } = await http.post<Session>(`${API_URL}/sessions`, {
        email: email.trim(),
        password,
      });
      saveSession(data);
      return {
        success: true,
        redirectTo: takeRedirect() ?? '/dashboard',
        successNotification: { message: data.message || `Bienvenido, ${data.first_name}` },
      };
    } catch (error) {
      const httpError = toHttpError(error);
      return {
        success: false,
        error: { name: LOGIN_ERROR_TITLE, message: httpError.message, statusCode: httpError.statusCode },
      };
    }
  },

  async logout() {
    markLoggingOut();
    if (readSession()) {
      // Revoke on the server; a failure (expired token, offline) must not keep the user in.
      await http.delete(`${API_URL}/sessions`).catch(() => undefined);
    }
    clearSession();
    return { success: true, redirectTo: '/' };
  },

  async check() {
    return readSession()
      ? { authenticated: true }
      : { authenticated: false, logout: true, redirectTo: '/' };
  },

  async onError(error: { statusCode?: number; status?: number }) {
    const status = error?.statusCode ?? error?.status;
    if (status === 401) {
      // Bring the user back to the same screen once they log in again.
      rememberRedirect(window.location.pathname + window.location.search);
      return { logout: true, redirectTo: '/' };
    }
    return {};
  },

  async getIdentity() {
    const session = readSession();
    if (!session) return null;
    try {
      const { data } = await http.get<Profile>(`${API_URL}/me`);
      return mergeProfile(data) ?? session;
    } catch (error) {
      if (toHttpError(error).statusCode === 401) {
        // The token was revoked or expired: same outcome as any other 401.
        rememberRedirect(window.location.pathname + window.location.search);
        clearSession();
        window.location.replace('/');
      }
      return session;
    }
  },

  async getPermissions() {
    return readSession()?.role_name ?? null;
  },
};
