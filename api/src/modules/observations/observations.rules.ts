/** Patient notes ('Anotaciones', 01 §2): types and how long ago a note was written. */
const OBSERVATION_TYPES: Record<number, string> = {
  0: 'Nota de enfermería',
  1: 'Evolución Médica',
  2: 'Admisión',
  3: 'Salida/Epicrisis',
  4: 'Otro',
  5: 'Resumen de conversación (asistente IA)',
};
/** Type 5 is written by the AI assistant, never by staff. */
export const AI_SUMMARY_TYPE = 5;

/** Other values render as Otro (01 §2). */
export function observationTypeName(type: number): string {
  return OBSERVATION_TYPES[type] ?? OBSERVATION_TYPES[4];
}

const UNITS: Array<[number, string, string]> = [
  [365 * 24 * 3600, 'año', 'años'],
  [30 * 24 * 3600, 'mes', 'meses'],
  [7 * 24 * 3600, 'semana', 'semanas'],
  [24 * 3600, 'día', 'días'],
  [3600, 'hora', 'horas'],
  [60, 'minuto', 'minutos'],
];

/** 'hace un momento', 'hace 1 hora', 'hace 3 días'... from `at` to `now`. */
export function timespanText(at: Date, now: Date): string {
  const seconds = Math.max(0, Math.floor((now.getTime() - at.getTime()) / 1000));
  for (const [size, one, many] of UNITS) {
    const n = Math.floor(seconds / size);
    if (n >= 1) return `hace ${n} ${n === 1 ? one : many}`;
  }
  return 'hace un momento';
}
