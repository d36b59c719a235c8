import crypto from 'node:crypto';
import { MESSAGES, validatePassword, validatePasswordConfirmation } from '@vigia/contract/rules/validation';

/** Pure rules of password recovery (issue 38; ASVS 5.0 V6.4). */

/** A link is good for 30 minutes (issue 38). */
export const RESET_TTL_MINUTES = 30;

/** What POST /password_resets answers, whether or not the e-mail belongs to anyone. */
export const RESET_REQUESTED_MESSAGE =
  'Si el correo corresponde a una cuenta activa, en unos minutos recibirá un enlace para restablecer la contraseña. Revise también la carpeta de correo no deseado.';
export const RESET_DONE_MESSAGE = 'Su contraseña fue cambiada. Inicie sesión con la contraseña nueva.';

/** 32 random bytes, base64url: 43 characters (the contract's pattern), 256 bits no one guesses. */
export function newResetToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

/** What the table keeps of a token: its SHA-256, so a copy of the table opens no account. */
export function hashResetToken(token: string): string {
  return crypto.createHash('sha256').update(token, 'utf8').digest('hex');
}

export type ResetState = 'valid' | 'unknown' | 'used' | 'voided' | 'expired';

export const RESET_REFUSALS: Record<Exclude<ResetState, 'valid'>, string> = {
  unknown: 'El enlace para restablecer la contraseña no es válido. Solicite uno nuevo.',
  used: 'Este enlace ya se usó. Si necesita cambiar la contraseña otra vez, solicite un enlace nuevo.',
  voided: 'Este enlace fue reemplazado por uno más reciente. Use el enlace del último correo que recibió.',
  expired: `Este enlace venció (dura ${RESET_TTL_MINUTES} minutos). Solicite uno nuevo.`,
};

/** A stored link's state at `now`: used before voided before expired (the most useful thing to tell). */
export function resetState(
  row: { used_at: Date | null; voided_at: Date | null; expires_at: Date; user_active: boolean } | undefined,
  now: Date,
): ResetState {
  if (!row || !row.user_active) return 'unknown';
  if (row.used_at) return 'used';
  if (row.voided_at) return 'voided';
  return row.expires_at.getTime() > now.getTime() ? 'valid' : 'expired';
}

/** The specification's password rule (contract/rules/validation.ts, 03 §5) and its confirmation. */
export function checkNewPassword(password: string, confirmation: string): { field: string; message: string } | null {
  const p = validatePassword(password);
  if (p) return { field: 'password', message: p };
  if (!confirmation) return { field: 'password_confirmation', message: MESSAGES.required };
  const c = validatePasswordConfirmation(password, confirmation);
  return c ? { field: 'password_confirmation', message: c } : null;
}

/** The set-new-password page of the staff app; the token travels after '#', so no server log or Referer holds it. */
export function resetLink(publicUrl: string | null, token: string): string {
  return `${(publicUrl ?? '').replace(/\/+$/, '')}/password_resets#${token}`;
}

export interface ResetEmail {
  subject: string;
  text: string;
}

export function resetEmail(p: { firstName: string; email: string; link: string }): ResetEmail {
  return {
    subject: 'Vigía: restablezca su contraseña',
    text: [
      `Hola, ${p.firstName}:`,
      '',
      `Recibimos una solicitud para restablecer la contraseña de su cuenta de Vigía (${p.email}).`,
      '',
      `Para elegir una contraseña nueva, abra este enlace en los próximos ${RESET_TTL_MINUTES} minutos:`,
      p.link,
      '',
      'El enlace sirve una sola vez. Al cambiar la contraseña se cerrarán todas sus sesiones abiertas.',
      'Si no pidió este cambio, ignore este correo: su contraseña actual sigue funcionando.',
    ].join('\n'),
  };
}

/** Sent once a reset has changed the password: the owner learns of a reset they did not make. */
export function changedEmail(p: { firstName: string; email: string }): ResetEmail {
  return {
    subject: 'Vigía: su contraseña fue cambiada',
    text: [
      `Hola, ${p.firstName}:`,
      '',
      `La contraseña de su cuenta de Vigía (${p.email}) se cambió con un enlace de recuperación, y se cerraron todas sus sesiones.`,
      '',
      'Si fue usted, no tiene que hacer nada más. Si no fue usted, comuníquese de inmediato con el administrador de su institución.',
    ].join('\n'),
  };
}

/** A single sign-on user: the answer stays the same for privacy, so the e-mail says where to go instead. */
export function ssoEmail(p: { firstName: string; email: string; loginUrl: string }): ResetEmail {
  return {
    subject: 'Vigía: su institución ingresa con inicio de sesión único',
    text: [
      `Hola, ${p.firstName}:`,
      '',
      `Recibimos una solicitud para restablecer la contraseña de su cuenta de Vigía (${p.email}).`,
      '',
      `Su institución ingresa a Vigía con inicio de sesión único: entre por ${p.loginUrl} con la cuenta de su institución.`,
      'Esa contraseña la administra su proveedor de identidad: si la olvidó, recupérela allí o pida ayuda al área de sistemas de su institución.',
      '',
      'Si no pidió este cambio, ignore este correo.',
    ].join('\n'),
  };
}
