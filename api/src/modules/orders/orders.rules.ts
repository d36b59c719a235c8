import { MESSAGES } from '@vigia/contract/rules/validation';
import { activityCount, normaliseDays, normaliseHours, parseAmount, type OrderSchedule } from '@vigia/contract/rules/activities';

/** The fields an order carries besides its type (02 §3). */
export interface OrderFieldsInput {
  order_type?: number;
  clinical_element?: number | null;
  medicine_id?: number | null;
  frecuency?: number | null;
  time_unit?: number | null;
  during?: number | null;
  dose?: number | null;
  amount?: string | null;
  medication_unit?: number | null;
  frequency_type?: number | null;
  days?: number[] | null;
  hours?: string[] | null;
  notify?: boolean;
  permanent?: boolean;
  only?: boolean | null;
  start_at?: string | null;
}

export const ORDER_MESSAGES = {
  noDays: 'Seleccione al menos un día de la semana',
  noHours: 'Seleccione al menos una hora de toma',
  noActivities: 'La frecuencia no genera ninguna actividad en la duración indicada',
  noValidOrders: 'No hay órdenes válidas para crear',
  amount: 'Cantidad no válida',
} as const;

/** 02 §9 single-order defaults; bulk adds hours ['08:00'] and duration 7 (applied by the caller). */
export const SINGLE_DEFAULTS = {
  notify: true,
  time_unit: 0,
  frecuency: 1,
  dose: 1,
  during: 1,
  amount: '1',
  medication_unit: 3,
  frequency_type: 0,
} as const;
export const BULK_DEFAULTS = { ...SINGLE_DEFAULTS, during: 7, hours: ['08:00'] } as const;

/** A complete, normalised order (what is stored): daily → all seven days, weekly → sorted (02 §5); element 0 → 1 (D6). */
export interface NormalisedOrder {
  order_type: 0 | 1;
  clinical_element: number | null;
  medicine_id: number | null;
  frecuency: number | null;
  time_unit: number | null;
  during: number;
  dose: number | null;
  amount: string | null;
  medication_unit: number | null;
  frequency_type: number | null;
  days: number[];
  hours: string[];
  notify: boolean;
  permanent: boolean;
}

export type OrderCheck = { ok: true; order: NormalisedOrder } | { ok: false; field: string; message: string };

/** Applies defaults, checks what the order type requires and normalises days and hours. */
export function checkOrder(input: OrderFieldsInput, defaults: Partial<Record<keyof OrderFieldsInput, unknown>>): OrderCheck {
  const v = {
    ...defaults,
    ...Object.fromEntries(Object.entries(input).filter(([, x]) => x !== undefined && x !== null)),
  } as OrderFieldsInput;
  const fail = (field: string, message: string = MESSAGES.required): OrderCheck => ({ ok: false, field, message });
  if (v.order_type !== 0 && v.order_type !== 1) return fail('order_type');
  if (v.during == null) return fail('during');
  if (v.order_type === 1) {
    for (const f of ['medicine_id', 'frecuency', 'time_unit', 'amount', 'medication_unit'] as const)
      if (v[f] == null || v[f] === '') return fail(f);
    if (!Number.isFinite(parseAmount(v.amount))) return fail('amount', ORDER_MESSAGES.amount);
    const order: NormalisedOrder = {
      order_type: 1,
      clinical_element: null,
      medicine_id: v.medicine_id!,
      frecuency: v.frecuency!,
      time_unit: v.time_unit!,
      during: v.during,
      dose: v.dose ?? 1,
      amount: v.amount!,
      medication_unit: v.medication_unit!,
      frequency_type: null,
      days: [],
      hours: [],
      notify: v.notify ?? true,
      permanent: v.permanent ?? false,
    };
    if (!order.permanent && activityCount(toSchedule(order)) < 1) return fail('frecuency', ORDER_MESSAGES.noActivities);
    return { ok: true, order };
  }
  if (v.clinical_element == null) return fail('clinical_element');
  if (v.frequency_type == null) return fail('frequency_type');
  const hours = normaliseHours(v.hours);
  if (!hours.length) return fail('hours', ORDER_MESSAGES.noHours);
  const days = normaliseDays(v.frequency_type, v.days);
  if (!days.length) return fail('days', ORDER_MESSAGES.noDays);
  return {
    ok: true,
    order: {
      order_type: 0,
      clinical_element: v.clinical_element === 0 ? 1 : v.clinical_element,
      medicine_id: null,
      frecuency: null,
      time_unit: null,
      during: v.during,
      dose: null,
      amount: null,
      medication_unit: null,
      frequency_type: v.frequency_type,
      days,
      hours,
      notify: v.notify ?? true,
      permanent: v.permanent ?? false,
    },
  };
}

/** The generator's view of a stored order. */
export function toSchedule(
  o: Pick<NormalisedOrder, 'order_type' | 'frecuency' | 'time_unit' | 'during' | 'frequency_type' | 'days' | 'hours' | 'permanent'>,
): OrderSchedule {
  return o.order_type === 1
    ? { order_type: 1, frecuency: o.frecuency ?? 0, time_unit: o.time_unit ?? 0, during: o.during, permanent: o.permanent }
    : { order_type: 0, frequency_type: o.frequency_type ?? 0, days: o.days, hours: o.hours, during: o.during, permanent: o.permanent };
}

/** Blood pressure is one order for two readings (3 and 4); 0 is heart rate (D6). */
export function elementsMatching(element: number): number[] {
  if (element === 3 || element === 4) return [3, 4];
  if (element === 0 || element === 1) return [0, 1];
  return [element];
}

/** Stale data: no reading for longer than the order's average interval plus the one-hour window. */
export function staleAfterMs(o: Pick<NormalisedOrder, 'frequency_type' | 'days' | 'hours'>): number {
  const perWeek = (o.frequency_type === 1 ? o.days.length : 7) * Math.max(1, o.hours.length);
  return Math.ceil((7 * 24 * 3600_000) / Math.max(1, perWeek)) + 3600_000;
}
