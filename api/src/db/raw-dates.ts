/** Dates from raw reads: SQLite gives text, PostgreSQL a Date. */
export function toIso(value: string | Date | null): string | null {
  return value == null ? null : new Date(value).toISOString();
}
