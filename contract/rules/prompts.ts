/**
 * AI instructions (prompts) of a client, a tag or a patient (01 §2, §5, §9; 02 §2.11): one rule
 * set for the API and the screens.
 */
export const PROMPT_STATUS = { inactive: 0, active: 1 } as const;
export const PROMPT_TEXT_MIN = 3;
export const PROMPT_TEXT_MAX = 4000;
/** Display cut of the active instruction (01 §9) and of the tag list's preview (02 §9). */
export const PROMPT_DISPLAY_CUT = 500;
export const TAG_PROMPT_PREVIEW = 50;
export const PROMPT_PAGE_SIZES = [5, 10, 20] as const;
export const PROMPT_COMPACT_PAGE_SIZES = [5, 10] as const;

export const PROMPT_MESSAGES = {
  required: 'El campo es requerido',
  tooShort: 'La instrucción debe tener más de 2 caracteres',
  tooLong: `Debe tener máximo de ${PROMPT_TEXT_MAX} caracteres`,
  onlyActive: 'Solo se puede editar la instrucción activa',
} as const;

/** Null when the text may be saved, else the message to show (required, longer than 2 characters). */
export function validatePromptText(text: string | null | undefined): string | null {
  const v = (text ?? '').trim();
  if (!v) return PROMPT_MESSAGES.required;
  if (v.length < PROMPT_TEXT_MIN) return PROMPT_MESSAGES.tooShort;
  if (v.length > PROMPT_TEXT_MAX) return PROMPT_MESSAGES.tooLong;
  return null;
}

/** Text shown in lists: cut at `max` characters with an ellipsis. */
export function truncateText(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

/**
 * Only the active instruction may change its text; an inactive one may only be activated (and
 * then its text may change in the same save).
 */
export function canUpdatePrompt(currentStatus: number, change: { text?: string; status?: number }): boolean {
  if (currentStatus === PROMPT_STATUS.active) return true;
  if (change.status === PROMPT_STATUS.active) return true;
  return change.text === undefined;
}

export function promptStatusName(status: number): 'Activo' | 'Inactivo' {
  return status === PROMPT_STATUS.active ? 'Activo' : 'Inactivo';
}
