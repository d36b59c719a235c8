/**
 * The history a patient states for the 'RDA de paciente' (issue 51): allergies and family history.
 * One rule set for the API and the record's cards.
 */
export const HISTORY_DESCRIPTION_MAX = 200;

/** What the patient states, as stored: spaces around it dropped, runs of spaces one; empty is none. */
export function cleanStatement(text: string): string {
  return text.trim().replace(/\s+/g, ' ');
}

/** The contract's ICD-10 pattern: a letter, two digits, up to two more characters, a dot allowed. */
const ICD10 = /^[A-Za-z][0-9]{2}(\.?[0-9A-Za-z]{1,2})?$/;

/**
 * An ICD-10 code as stored and sent (ICD-10 CO writes 'E119', no dot, capitals); null for none or
 * for text that is not a code (the contract refuses it before this runs).
 */
export function normaliseIcd10(text: string | null | undefined): string | null {
  const code = (text ?? '').trim();
  if (!code || !ICD10.test(code)) return null;
  return code.replace('.', '').toUpperCase();
}
