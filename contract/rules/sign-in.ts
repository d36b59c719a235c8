/**
 * How staff may sign in (issue 49), for the API and the staff app alike.
 *
 * Where staff sign in through the organisation's identity provider (OIDC_* set: one provider for
 * the installation, so for every organisation in it), Vigía's own password is refused, or a person
 * disabled at the provider would keep access; a break-glass account, marked by an administrator of
 * its organisation, keeps it (and only it is sent a recovery link).
 */
export function passwordSignInAllowed(ssoEnabled: boolean, breakGlass: boolean): boolean {
  return !ssoEnabled || breakGlass;
}

/** The refusal (403 `sso_required`), said only to someone who typed the right password. */
export const SSO_REQUIRED_MESSAGE =
  "Su institución ingresa a Vigía con inicio de sesión único: use 'Ingresar con el proveedor de identidad' (en /login) con la cuenta de su institución. Su contraseña de Vigía no le da acceso.";

/**
 * A host written as an IP address (IPv4, or IPv6 in brackets or bare), which no browser accepts as a
 * passkey's relying party: WebAuthn needs a domain name.
 */
export function isIpAddressHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '');
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(h)) return h.split('.').every((n) => Number(n) <= 255);
  return h.includes(':') && /^[0-9a-f:.]+$/i.test(h);
}

/** Why passkeys cannot work at this address, in words that name the address, not the browser. */
export function passkeyAddressMessage(hostname: string): string {
  return `Las llaves de acceso necesitan que Vigía se abra con un nombre de dominio, no con una dirección IP (${hostname}). Pida al administrador la dirección correcta.`;
}
