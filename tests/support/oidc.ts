import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/**
 * A real OpenID Connect provider (oidc-provider, development interactions) on loopback, for the
 * single sign-on tests (D18). Any account id typed at its login form signs in, with that id as
 * its verified e-mail; `unverified` lists e-mails the provider asserts as not verified.
 */
export interface LoopbackProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Registers the client (the redirect URI may only be known once the app has started). */
  register(redirectUri: string): void;
  close(): Promise<void>;
}

export async function startOidcProvider(opts: { unverified?: string[] } = {}): Promise<LoopbackProvider> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'vigia-admin';
  const clientSecret = 'secreto-del-cliente-de-pruebas-0123456789';
  let handler: ((req: http.IncomingMessage, res: http.ServerResponse) => void) | null = null;
  server.on('request', (req, res) => {
    if (!handler) {
      res.statusCode = 503;
      res.end('provider not ready');
      return;
    }
    handler(req, res);
  });
  return {
    issuer,
    clientId,
    clientSecret,
    register(redirectUri) {
      const provider = new Provider(issuer, {
        clients: [
          {
            client_id: clientId,
            client_secret: clientSecret,
            redirect_uris: [redirectUri],
            grant_types: ['authorization_code'],
            response_types: ['code'],
          },
        ],
        claims: { openid: ['sub'], email: ['email', 'email_verified'] },
        scopes: ['openid', 'email', 'profile'],
        pkce: { required: () => true },
        cookies: { keys: ['cookie-key-for-tests-only'] },
        findAccount: async (_ctx: unknown, id: string) => ({
          accountId: id,
          claims: async () => ({ sub: id, email: id, email_verified: !(opts.unverified ?? []).includes(id) }),
        }),
      });
      handler = provider.callback();
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Reads Set-Cookie headers into a cookie jar string. */
function mergeCookies(jar: Map<string, string>, res: Response) {
  for (const c of res.headers.getSetCookie()) {
    const [pair] = c.split(';');
    const i = pair.indexOf('=');
    jar.set(pair.slice(0, i), pair.slice(i + 1));
  }
}

/**
 * Signs in at the provider without a browser: follows the authorization URL, submits the
 * development login form with `email` and the consent form, and answers the callback URL
 * (redirect URI with code, state and iss) the provider sends the browser to.
 */
export async function signInAtProvider(authorizationUrl: string, email: string, redirectUri: string): Promise<URL> {
  const jar = new Map<string, string>();
  let url = authorizationUrl;
  let method: 'GET' | 'POST' = 'GET';
  let body: URLSearchParams | undefined;
  for (let i = 0; i < 12; i++) {
    const res = await fetch(url, {
      method,
      body,
      redirect: 'manual',
      headers: {
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
    });
    mergeCookies(jar, res);
    const location = res.headers.get('location');
    if (location) {
      const next = new URL(location, url);
      if (next.href.startsWith(redirectUri)) return next;
      url = next.href;
      method = 'GET';
      body = undefined;
      continue;
    }
    const html = await res.text();
    if (!/\/interaction\//.test(url)) throw new Error(`unexpected provider page ${res.status} at ${url}: ${html.slice(0, 300)}`);
    method = 'POST';
    body = html.includes('name="login"')
      ? new URLSearchParams({ prompt: 'login', login: email, password: 'x' })
      : new URLSearchParams({ prompt: 'consent' });
  }
  throw new Error('the provider never redirected back');
}
