import { MESSAGES, validateNid } from '@vigia/contract/rules/validation';

/** Texts and rules of the patient login (spec 03 §2, §5, §8; D17). Messages come from the shared catalogue. */

export const LOGIN_TEXT = {
  title: 'Ingreso de pacientes',
  documentPrompt: 'Por favor ingrese el número de documento del paciente',
  documentLabel: 'Número de documento',
  continue: 'Continuar',
  smsNotice: 'En unos momentos recibirá un mensaje de texto (SMS) con el código de confirmación en el teléfono móvil registrado.',
  codeLabel: 'Código de confirmación',
  noCode: '¿No le llegó el código?',
  resend: 'Reenviar código',
  resent: 'Le enviamos un código nuevo.',
  back: 'Volver',
  submit: 'Iniciar sesión',
  sending: 'Enviando…',
  checking: 'Verificando…',
} as const;

export const LOGIN_MESSAGES = {
  required: MESSAGES.required,
  codeRequired: MESSAGES.otpRequired,
  codeLength: MESSAGES.otpLength,
  failedCheck: MESSAGES.otpFailed,
  unreachable: 'No fue posible comunicarse con el servidor. Intente de nuevo en unos minutos.',
  unexpected: 'Ocurrió un error inesperado. Intente de nuevo.',
} as const;

/**
 * The login does not know the id type, so it accepts any type's number as the contract's Nid does
 * (passports carry letters): after normalisation (upper case, no dots, spaces or hyphens),
 * 1 to 20 letters or digits. The catalogue's digits-only default would lock those patients out.
 */
const LOGIN_NID_REGEX = '^[0-9A-Z]{1,20}$';
export const DOCUMENT_MAX_LENGTH = 20;

/** The code length is one installation setting (`OTP_LENGTH`, P5, D17); the server says which in code_length. */
export const DEFAULT_CODE_LENGTH = 4;

export function validateDocument(value: string): string | null {
  return validateNid(value, LOGIN_NID_REGEX);
}

export function validateCode(value: string, length: number): string | null {
  if (!value) return LOGIN_MESSAGES.codeRequired;
  if (value.length !== length || !/^[0-9]+$/.test(value)) return LOGIN_MESSAGES.codeLength(length);
  return null;
}
