import { brokenRules, type RuleForCheck } from '@vigia/contract/rules/alarms';

export interface Reading {
  id: number;
  patient_id: number;
  clinical_element: number;
  value: number;
  when: Date;
}

export type AlarmAction<R extends RuleForCheck> =
  { kind: 'open'; rule: R; reading: Reading } | { kind: 'attach'; rule: R; reading: Reading; alertId: number | null };

/**
 * D10 for one patient's readings, oldest first: a reading outside a rule's range opens an alert
 * for that rule unless one is open (already, or opened by an earlier reading of the same batch),
 * in which case it attaches to it ('Mediciones posteriores'). `alertId` null = the alert this
 * batch opens.
 */
export function planAlarmActions<R extends RuleForCheck>(
  readings: Reading[],
  rules: R[],
  openAlerts: Map<number, number>,
): AlarmAction<R>[] {
  const open = new Map<number, number | null>(openAlerts);
  const actions: AlarmAction<R>[] = [];
  const sorted = [...readings].sort((a, b) => a.when.getTime() - b.when.getTime() || a.id - b.id);
  for (const reading of sorted) {
    for (const rule of brokenRules(reading, rules)) {
      if (open.has(rule.id)) {
        actions.push({ kind: 'attach', rule, reading, alertId: open.get(rule.id) ?? null });
      } else {
        actions.push({ kind: 'open', rule, reading });
        open.set(rule.id, null);
      }
    }
  }
  return actions;
}

function offsetMs(instant: Date, timeZone: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  );
  const asUtc = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return asUtc - (instant.getTime() - instant.getMilliseconds());
}

/** The UTC instant a calendar day (YYYY-MM-DD) starts in a zone (D5: filters are days of the user's zone). */
export function dayStartUtc(day: string, timeZone: string): Date {
  const [y, m, d] = day.split('-').map(Number);
  const guess = Date.UTC(y, m - 1, d);
  const first = offsetMs(new Date(guess), timeZone);
  return new Date(guess - offsetMs(new Date(guess - first), timeZone));
}

/** The day after, for an inclusive end date. */
export function nextDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}

/** page/per_page (02 §7) or simple-rest _start/_end (D3), whichever the caller sent. */
export function pageWindow(
  q: { page?: unknown; per_page?: unknown; _start?: unknown; _end?: unknown },
  defaultSize = 10,
): { offset: number; limit: number } {
  if (q.page != null || q.per_page != null) {
    const perPage = Math.min(100, Math.max(1, Number(q.per_page ?? defaultSize) || defaultSize));
    const page = Math.max(1, Number(q.page ?? 1) || 1);
    return { offset: (page - 1) * perPage, limit: perPage };
  }
  const offset = Math.max(0, Number(q._start ?? 0) || 0);
  const end = q._end != null ? Number(q._end) : offset + defaultSize;
  return { offset, limit: Math.max(0, Math.min(100, end - offset)) };
}
