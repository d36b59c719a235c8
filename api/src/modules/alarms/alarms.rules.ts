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

export type AlarmNameResult = { ok: true; name: string | undefined } | { ok: false; field: string; message: string };

/**
 * The rule's name arrives as `name` or as `name_only`, the alarm form's field (02 §3). Both sent
 * must be the same name; on create one of them is required.
 */
export function alarmName(input: { name?: string; name_only?: string }, required: boolean): AlarmNameResult {
  const name = input.name?.trim();
  const nameOnly = input.name_only?.trim();
  if (name !== undefined && nameOnly !== undefined && name !== nameOnly)
    return { ok: false, field: 'name_only', message: "Los campos 'name' y 'name_only' deben tener el mismo nombre." };
  const chosen = name ?? nameOnly;
  if (chosen === undefined && required) return { ok: false, field: 'name', message: '¡El campo es requerido!' };
  return { ok: true, name: chosen };
}
