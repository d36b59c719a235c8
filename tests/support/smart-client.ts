import crypto from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';

/**
 * An API client's side of SMART Backend Services (issue 37), for tests: a key pair with its public
 * JWK, and the client assertion it signs for /oauth/token.
 */
export const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

export interface ClientKey {
  privateKey: CryptoKey;
  publicJwk: object;
}

export async function makeClientKey(alg: string, kid: string): Promise<ClientKey> {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  return { privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

export interface AssertionClaims {
  alg: string;
  kid: string;
  key: CryptoKey | Uint8Array;
  iss: string;
  sub: string;
  aud: string;
  /** Seconds since the epoch. */
  exp: number;
  /** Seconds since the epoch; left out when not given (the official SMART client sends none). */
  iat?: number;
  nbf?: number;
  jti?: string;
}

export function signAssertion(c: AssertionClaims): Promise<string> {
  return new SignJWT({ ...(c.iat !== undefined ? { iat: c.iat } : {}), ...(c.nbf !== undefined ? { nbf: c.nbf } : {}) })
    .setProtectedHeader({ alg: c.alg, kid: c.kid, typ: 'JWT' })
    .setIssuer(c.iss)
    .setSubject(c.sub)
    .setAudience(c.aud)
    .setExpirationTime(c.exp)
    .setJti(c.jti ?? crypto.randomUUID())
    .sign(c.key);
}
