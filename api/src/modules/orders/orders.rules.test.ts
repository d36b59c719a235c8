import { describe, expect, it } from 'vitest';
import { BULK_DEFAULTS, checkOrder, elementsMatching, ORDER_MESSAGES, SINGLE_DEFAULTS, staleAfterMs } from './orders.rules.js';

describe('checkOrder (02 §5 single and bulk validity)', () => {
  it.each([
    [{ order_type: 1 }, 'medicine_id', '¡El campo es requerido!'],
    [{ order_type: 0 }, 'clinical_element', '¡El campo es requerido!'],
    [{ order_type: 0, clinical_element: 1, hours: [] }, 'hours', ORDER_MESSAGES.noHours],
    [{ order_type: 0, clinical_element: 1, hours: ['08:00'], frequency_type: 1, days: [] }, 'days', ORDER_MESSAGES.noDays],
    [{ order_type: 1, medicine_id: 3, frecuency: 48, time_unit: 0, during: 1 }, 'frecuency', ORDER_MESSAGES.noActivities],
    [{ order_type: 1, medicine_id: 3, amount: 'x' }, 'amount', ORDER_MESSAGES.amount],
  ])('%j → %s', (input, field, message) => {
    expect(checkOrder(input, SINGLE_DEFAULTS)).toEqual({ ok: false, field, message });
  });
  it('single defaults of 02 §9', () => {
    const r = checkOrder({ order_type: 1, medicine_id: 7 }, SINGLE_DEFAULTS);
    expect(r).toMatchObject({
      ok: true,
      order: { frecuency: 1, time_unit: 0, dose: 1, during: 1, amount: '1', medication_unit: 3, notify: true },
    });
  });
  it('bulk vital-sign defaults: hours 08:00, 7 days, daily = all seven days', () => {
    const r = checkOrder({ order_type: 0, clinical_element: 0, days: [2] }, BULK_DEFAULTS);
    expect(r).toMatchObject({ ok: true, order: { clinical_element: 1, hours: ['08:00'], during: 7, days: [0, 1, 2, 3, 4, 5, 6] } });
  });
  it('weekly days are sorted', () => {
    const r = checkOrder(
      { order_type: 0, clinical_element: 6, frequency_type: 1, days: [5, 1, 3], hours: ['20:00', '07:00'] },
      BULK_DEFAULTS,
    );
    expect(r).toMatchObject({ ok: true, order: { days: [1, 3, 5], hours: ['07:00', '20:00'] } });
  });
});

describe('matching and staleness', () => {
  it.each([
    [3, [3, 4]],
    [4, [3, 4]],
    [0, [0, 1]],
    [6, [6]],
  ])('element %s matches %j', (e, m) => expect(elementsMatching(e)).toEqual(m));
  it.each([
    [0, [0, 1, 2, 3, 4, 5, 6], ['08:00'], 25 * 3600_000],
    [0, [0, 1, 2, 3, 4, 5, 6], ['08:00', '20:00'], 13 * 3600_000],
    [1, [1], ['08:00'], 169 * 3600_000],
  ])('type %s days %j hours %j → %s ms', (t, days, hours, ms) => expect(staleAfterMs({ frequency_type: t, days, hours })).toBe(ms));
});
