export { formatWhen } from '@vigia/contract/rules/dates';

/** One decimal at most, decimal comma as Spanish readers expect. */
export function formatReading(value: number): string {
  return (Math.round(value * 10) / 10).toLocaleString('es-CO', { maximumFractionDigits: 1 });
}
