import crypto from 'node:crypto';
import type { Configuration } from 'openid-client';
import { execute, select } from '../../db/sql.js';
import { AppError, notFound } from '../../http/errors.js';
import type { OidcSettings } from '../../config.js';
import { User } from '../../db/models/users.model.js';
import { USER_STATUS } from '@vigia/contract/rules/access';
import { buildProfile, issueToken, type SessionDeps } from '../sessions/sessions.service.js';
import { displayName } from '@vigia/contract/rules/names';
import type { components } from '@vigia/contract/openapi';

type Session = components['schemas']['Session'];

/** A pending sign-on lives 10 minutes: long enough to type a password at the provider. */
const SSO_REQUEST_TTL_MS = 10 * 60_000;
const SSO_FAILED = 'No se pudo completar el inicio de sesión único.';

export interface SsoDeps extends SessionDeps {
  settings: OidcSettings | null;
  /** Plain-http providers are accepted only outside production (loopback providers in tests). */
  allowHttp: boolean;
  log: (msg: string, err?: unknown) => void;
}

/** Loaded on the first sign-on: most installations never configure one (8 MB the server would hold from start). */
const loadOidc = () => import('openid-client');

const hash = (state: string) => crypto.createHash('sha256').update(state).digest('hex');
const failed = () => new AppError(401, 'sso_failed', SSO_FAILED);

/**
 * OpenID Connect authorization code flow with PKCE (openid-client 6). The provider's metadata is
 * discovered once and kept; a failed discovery is retried on the next sign-on.
 */
export function createSso(deps: SsoDeps) {
  let config: Promise<Configuration> | null = null;

  function settings(): OidcSettings {
    if (!deps.settings) throw notFound('El inicio de sesión único no está configurado.');
    return deps.settings;
  }

  function configuration(): Promise<Configuration> {
    const s = settings();
    if (!config) {
      const insecure = deps.allowHttp && s.issuer.startsWith('http://');
      config = loadOidc()
        .then((oidc) =>
          oidc.discovery(new URL(s.issuer), s.clientId, { redirect_uris: [s.redirectUri] }, oidc.ClientSecretBasic(s.clientSecret), {
            // The ID token's signature is checked against the provider's published keys (jwks_uri),
            // not only trusted because it came over TLS.
            execute: insecure ? [oidc.allowInsecureRequests, oidc.enableNonRepudiationChecks] : [oidc.enableNonRepudiationChecks],
          }),
        )
        .catch((err) => {
          config = null;
          throw err;
        });
    }
    return config;
  }

  /** Starts a sign-on: state, nonce and PKCE verifier are kept server-side (hashed state), the provider URL is answered. */
  async function start(): Promise<{ url: string; state: string }> {
    const s = settings();
    let cfg: Configuration;
    try {
      cfg = await configuration();
    } catch (err) {
      deps.log('sso: discovery failed', err);
      throw new AppError(503, 'unavailable', 'El proveedor de identidad no responde. Intente de nuevo en unos minutos.', [], {
        'Retry-After': '30',
      });
    }
    const oidc = await loadOidc();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const verifier = oidc.randomPKCECodeVerifier();
    const now = deps.now();
    await execute(deps.sequelize, 'DELETE FROM sso_requests WHERE expires_at < :now', { now });
    await execute(
      deps.sequelize,
      'INSERT INTO sso_requests (state_hash, code_verifier, nonce, expires_at, created_at) VALUES (:h, :v, :n, :exp, :now)',
      { h: hash(state), v: verifier, n: nonce, exp: new Date(now.getTime() + SSO_REQUEST_TTL_MS), now },
    );
    const url = oidc.buildAuthorizationUrl(cfg, {
      redirect_uri: s.redirectUri,
      scope: 'openid email profile',
      state,
      nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    return { url: url.href, state };
  }

  /**
   * Finishes a sign-on: the code is exchanged with the verifier, the ID token is verified (keys,
   * issuer, audience, expiry, nonce), and our own session is issued for the active user whose
   * e-mail the provider asserts. Every failure answers the same 401.
   */
  async function finish(input: components['schemas']['SsoCallbackInput']): Promise<Session> {
    const s = settings();
    const [pending] = await select<{ code_verifier: string; nonce: string; expires_at: string }>(
      deps.sequelize,
      'SELECT code_verifier, nonce, expires_at FROM sso_requests WHERE state_hash = :h',
      { h: hash(input.state) },
    );
    // Single use, whatever happens next.
    const removed = await execute(deps.sequelize, 'DELETE FROM sso_requests WHERE state_hash = :h', { h: hash(input.state) });
    if (!pending || !removed || new Date(pending.expires_at).getTime() < deps.now().getTime()) throw failed();
    let email: string | undefined;
    try {
      const cfg = await configuration();
      const oidc = await loadOidc();
      const callback = new URL(s.redirectUri);
      callback.searchParams.set('code', input.code);
      callback.searchParams.set('state', input.state);
      if (input.iss) callback.searchParams.set('iss', input.iss);
      const tokens = await oidc.authorizationCodeGrant(cfg, callback, {
        pkceCodeVerifier: pending.code_verifier,
        expectedState: input.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      const idClaims = tokens.claims();
      if (!idClaims) throw new Error('sin ID token');
      // Providers may keep e-mail out of the ID token (scope claims go to UserInfo); UserInfo must answer for the same subject.
      const claims = (typeof idClaims.email === 'string' ? idClaims : await oidc.fetchUserInfo(cfg, tokens.access_token, idClaims.sub)) as {
        email?: unknown;
        email_verified?: unknown;
      };
      if (claims.email_verified !== false && typeof claims.email === 'string') email = claims.email.trim().toLowerCase();
    } catch (err) {
      deps.log('sso: code exchange or ID token check failed', err);
      throw failed();
    }
    if (!email) throw failed();
    const user = await User.findOne({ where: { email } });
    if (!user || user.status !== USER_STATUS.active) throw failed();
    const { token, expiresAt } = await issueToken(deps, { type: 'staff', id: user.id, clientId: user.client_id });
    const profile = await buildProfile(deps, user);
    return { ...profile, token, expires_at: expiresAt.toISOString(), message: `Bienvenido(a), ${displayName(user.first_name)}` };
  }

  return { start, finish };
}
