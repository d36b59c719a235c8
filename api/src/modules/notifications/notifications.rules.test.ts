import { describe, it, expect } from 'vitest';
import {
  caregiverMessage,
  caregiverTemplate,
  caregiverTold,
  digestMessage,
  digestSlot,
  escalationDueAt,
  escalationEntryText,
  failureText,
  initialsOf,
  maskDigits,
  maskRecipient,
  rankAlerts,
  staffChannels,
  staffMessage,
  type AlertFacts,
  type StaffPreferences,
} from './notifications.rules';

const user = (over: Partial<StaffPreferences> = {}): StaffPreferences => ({
  status: 0,
  email: 'ana@clinica.co',
  prefix: '+57',
  cellphone: '3001112233',
  media_email: true,
  media_whatsapp: true,
  priority_high: true,
  priority_medium: false,
  priority_low: false,
  ...over,
});

const alert = (over: Partial<AlertFacts> = {}): AlertFacts => ({
  id: 7,
  patient_id: 3,
  patient_name: 'MARÍA PÉREZ',
  patient_initials: 'M. P.',
  patient_document: '52894050',
  alert_type: 0,
  priority: 1,
  clinical_element: 3,
  value: 190,
  alarm_name: 'Hipertensión',
  minimum_condition: 90,
  maximum_condition: 140,
  description: null,
  created_at: new Date('2026-03-02T15:00:00Z'),
  time_zone: 'America/Bogota',
  ...over,
});

describe('who is told (03 §3 flags, issue 20)', () => {
  it.each([
    ['both channels, high priority', user(), 1, ['email', 'whatsapp']],
    ['priority not chosen', user(), 2, []],
    ['medium chosen', user({ priority_medium: 1 }), 2, ['email', 'whatsapp']],
    ['low chosen (SQLite 1/0 flags)', user({ priority_low: 1, media_whatsapp: 0 }), 3, ['email']],
    ['inactive user (status 1) gets nothing', user({ status: 1 }), 1, []],
    ['WhatsApp without a phone', user({ media_email: false, cellphone: null }), 1, []],
    ['WhatsApp with a 6-digit phone', user({ media_email: false, cellphone: '300111' }), 1, []],
  ] as const)('%s', (_label, u, priority, channels) => {
    expect(staffChannels(u, priority)).toEqual(channels);
  });

  it.each([
    [{ notification: true, prefix: '+57', cellphone: '3157654321' }, 1, true],
    [{ notification: true, prefix: '+57', cellphone: '3157654321' }, 2, false],
    [{ notification: false, prefix: '+57', cellphone: '3157654321' }, 1, false],
    [{ notification: 1, prefix: '+57', cellphone: null }, 1, false],
  ])('caregiver %j, priority %i → %s (high priority only, 01 §3 notification)', (c, priority, told) => {
    expect(caregiverTold(c, priority)).toBe(told);
  });
});

describe('escalation (issue 20: default 30 minutes, the client may change it)', () => {
  it.each([
    [30, 'Alerta escalada: sin gestión en 30 minutos.', '2026-03-02T15:30:00.000Z'],
    [45, 'Alerta escalada: sin gestión en 45 minutos.', '2026-03-02T15:45:00.000Z'],
  ])('%i minutes', (minutes, text, due) => {
    expect(escalationEntryText(minutes)).toBe(text);
    expect(escalationDueAt(new Date('2026-03-02T15:00:00Z'), minutes).toISOString()).toBe(due);
  });
});

describe('digest window and masks', () => {
  it('puts instants of one minute in one slot that ends on the next minute', () => {
    const a = digestSlot(new Date('2026-03-02T15:00:05Z'));
    const b = digestSlot(new Date('2026-03-02T15:00:59Z'));
    expect(a.slot).toBe(b.slot);
    expect(a.endsAt.toISOString()).toBe('2026-03-02T15:01:00.000Z');
    expect(digestSlot(new Date('2026-03-02T15:01:00Z')).slot).toBe(a.slot + 1);
  });

  it.each([
    ['email', 'ana.maria@clinica.co', 'a***@c***.co'],
    ['email', 'x@localhost', 'x***@l***'],
    ['whatsapp', '573001112233', '********2233'],
    ['sms', '+57 300 111 2233', '********2233'],
  ] as const)('%s %s → %s', (channel, value, masked) => {
    expect(maskRecipient(channel, value)).toBe(masked);
  });

  it('hides the digits of a one-time code', () => {
    expect(maskDigits('Su código de Vigía es 4821')).toBe('Su código de Vigía es ••••');
    expect(maskDigits('Vigía: su código de acceso es 04821977. Vence en 5 minutos. No lo comparta con nadie.')).toBe(
      'Vigía: su código de acceso es ••••••••. Vence en 5 minutos. No lo comparta con nadie.',
    );
  });
});

describe('messages (Spanish, patient time zone)', () => {
  it('leads with Vigía and the priority; by default the initials and the document ending, the value, never the rule', () => {
    expect(staffMessage(alert(), 'alert', { baseUrl: 'https://vigia.co/' })).toEqual({
      subject: 'Alerta de prioridad Alta: M. P. · doc. …4050',
      text: [
        'Vigía · Alerta Alta',
        'Paciente: M. P. · doc. …4050',
        'Presión sistólica: 190 mmHg, fuera del rango 90 - 140',
        'Fecha: 02/03/2026 10:00 (hora del paciente)',
        'Ver la alerta: https://vigia.co/patients/3/alerts/7',
      ].join('\n'),
      template: {
        kind: 'alert',
        params: [
          'Alta',
          'M. P. · doc. …4050',
          'Presión sistólica: 190 mmHg, fuera del rango 90 - 140',
          '02/03/2026 10:00',
          'https://vigia.co/patients/3/alerts/7',
        ],
      },
    });
  });

  it.each([
    [
      'escalation',
      staffMessage(alert(), 'escalation', { baseUrl: null, minutes: 45 }).template,
      {
        kind: 'escalation',
        params: ['Alta', 'M. P. · doc. …4050', '45', 'Presión sistólica: 190 mmHg, fuera del rango 90 - 140', '/patients/3/alerts/7'],
      },
    ],
    [
      'digest',
      digestMessage([alert(), alert({ id: 8, priority: 2 })], 'alert', { baseUrl: 'https://vigia.co' }).template,
      { kind: 'digest', params: ['Alta', '2', 'https://vigia.co/alerts_management?id=7&id=8'] },
    ],
    [
      'escalation digest',
      digestMessage([alert(), alert({ id: 8 })], 'escalation', { baseUrl: null }).template,
      { kind: 'digest', params: ['Alta', '2', '/alerts_management?id=8&id=7'] },
    ],
    [
      'caregiver',
      caregiverTemplate([alert()], 'Clínica Norte'),
      { kind: 'caregiver', params: ['M. P. · doc. …4050', 'una alerta de prioridad alta (Presión sistólica: 190 mmHg)', 'Clínica Norte'] },
    ],
  ])('the %s template: its kind and parameters in the documented order', (_label, template, expected) => {
    expect(template).toEqual(expected);
  });

  it.each([
    [{ fullName: false, ruleName: false }, 'M. P. · doc. …4050', 'una alerta de prioridad alta (Presión sistólica: 190 mmHg)'],
    [{ fullName: true, ruleName: false }, 'MARÍA PÉREZ', 'una alerta de prioridad alta (Presión sistólica: 190 mmHg)'],
    [
      { fullName: false, ruleName: true },
      'M. P. · doc. …4050',
      "una alerta de prioridad alta (Presión sistólica: 190 mmHg; regla 'Hipertensión')",
    ],
  ])("the caregiver's message follows the organisation's setting as the staff's do (%o, issue 41)", (privacy, patient, what) => {
    expect(caregiverTemplate([alert()], 'Clínica Norte', privacy).params).toEqual([patient, what, 'Clínica Norte']);
    expect(caregiverMessage([alert()], 'Clínica Norte', privacy)).toContain(`Vigía: ${patient} tiene ${what}.`);
  });

  it.each([
    [{ fullName: false, ruleName: false }, 'M. P. · doc. …4050', 'Presión sistólica: 190 mmHg, fuera del rango 90 - 140'],
    [{ fullName: true, ruleName: false }, 'MARÍA PÉREZ', 'Presión sistólica: 190 mmHg, fuera del rango 90 - 140'],
    [
      { fullName: false, ruleName: true },
      'M. P. · doc. …4050',
      "Presión sistólica: 190 mmHg, fuera del rango 90 - 140 (regla 'Hipertensión')",
    ],
    [{ fullName: true, ruleName: true }, 'MARÍA PÉREZ', "Presión sistólica: 190 mmHg, fuera del rango 90 - 140 (regla 'Hipertensión')"],
  ])('shows what the organisation chose: %o', (privacy, patient, finding) => {
    const { subject, text } = staffMessage(alert(), 'alert', { baseUrl: null, privacy });
    expect(subject).toBe(`Alerta de prioridad Alta: ${patient}`);
    expect(text.split('\n').slice(0, 3)).toEqual(['Vigía · Alerta Alta', `Paciente: ${patient}`, finding]);
  });

  it.each([
    ['maría josé', 'pérez gómez', 'M. P.'],
    ['  ángela ', 'ñáñez', 'Á. Ñ.'],
    ['LUIS', '', 'L.'],
  ])('initials of %s %s', (first, last, initials) => {
    expect(initialsOf(first, last)).toBe(initials);
  });

  it("marks an escalation with 'Escalada' and the client's delay", () => {
    const m = staffMessage(alert(), 'escalation', { baseUrl: null, minutes: 45 });
    expect(m.subject).toBe('Escalada: Alerta de prioridad Alta: M. P. · doc. …4050');
    expect(m.text.split('\n').slice(0, 2)).toEqual(['Vigía · Alerta Alta', 'Escalada. Alerta escalada: sin gestión en 45 minutos.']);
    expect(m.text).toContain('Ver la alerta: /patients/3/alerts/7');
  });

  it('tells a compliance or AI alert by its text, decimals with a comma', () => {
    expect(staffMessage(alert({ alert_type: 1, description: 'Toma no reportada' }), 'alert', { baseUrl: null }).text).toContain(
      '\nToma no reportada\n',
    );
    expect(
      staffMessage(alert({ clinical_element: 7, value: 39.5, alarm_name: null, minimum_condition: null }), 'alert', { baseUrl: null }).text,
    ).toContain('\nTemperatura: 39,5 °C\n');
  });

  it('ranks worst first: priority, then the newest', () => {
    const at = (m: number) => new Date(Date.UTC(2026, 2, 2, 15, m));
    const ranked = rankAlerts([
      { id: 1, priority: 2, created_at: at(1) },
      { id: 2, priority: 1, created_at: at(0) },
      { id: 3, priority: 2, created_at: at(5) },
    ]);
    expect(ranked.map((a) => a.id)).toEqual([2, 3, 1]);
  });

  it('gathers a burst: the count, at most 10 listed worst first, and the rest counted', () => {
    const alerts = Array.from({ length: 12 }, (_, i) =>
      alert({ id: i + 1, priority: i === 4 ? 1 : 3, alert_type: 1, description: `Toma ${i + 1}` }),
    );
    const { subject, text } = digestMessage(alerts, 'alert', { baseUrl: null });
    const lines = text.split('\n');
    expect(subject).toBe('Vigía: 12 alertas nuevas');
    expect(lines[0]).toBe('Vigía · Alerta Alta');
    expect(lines[1]).toBe('12 alertas nuevas, las más graves primero:');
    expect(lines[2]).toBe('- [Alta] M. P. · doc. …4050: Toma 5 · 02/03/2026 10:00 (hora del paciente) · /patients/3/alerts/5');
    expect(lines).toHaveLength(14);
    expect(lines[12]).toBe('... y 2 alertas más.');
    // The link names all 12, the two not listed included, worst first (issue 41).
    const ids = [5, 12, 11, 10, 9, 8, 7, 6, 4, 3, 2, 1];
    expect(lines[13]).toBe(`Ver las 12 alertas en el gestor de alertas: /alerts_management?${ids.map((id) => `id=${id}`).join('&')}`);
  });

  it("links the 200 worst of a digest beyond the manager filter's 200 ids, and says so", () => {
    const alerts = Array.from({ length: 230 }, (_, i) => alert({ id: i + 1, priority: i < 3 ? 1 : 2, alert_type: 1, description: 'Toma' }));
    const { text, template } = digestMessage(alerts, 'alert', { baseUrl: 'https://vigia.co/' });
    const last = text.split('\n').at(-1)!;
    expect(
      last.startsWith('Ver las 200 más graves en el gestor de alertas: https://vigia.co/alerts_management?id=3&id=2&id=1&id=230&'),
    ).toBe(true);
    const linked = new URL(template.params[2]).searchParams.getAll('id').map(Number);
    expect([linked.length, new Set(linked).size, linked.includes(34), linked.includes(33)]).toEqual([200, 200, true, false]);
  });

  it('gives the caregiver who, the value, that the team knows and how to reach it, nothing more', () => {
    expect(caregiverMessage([alert()], 'Clínica Norte')).toBe(
      'Vigía: M. P. · doc. …4050 tiene una alerta de prioridad alta (Presión sistólica: 190 mmHg). El equipo de atención de Clínica Norte ya fue avisado. ' +
        'Para comunicarse con el equipo, responda a este mensaje.',
    );
    expect(caregiverMessage([alert(), alert({ id: 8 })], 'X')).toContain('tiene 2 alertas de prioridad alta');
  });

  it.each([
    ['refused', 400, true, 'El proveedor rechazó el mensaje (400).'],
    ['unavailable', 500, false, 'El proveedor no está disponible (500); se reintentará.'],
    ['internal', null, true, 'Error interno al enviar.'],
    ['unknown', null, false, 'Resultado desconocido: el proveedor no respondió a tiempo; se reintentará con la misma clave.'],
    ['unknown', null, true, 'Resultado desconocido: el proveedor no respondió a tiempo.'],
  ] as const)('failure %s %s final=%s', (kind, code, final, text) => {
    expect(failureText(kind, code, final)).toBe(text);
  });
});
