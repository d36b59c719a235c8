/**
 * A count with its noun in Spanish ('1 orden', '2 órdenes', '0 órdenes'): the singular is for
 * exactly one, every other number (zero, decimals, negatives) takes the plural. The caller gives
 * both forms: Spanish plurals are not one suffix (orden/órdenes, día/días, vez/veces).
 */
export function countOf(n: number, one: string, many: string): string {
  return `${n} ${isOne(n) ? one : many}`;
}

/** Whether a count takes the singular (for the verbs and articles that agree with it). */
export function isOne(n: number): boolean {
  return n === 1;
}
