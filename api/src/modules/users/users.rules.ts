import { MESSAGES, validatePassword, validatePasswordConfirmation } from '@vigia/contract/rules/validation';

/** Pure rules of the users screen (03 §2, §4, §5). */

/** 03 §5 user form: the shown message once the own city changes; 03 §9: the session ends 10 s later. */
export const OWN_CITY_LOGOUT_MESSAGE = 'Para actualizar su zona horaria, la sesión se cerrará en 10 segundos.';

export interface PasswordProblem {
  field: 'password' | 'password_confirmation';
  message: string;
}

/**
 * Password and its confirmation: required on create, optional on update (both or neither).
 * Answers the first problem or null.
 */
export function checkPassword(password: string | undefined, confirmation: string | undefined, required: boolean): PasswordProblem | null {
  if (password === undefined && confirmation === undefined && !required) return null;
  const p = validatePassword(password);
  if (p) return { field: 'password', message: p };
  if (confirmation === undefined || confirmation === '') return { field: 'password_confirmation', message: MESSAGES.required };
  const c = validatePasswordConfirmation(password, confirmation);
  return c ? { field: 'password_confirmation', message: c } : null;
}

/** 03 §4: changing the city of one's own user forces a logout (the time zone comes from it). */
export function ownCityChanged(actorId: number, targetId: number, before: number | null, after: number | null | undefined): boolean {
  return actorId === targetId && after !== undefined && after !== before;
}
