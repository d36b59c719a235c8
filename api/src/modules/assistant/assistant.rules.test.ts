import { describe, it, expect } from 'vitest';
import { composeInstructions, readToolCall, actionKey, alarmScriptText, type InstructionSources } from './assistant.rules';

const base: InstructionSources = {
  clientName: 'Clínica Norte',
  client: null,
  tags: [],
  patient: null,
  patientName: 'MARÍA PÉREZ',
  timeZone: 'America/Bogota',
  now: new Date('2026-03-02T15:00:00Z'),
  readings: [],
  orders: [],
};

describe('composeInstructions', () => {
  it.each([
    [
      'no instructions at all',
      {},
      ['Clínica Norte', 'MARÍA PÉREZ', 'Mediciones recientes: ninguna.', 'Órdenes abiertas: ninguna.'],
      ['Instrucciones de', 'etiqueta'],
    ],
    ['client only', { client: 'Use usted.' }, ['Instrucciones de Clínica Norte:\nUse usted.'], ['etiqueta', 'este paciente']],
    [
      'client, tags and patient',
      {
        client: 'C1',
        tags: [
          { name: 'EPOC', text: 'T1' },
          { name: 'HTA', text: 'T2' },
        ],
        patient: 'P1',
      },
      ['etiqueta EPOC:\nT1', 'etiqueta HTA:\nT2', 'prevalecen sobre las anteriores):\nP1'],
      [],
    ],
    [
      'blank texts are left out',
      { client: '   ', tags: [{ name: 'X', text: ' ' }], patient: '' },
      [],
      ['Instrucciones de', 'etiqueta X', 'este paciente'],
    ],
    [
      'readings in the patient zone',
      { readings: [{ clinical_element: 3, value: 150, when: new Date('2026-03-02T13:05:00Z') }] },
      ['02/03/2026, 08:05: Presión sistólica 150 mmHg'],
      [],
    ],
    [
      'open orders',
      { orders: ['Losartán 50 mg cada 12 horas'] },
      ['Órdenes abiertas:\n- Losartán 50 mg cada 12 horas'],
      ['Órdenes abiertas: ninguna.'],
    ],
  ] as const)('%s', (_name, over, contains, absent) => {
    const text = composeInstructions({ ...base, ...(over as Partial<InstructionSources>) });
    for (const c of contains) expect(text).toContain(c);
    for (const a of absent) expect(text).not.toContain(a);
  });

  it('puts the most general level first and the patient last', () => {
    const text = composeInstructions({
      ...base,
      client: 'NIVEL-CLIENTE',
      tags: [{ name: 'A', text: 'NIVEL-ETIQUETA' }],
      patient: 'NIVEL-PACIENTE',
    });
    const pos = ['NIVEL-CLIENTE', 'NIVEL-ETIQUETA', 'NIVEL-PACIENTE'].map((s) => text.indexOf(s));
    expect(pos).toEqual([...pos].sort((a, b) => a - b));
  });
});

describe('readToolCall', () => {
  it.each([
    [
      'registrar_medicion',
      { clinical_element: 6, value: 110 },
      { tool: 'registrar_medicion', readings: [{ clinical_element: 6, value: 110 }] },
    ],
    [
      'registrar_medicion',
      { clinical_element: 3, value: 150, diastolic: 95 },
      {
        tool: 'registrar_medicion',
        readings: [
          { clinical_element: 3, value: 150 },
          { clinical_element: 4, value: 95 },
        ],
      },
    ],
    ['registrar_medicion', { clinical_element: 3, value: 150 }, { tool: 'invalid', error: 'falta la presión diastólica' }],
    [
      'registrar_medicion',
      { clinical_element: 7, value: 98 },
      { tool: 'invalid', error: 'valor fuera de lo plausible para el elemento 7' },
    ],
    ['registrar_medicion', { clinical_element: 9, value: 1 }, { tool: 'invalid', error: 'elemento clínico no válido' }],
    [
      'crear_alerta',
      { description: ' Dolor torácico ', priority: 1 },
      { tool: 'crear_alerta', description: 'Dolor torácico', priority: 1 },
    ],
    ['crear_alerta', { description: 'Mareo', priority: 7 }, { tool: 'crear_alerta', description: 'Mareo', priority: 2 }],
    ['crear_alerta', {}, { tool: 'invalid', error: 'falta la descripción' }],
    ['guardar_resumen', { summary: 'Estable.' }, { tool: 'guardar_resumen', summary: 'Estable.' }],
    ['borrar_todo', {}, { tool: 'invalid', error: 'herramienta desconocida: borrar_todo' }],
  ])('%s %j', (name, args, expected) => {
    expect(readToolCall(name, JSON.stringify(args))).toEqual(expected);
  });

  it('refuses arguments that are not JSON', () => {
    expect(readToolCall('guardar_resumen', '{no')).toEqual({ tool: 'invalid', error: 'argumentos no son JSON' });
  });

  it('keys an action by its arguments whatever their order', () => {
    expect(actionKey('crear_alerta', '{"a":1,"b":2}')).toBe(actionKey('crear_alerta', '{"b":2,"a":1}'));
    expect(actionKey('crear_alerta', '{"a":1}')).not.toBe(actionKey('crear_alerta', '{"a":2}'));
  });
});

describe('alarmScriptText', () => {
  it.each([
    [
      { script: null, patientName: 'MARÍA JOSÉ', alarmName: 'Alta', clinicalElement: 6, value: 250 },
      'Hola María, registramos una medición de glucosa de 250 mg/dL',
    ],
    [
      { script: 'repetir_medicion', patientName: 'juan', alarmName: 'Alta', clinicalElement: 3, value: 182 },
      'Hola Juan, su última medición de presión sistólica (182 mmHg)',
    ],
    [
      { script: 'desconocido', patientName: 'ana', alarmName: 'Fiebre', clinicalElement: null, value: null },
      'medición de fiebre de reciente',
    ],
  ])('%j', (input, expected) => {
    expect(alarmScriptText(input)).toContain(expected);
  });
});
