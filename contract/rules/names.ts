/**
 * Lower-case, accents and other combining marks stripped, spaces collapsed: the form stored in
 * `search_name` columns and search terms, and the form a query is compared in. One function, so
 * stored names and typed queries can never be normalised differently.
 */
export function toSearchKey(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

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
      index > 0 && LOWER_WORDS.has(word)
        ? word
        : word.replace(/(^|-)(\p{L})/gu, (_m, before: string, letter: string) => before + letter.toLocaleUpperCase('es')),
    )
    .join(' ');
}
