import type { Schemas } from '../contract';
import { isIpAddressHost, passkeyAddressMessage } from '@vigia/contract/rules/sign-in';

type WebAuthnOptions = Schemas['WebAuthnOptions'];
type WebAuthnResponse = Schemas['WebAuthnResponse'];

/**
 * The browser half of a passkey (issue 38): the options the API gave, through the browser's prompt,
 * back as the JSON the API checks. `@simplewebauthn/browser` is loaded only when a passkey is used,
 * so the login page does not carry it for everyone.
 */
export async function createPasskey(options: WebAuthnOptions): Promise<WebAuthnResponse> {
  const { startRegistration } = await import('@simplewebauthn/browser');
  const response = await startRegistration({ optionsJSON: options as never });
  return response as unknown as WebAuthnResponse;
}

export async function provePasskey(options: WebAuthnOptions): Promise<WebAuthnResponse> {
  const { startAuthentication } = await import('@simplewebauthn/browser');
  const response = await startAuthentication({ optionsJSON: options as never });
  return response as unknown as WebAuthnResponse;
}

/** Whether this browser can use passkeys at all (an old browser, or a page not served over https). */
export function passkeysSupported(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';
}

const CANCELLED = 'Se canceló la llave de acceso o se agotó el tiempo. Intente de nuevo.';

/** The browser's refusal in words a nurse can act on (its own messages are English and technical). */
export function passkeyErrorMessage(error: unknown): string {
  const code = (error as { code?: string } | null)?.code;
  const name = (error as { name?: string } | null)?.name;
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' || name === 'InvalidStateError') {
    return 'Esta llave de acceso ya está registrada en su cuenta.';
  }
  if (code === 'ERROR_INVALID_DOMAIN' || code === 'ERROR_INVALID_RP_ID' || name === 'SecurityError') {
    // The usual cause: Vigía opened by an IP address, which no browser accepts for passkeys (issue 49).
    const host = typeof window === 'undefined' ? '' : window.location.hostname;
    if (isIpAddressHost(host)) return passkeyAddressMessage(host.replace(/^\[|\]$/g, ''));
    return 'Este navegador no permite llaves de acceso en esta dirección. Entre por la dirección oficial de Vigía (https).';
  }
  if (name === 'NotSupportedError' || code === 'ERROR_AUTHENTICATOR_NO_SUPPORTED_PUBKEYCREDPARAMS_ALG') {
    return 'Este dispositivo no admite llaves de acceso. Use la aplicación de autenticación.';
  }
  if (name === 'NotAllowedError' || name === 'AbortError' || code === 'ERROR_CEREMONY_ABORTED') return CANCELLED;
  if (!passkeysSupported()) return 'Este navegador no admite llaves de acceso. Use la aplicación de autenticación.';
  return CANCELLED;
}
