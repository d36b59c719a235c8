const LOWER_WORDS = new Set(['de', 'del', 'la', 'las', 'los', 'y', 'e']);

/**
 * Names are stored upper-cased (03 §5); on screen 'ANA-LUCÍA DE LA CRUZ' reads better as
 * 'Ana-Lucía de la Cruz'. Used by the API's messages, the admin and the portal.
 */
export function displayName(value: string | null | undefined): string {
  if (!value) return '';
  return value
    .trim()
    .toLocaleLowerCase('es')
    .split(/\s+/)
    .map((word, index) =>
      index > 0 && LOWER_WORDS.has(word) ? word : word.replace(/(^|-)(\p{L})/gu, (_m, before: string, letter: string) => before + letter.toLocaleUpperCase('es')),
    )
    .join(' ');
}
