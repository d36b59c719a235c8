/**
 * The shared validation catalogue of the specification (03 §5), used by the API, the admin and
 * the portal so a rule and its message exist once. Each validator returns null when the value is
 * valid, otherwise the exact Spanish message to show.
 */
export type Validator = (value: string | null | undefined) => string | null;

export const MESSAGES = {
  required: '¡El campo es requerido!',
  password:
    'La contraseña debe contener al menos una letra mayúscula, una letra minúscula, un dígito, un carácter especial (@$!%*?&) y tener una longitud mínima de 8 caracteres.',
  passwordMin: 'Debe tener mínimo 8 caracteres',
  passwordConfirmation: 'las contraseñas no coinciden',
  nid: '¡El valor ingresado no es válido o está incompleto!',
  email: '¡El formato de correo no es válido!',
  phoneOptional: '¡Ingrese solo números, entre 7 y 10 caracteres!',
  phoneRequired: '¡Ingrese solo números y un máximo de 11 caracteres!',
  quantity: '¡Ingrese solo números',
  code: 'Debe tener mínimo 6 caracteres',
  textMin: 'Debe tener mínimo 3 caracteres',
  textMax: (max: number) => `Debe tener máximo de ${max} caracteres`,
  vitals: '¡Ingrese solo números enteros o con un decimal (ej: 5.5)',
  serial: 'El valor ingresado no es válido o está incompleto; debe contener 16 caracteres',
  url: '¡El formato de la URL no es válido!',
  name: 'Solo letras y espacios, entre 3 y 50 caracteres',
  date: 'La fecha no es válida',
  birthDateFuture: 'La fecha de nacimiento no puede ser futura',
  expirationPast: 'La fecha de vencimiento no puede ser anterior a hoy',
  minorTooOld: 'La fecha debe ser de hace menos de 18 años',
  loginPasswordRequired: 'Contraseña requerida',
  loginPasswordMin: 'Mínimo 8 caracteres',
  otpRequired: 'Código requerido',
  otpLength: (n: number) => `El código debe tener ${n} caracteres`,
  otpFailed: 'Número de documento o código erróneos',
  controlCharacters: 'El texto contiene caracteres no permitidos (caracteres de control).',
  finiteNumber: 'Debe ser un número finito.',
} as const;

/** Control characters other than tab, line feed and carriage return: NUL and the like have no place in text. */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/**
 * The path of the first string (or object key) in `value` holding a control character, as the
 * field name an error shows (`orders.0.notes`), or null when there is none.
 */
export function controlCharacterPath(value: unknown, path: string[] = []): string | null {
  if (typeof value === 'string') return CONTROL.test(value) ? path.join('.') || 'body' : null;
  if (!value || typeof value !== 'object') return null;
  for (const [key, item] of Object.entries(value)) {
    if (CONTROL.test(key)) return [...path, key.replace(new RegExp(CONTROL.source, 'g'), '?')].join('.');
    const found = controlCharacterPath(item, [...path, key]);
    if (found) return found;
  }
  return null;
}

const isBlank = (v: string | null | undefined): v is null | undefined | '' => v == null || String(v).trim() === '';

export const DEFAULT_NID_REGEX = '^([0-9]{4,8}|[0-9]{10})$';
export const NAME_REGEX = /^[A-Za-zÁÉÍÓÚÜÑáéíóúüñ ]{1,50}$/;
export const PASSWORD_REGEX = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)(?=.*[@$!%*?&])[A-Za-z\d@$!%*?&]{8,}$/;
const EMAIL_REGEX = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

/** Upper-cases and trims, as patient and caregiver text is stored. */
export function normaliseName(value: string): string {
  return value.trim().replace(/\s+/g, ' ').toUpperCase();
}

export function validateRequired(value: string | null | undefined): string | null {
  return isBlank(value) ? MESSAGES.required : null;
}

export function validateName(value: string | null | undefined, required = true): string | null {
  if (isBlank(value)) return required ? MESSAGES.required : null;
  const v = value.trim();
  return v.length >= 3 && NAME_REGEX.test(v) ? null : MESSAGES.name;
}

export function validatePassword(value: string | null | undefined): string | null {
  if (isBlank(value)) return MESSAGES.required;
  if (value.length < 8) return MESSAGES.passwordMin;
  return PASSWORD_REGEX.test(value) ? null : MESSAGES.password;
}

export function validatePasswordConfirmation(password: string | null | undefined, confirmation: string | null | undefined): string | null {
  return password === confirmation ? null : MESSAGES.passwordConfirmation;
}

/**
 * National id: the id type's regex from the server replaces the default once a type is chosen.
 * Input is upper-cased and stripped of dots, spaces and hyphens before matching.
 */
export function normaliseNid(value: string): string {
  return value.toUpperCase().replace(/[.\s-]/g, '');
}

export function validateNid(value: string | null | undefined, regex: string = DEFAULT_NID_REGEX): string | null {
  if (isBlank(value)) return MESSAGES.required;
  let re: RegExp;
  try {
    re = new RegExp(regex);
  } catch {
    re = new RegExp(DEFAULT_NID_REGEX);
  }
  return re.test(normaliseNid(value)) ? null : MESSAGES.nid;
}

export function validateEmail(value: string | null | undefined, required = true): string | null {
  if (isBlank(value)) return required ? MESSAGES.required : null;
  return value.length >= 3 && EMAIL_REGEX.test(value.trim()) ? null : MESSAGES.email;
}

/** Phone: digits only, 7 to 11 (the optional kind's message says 7 to 10; the rule is shared). */
export function validatePhone(value: string | null | undefined, required = true): string | null {
  if (isBlank(value)) return required ? MESSAGES.required : null;
  if (/^[0-9]{7,11}$/.test(value)) return null;
  return required ? MESSAGES.phoneRequired : MESSAGES.phoneOptional;
}

export function validateQuantity(value: string | null | undefined, required = false): string | null {
  if (isBlank(value)) return required ? MESSAGES.required : null;
  const re = required ? /^[0-9]{1,10}$/ : /^[0-9]{1,8}$/;
  return re.test(value) ? null : MESSAGES.quantity;
}

export function validateCode(value: string | null | undefined): string | null {
  if (isBlank(value)) return MESSAGES.required;
  return value.length >= 6 ? null : MESSAGES.code;
}

export function validateText(value: string | null | undefined, max: 50 | 200 | 400 | 600 = 200, required = true): string | null {
  if (isBlank(value)) return required ? MESSAGES.required : null;
  if (value.trim().length < 3) return MESSAGES.textMin;
  return value.length <= max ? null : MESSAGES.textMax(max);
}

/** Vitals: non-negative, at most one decimal, at most 5 characters. */
export function validateVital(value: string | null | undefined, required = true): string | null {
  if (isBlank(value)) return required ? MESSAGES.required : null;
  return value.length <= 5 && /^[0-9]+(\.[0-9])?$/.test(value) ? null : MESSAGES.vitals;
}

export function validateSerial(value: string | null | undefined): string | null {
  if (isBlank(value)) return MESSAGES.required;
  return /^[A-Za-z0-9]{16}$/.test(value) ? null : MESSAGES.serial;
}

export function validateUrl(value: string | null | undefined): string | null {
  if (isBlank(value)) return MESSAGES.required;
  if (!value.startsWith('https://')) return MESSAGES.url;
  try {
    new URL(value);
    return null;
  } catch {
    return MESSAGES.url;
  }
}

export const DATE_MIN = '1890-01-01';
export const DATE_MAX = '2300-01-01';
export const MINOR_MONTHS = 216;

export type DateKind = 'any' | 'birth' | 'expiration' | 'menor';

/**
 * Dates are 'YYYY-MM-DD'; `today` is passed in (in the user's zone) so the rule stays pure.
 */
export function validateDate(value: string | null | undefined, kind: DateKind, today: string, required = true): string | null {
  if (isBlank(value)) return required ? MESSAGES.required : null;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) return MESSAGES.date;
  if (new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) !== value) return MESSAGES.date;
  if (value < DATE_MIN || value > DATE_MAX) return MESSAGES.date;
  if (kind === 'birth' && value > today) return MESSAGES.birthDateFuture;
  if (kind === 'expiration' && value < today) return MESSAGES.expirationPast;
  if (kind === 'menor') {
    const t = new Date(`${today}T00:00:00Z`);
    t.setUTCMonth(t.getUTCMonth() - MINOR_MONTHS);
    if (value > t.toISOString().slice(0, 10)) return MESSAGES.minorTooOld;
  }
  return null;
}

/** Staff login rules (03 §5, screen-specific). */
export function validateLoginPassword(value: string | null | undefined): string | null {
  if (isBlank(value)) return MESSAGES.loginPasswordRequired;
  return value.length >= 8 ? null : MESSAGES.loginPasswordMin;
}

/** Patient login code: required and exactly the configured length (4 by default, D17). */
export function validateOtpCode(value: string | null | undefined, length = 4): string | null {
  if (isBlank(value)) return MESSAGES.otpRequired;
  return value.length === length && /^[0-9]+$/.test(value) ? null : MESSAGES.otpLength(length);
}

/** The path of the first number in `value` that is not finite (JSON `1e309` reads as Infinity), or null. */
export function nonFinitePath(value: unknown, path: string[] = []): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? null : path.join('.') || 'body';
  if (!value || typeof value !== 'object') return null;
  for (const [key, item] of Object.entries(value)) {
    const found = nonFinitePath(item, [...path, key]);
    if (found) return found;
  }
  return null;
}

/**
 * `value` with the control characters (other than tab and newline) removed from every string: for
 * text a third party sends that cannot be refused, such as a patient's message relayed by the
 * messaging provider (PostgreSQL cannot store NUL).
 */
export function withoutControlCharacters<T>(value: T): T {
  if (typeof value === 'string') return value.replace(new RegExp(CONTROL.source, 'g'), '') as T;
  if (Array.isArray(value)) return value.map(withoutControlCharacters) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [withoutControlCharacters(k), withoutControlCharacters(v)])) as T;
  return value;
}
