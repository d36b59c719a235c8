import { describe, expect, it } from 'vitest';
import { latestReadings, nextActivities, nextDayText, rangeOf } from './latest.data';

const ZONE = 'America/Bogota';
const rule = (clinical_element: number, priority: number, minimum_condition: number, maximum_condition: number) => ({
  clinical_element,
  priority,
  minimum_condition,
  maximum_condition,
});

describe('latestReadings', () => {
  it('gives value, unit, when and range of each sign in the charts’ order, the status in words', () => {
    const rows = [
      { clinical_element: 6, value: 250, when: '2026-12-05T15:42:00Z' },
      { clinical_element: 1, value: 72, when: '2026-12-05T13:00:00Z' },
    ];
    expect(latestReadings(rows, [rule(6, 1, 70, 180), rule(1, 2, 60, 100)], ZONE)).toEqual([
      {
        key: 'heart_rate',
        title: 'Frecuencia Cardiaca',
        value: '72 lpm',
        when: '05/12/2026 08:00',
        range: 'Rango: 60–100 lpm',
        status: 'in',
        statusText: 'Dentro del rango',
      },
      {
        key: 'glucose',
        title: 'Glucosa',
        value: '250 mg/dL',
        when: '05/12/2026 10:42',
        range: 'Rango: 70–180 mg/dL',
        status: 'out',
        statusText: 'Fuera del rango',
      },
    ]);
  });

  it('shows blood pressure as systolic/diastolic, out of range when either breaks its rule', () => {
    const when = '2026-12-05T15:00:00Z';
    const rows = [
      { clinical_element: 3, value: 128, when },
      { clinical_element: 4, value: 95, when },
    ];
    const [bp] = latestReadings(rows, [rule(3, 1, 90, 140), rule(4, 1, 60, 90)], ZONE);
    expect(bp).toMatchObject({ value: '128/95 mmHg', range: 'Rango: 90–140 / 60–90 mmHg', status: 'out' });
  });

  it('says a sign has no range rather than calling it in range', () => {
    const [t] = latestReadings([{ clinical_element: 7, value: 36.6, when: '2026-12-05T15:00:00Z' }], [], ZONE);
    expect(t).toMatchObject({ value: '36,6 °C', range: 'Sin rango asignado', status: 'none', statusText: 'Sin rango asignado' });
  });

  it('equal to a bound is in range (D10); the tightest of several rules is the range', () => {
    expect(rangeOf([rule(2, 3, 85, 100), rule(2, 1, 90, 100)], 2)).toEqual({ min: 90, max: 100 });
    const [ox] = latestReadings([{ clinical_element: 2, value: 90, when: '2026-12-05T15:00:00Z' }], [rule(2, 1, 90, 100)], ZONE);
    expect(ox.status).toBe('in');
  });
});

describe('nextActivities', () => {
  it.each([
    [[1, 3, 5], 1, 'Hoy'],
    [[1, 3, 5], 2, 'Mañana'],
    [[1], 2, 'El lunes'],
    [[], 2, null],
  ])('days %j seen on weekday %i: %s', (days, today, text) => {
    expect(nextDayText(days, today)).toBe(text);
  });

  it('lists the signs to take by their next day and the medicines by their frequency', () => {
    // Saturday 5 December 2026 in Bogotá.
    const patient = {
      time_zone: ZONE,
      vitals_prescription: [
        { id: 1, order_id: 1, clinical_element: 6, clinical_element_name: 'Glucosa', days: [6], progress: 0 },
        { id: 2, order_id: 2, clinical_element: 5, clinical_element_name: 'Peso', days: [1], progress: 0 },
      ],
      medications_prescription: [{ id: 3, order_id: 3, medication: 'Losartán 50 mg', frecuency: 'Cada 12 horas', progress: 0 }],
    };
    expect(nextActivities(patient, new Date('2026-12-05T15:00:00Z'))).toEqual([
      { key: 'vital-1', what: 'Tomar Glucosa', when: 'Hoy' },
      { key: 'vital-2', what: 'Tomar Peso', when: 'El lunes' },
      { key: 'medicine-3', what: 'Losartán 50 mg', when: 'Cada 12 horas' },
    ]);
  });
});
