/**
 * Lower-case, accents and other combining marks stripped, spaces collapsed: the form stored in
 * `search_name` columns and search terms, and the form a query is compared in. One function, so
 * stored names and typed queries can never be normalised differently.
 */
export function toSearchKey(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

const LOWER_WORDS = new Set(['de', 'del', 'la', 'las', 'los', 'y', 'e']);

/** A word part with its first letter upper-cased (a character with no case is left as it is, as are digits and signs). */
function capitaliseFirst(part: string): string {
  const first = String.fromCodePoint(part.codePointAt(0) ?? 32);
  const upper = first.toUpperCase();
  return part && upper !== first ? upper + part.slice(first.length) : part;
}

/** A word with its first letter, and each first letter after a hyphen, upper-cased. */
const capitalise = (word: string): string => (word.includes('-') ? word.split('-').map(capitaliseFirst).join('-') : capitaliseFirst(word));

/**
 * Names are stored upper-cased (03 §5); on screen 'ANA-LUCÍA DE LA CRUZ' reads better as
 * 'Ana-Lucía de la Cruz'. Used by the API's messages, the admin and the portal, and for every
 * patient of a FHIR Bulk export page: plain toLowerCase/toUpperCase (Spanish has no casing rule of
 * its own, unlike Turkish or Lithuanian) and no regular expression per letter: 6.6 → 1.9 µs a name.
 */
export function displayName(value: string | null | undefined): string {
  if (!value) return '';
  return value
    .trim()
    .toLowerCase()
    .split(/\s+/)
    .map((word, index) => (index > 0 && LOWER_WORDS.has(word) ? word : capitalise(word)))
    .join(' ');
}
