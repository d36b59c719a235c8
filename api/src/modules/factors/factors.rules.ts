/**
 * The second factor's rules (issue 38), pure: TOTP as RFC 6238 with the numbers (30 s
 * steps, 6 digits, one step of drift either way, a code refused again in its step), recovery
 * codes, and which step of sign-in a user is at under the organisation's policy.
 */

export const TOTP_STEP_SECONDS = 30;
/** "One time step of clock drift either way is accepted" (issue 38). */
export const TOTP_DRIFT_STEPS = 1;
export const TOTP_DIGITS = 6;
export const RECOVERY_CODE_COUNT = 10;
/** Lowercase letters and digits without the look-alikes (i, l, o, 0, 1): 31 symbols, 10 of them ≈ 49 bits. */
export const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const RECOVERY_LENGTH = 10;
/** The intermediate token and every WebAuthn challenge live 5 minutes. */
export const SIGN_IN_TOKEN_SECONDS = 300;

export const FACTOR_MESSAGES = {
  codeFormat: 'El código tiene 6 dígitos.',
  recoveryFormat: 'El código de recuperación tiene 10 letras y números (xxxxx-xxxxx).',
  oneProof: 'Escriba el código de 6 dígitos o un código de recuperación, no ambos.',
  codeRefused: 'El código no es válido o ya se usó. Escriba el código que muestra ahora su aplicación.',
  recoveryRefused: 'El código de recuperación no es válido o ya se usó.',
  tokenInvalid: 'El inicio de sesión venció. Escriba de nuevo su correo y contraseña.',
  pending: 'Complete el segundo paso del inicio de sesión.',
  passkeyRefused: 'La llave de acceso no se pudo verificar. Inténtelo de nuevo.',
  secondFactor: 'Escriba el código de su aplicación de autenticación o use su llave de acceso.',
  enrolment:
    'Su institución exige un segundo factor para su rol. Inscriba una aplicación de autenticación o una llave de acceso para continuar.',
  totpExists: 'Ya tiene una aplicación de autenticación. Quítela antes de inscribir otra.',
  noPendingTotp: 'Primero genere la clave de la aplicación de autenticación.',
  lastFactor: 'Su institución exige un segundo factor para su rol: no puede quitar el último.',
  noFactor: 'No tiene un segundo factor inscrito.',
  resetSelf: 'No puede restablecer su propio segundo factor; quítelo desde Seguridad con un código.',
} as const;

/** The 30 s step a moment falls in (RFC 6238's T). */
export function stepAt(nowMs: number): number {
  return Math.floor(nowMs / 1000 / TOTP_STEP_SECONDS);
}

export type TotpCheck = { ok: true; step: number } | { ok: false; reason: 'format' | 'wrong' | 'replay' };

/**
 * A 6-digit code against the steps now-1, now, now+1 (`codeAt` computes a step's code). A code of
 * a step at or before the last one accepted is a replay: it was used already, or a newer one was.
 */
export function checkTotp(input: { code: string; nowMs: number; lastStep: number | null; codeAt: (step: number) => string }): TotpCheck {
  if (!/^[0-9]{6}$/.test(input.code)) return { ok: false, reason: 'format' };
  const now = stepAt(input.nowMs);
  for (let d = -TOTP_DRIFT_STEPS; d <= TOTP_DRIFT_STEPS; d++) {
    const step = now + d;
    if (!timingSafeEqualText(input.codeAt(step), input.code)) continue;
    if (input.lastStep != null && step <= input.lastStep) return { ok: false, reason: 'replay' };
    return { ok: true, step };
  }
  return { ok: false, reason: 'wrong' };
}

function timingSafeEqualText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** A typed recovery code as stored (hashed): lowercase, without hyphen or spaces; null when malformed. */
export function normaliseRecoveryCode(input: string): string | null {
  const code = input.trim().toLowerCase().replace(/[- ]/g, '');
  if (code.length !== RECOVERY_LENGTH) return null;
  for (const ch of code) if (!RECOVERY_ALPHABET.includes(ch)) return null;
  return code;
}

/** Ten codes shown as xxxxx-xxxxx; `randomIndex(n)` is a uniform integer below n (crypto.randomInt). */
export function generateRecoveryCodes(randomIndex: (n: number) => number): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    let code = '';
    for (let i = 0; i < RECOVERY_LENGTH; i++) code += RECOVERY_ALPHABET[randomIndex(RECOVERY_ALPHABET.length)];
    return `${code.slice(0, 5)}-${code.slice(5)}`;
  });
}

export type SignInStep = 'none' | 'second_factor' | 'enrolment';
export type FactorMethod = 'totp' | 'recovery_code' | 'passkey';

export interface UserFactors {
  totp: boolean;
  passkeys: number;
  recoveryCodesLeft: number;
}

export const hasFactor = (f: UserFactors) => f.totp || f.passkeys > 0;

/**
 * After the password: a user with a factor gives it; one without, whose role the policy names,
 * enrols first; anyone else is signed in.
 */
export function signInStepOf(f: UserFactors, role: string, requiredRoles: readonly string[]): SignInStep {
  if (hasFactor(f)) return 'second_factor';
  return requiredRoles.includes(role) ? 'enrolment' : 'none';
}

/** What the second step may be given; recovery codes only beside a factor. */
export function methodsOf(f: UserFactors): FactorMethod[] {
  const m: FactorMethod[] = [];
  if (f.totp) m.push('totp');
  if (hasFactor(f) && f.recoveryCodesLeft > 0) m.push('recovery_code');
  if (f.passkeys > 0) m.push('passkey');
  return m;
}

/** Removing one factor is refused when the policy requires one and none would be left. */
export function mayRemoveFactor(after: UserFactors, required: boolean): boolean {
  return !required || hasFactor(after);
}

/** The body of a step that takes a code or a recovery code: exactly one of them. */
export function proofOf(body: {
  code?: string;
  recovery_code?: string;
}): { kind: 'code'; code: string } | { kind: 'recovery'; code: string } | null {
  if ((body.code === undefined) === (body.recovery_code === undefined)) return null;
  return body.code !== undefined ? { kind: 'code', code: body.code } : { kind: 'recovery', code: body.recovery_code! };
}

/** A change to a user's second factor, which the user is told about by e-mail (ASVS 5.0 6.3.7). */
export type FactorChange =
  'totp_added' | 'totp_removed' | 'passkey_added' | 'passkey_removed' | 'recovery_codes_renewed' | 'reset_by_admin';

const CHANGE_LINES: Record<FactorChange, { subject: string; line: string }> = {
  totp_added: { subject: 'se activó una aplicación de autenticación', line: 'Se inscribió una aplicación de autenticación' },
  totp_removed: { subject: 'se quitó la aplicación de autenticación', line: 'Se quitó la aplicación de autenticación' },
  passkey_added: { subject: 'se registró una llave de acceso', line: 'Se registró una llave de acceso' },
  passkey_removed: { subject: 'se eliminó una llave de acceso', line: 'Se eliminó una llave de acceso' },
  recovery_codes_renewed: {
    subject: 'se generaron nuevos códigos de recuperación',
    line: 'Se generaron nuevos códigos de recuperación (los anteriores dejaron de valer)',
  },
  reset_by_admin: {
    subject: 'un administrador restableció su segundo factor',
    line: 'Un administrador de su institución restableció su segundo factor y cerró sus sesiones',
  },
};

/**
 * The e-mail that tells a user their second factor changed: what changed and when, in the user's
 * zone, and what to do if it was not them. Never a code, a key or a link to follow.
 */
export function factorChangedEmail(p: { firstName: string; email: string; change: FactorChange; when: string }): {
  subject: string;
  text: string;
} {
  const c = CHANGE_LINES[p.change];
  return {
    subject: `Vigía: ${c.subject}`,
    text: [
      `Hola, ${p.firstName}:`,
      '',
      `${c.line} en su cuenta de Vigía (${p.email}) el ${p.when}.`,
      '',
      'Si fue usted, no tiene que hacer nada más. Si no fue usted, comuníquese de inmediato con el administrador de su institución: alguien pudo entrar con su contraseña.',
    ].join('\n'),
  };
}
