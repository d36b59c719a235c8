/** Period options of the dashboard (02 §2.12, §9): 30 days back by default, 7 days, today. */
export const PERIODS = [
  { value: 30, label: 'Últimos 30 días' },
  { value: 7, label: 'Últimos 7 días' },
  { value: 0, label: 'Hoy' },
] as const;

const day = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

export function periodRange(daysBack: number, today = new Date()): { start_at: string; end_at: string } {
  const start = new Date(today);
  start.setDate(start.getDate() - daysBack);
  return { start_at: day(start), end_at: day(today) };
}
