import { describe, it, expect } from 'vitest';
import {
  waId,
  phoneCandidates,
  matchPatient,
  parseInbound,
  nextStatus,
  attachmentKind,
  attachmentFileName,
  welcomeText,
  sendFailureText,
  acceptedNoteText,
  deliveryFailureText,
} from './messages.rules';

describe('phones', () => {
  it.each([
    ['+57', '3001234567', '573001234567'],
    ['57', '300 123 4567', '573001234567'],
    [null, '3001234567', '3001234567'],
    ['+57', '12345', null],
    ['+57', null, null],
  ])('waId(%s, %s) = %s', (prefix, cell, expected) => expect(waId(prefix, cell)).toBe(expected));

  it('lists the 7 to 11 trailing digits', () => {
    expect(phoneCandidates('573001234567')).toEqual(['1234567', '01234567', '001234567', '3001234567', '73001234567']);
  });

  it.each([
    ['exact prefix and number', '573001234567', 1],
    ['number without prefix', '3001234567', 1],
    ['other country prefix', '13001234567', null],
  ])('%s', (_n, from, expected) => {
    const candidates = [
      { id: 2, prefix: '+1', cellphone: '3001234568' },
      { id: 1, prefix: '+57', cellphone: '3001234567' },
      { id: 3, prefix: '+57', cellphone: '3001234567' },
    ];
    expect(matchPatient(from, candidates)?.id ?? null).toBe(expected);
  });
});

describe('parseInbound', () => {
  const wrap = (value: object) => ({ entry: [{ changes: [{ value }] }] });
  it('reads text, image and audio messages and statuses', () => {
    const events = parseInbound(
      wrap({
        contacts: [{ wa_id: '573001234567', profile: { name: 'María' } }],
        messages: [
          { from: '573001234567', id: 'a', timestamp: '1700000000', type: 'text', text: { body: 'hola' } },
          { from: '573001234567', id: 'b', type: 'image', image: { id: 'm1', mime_type: 'image/jpeg', caption: 'foto' } },
          { from: '573001234567', id: 'c', type: 'audio', audio: { id: 'm2', mime_type: 'audio/ogg' } },
          { from: '573001234567', id: 'd', type: 'sticker', sticker: {} },
        ],
        statuses: [
          { id: 'x', status: 'delivered' },
          { id: 'y', status: 'failed', errors: [{ code: 131026, title: 'Message undeliverable' }] },
          { id: 'w', status: 'failed', errors: [{ code: 'x; DROP', title: 'Weird' }] },
          { id: 'z', status: 'weird' },
        ],
      }),
    );
    expect(
      events.map((e) => (e.type === 'message' ? [e.providerId, e.kind, e.text, e.mediaId] : [e.providerId, e.status, e.errorCode])),
    ).toEqual([
      ['a', 'text', 'hola', null],
      ['b', 'image', 'foto', 'm1'],
      ['c', 'audio', null, 'm2'],
      ['d', 'other', null, null],
      ['x', 'delivered', null],
      ['y', 'failed', '131026'],
      ['w', 'failed', null],
    ]);
    expect(events[0]).toMatchObject({ profileName: 'María' });
  });
  it.each([[null], [{}], [{ entry: 'x' }], [wrap({ messages: [{ id: 'a', from: 'no-es-numero', type: 'text' }] })]])(
    'ignores %j',
    (body) => {
      expect(parseInbound(body)).toEqual([]);
    },
  );
});

describe('status and attachments', () => {
  it.each([
    ['queued', 'sent', 'sent'],
    ['sent', 'delivered', 'delivered'],
    ['read', 'delivered', 'read'],
    ['failed', 'read', 'failed'],
    ['sent', 'failed', 'failed'],
  ])('%s + %s = %s', (a, b, c) => expect(nextStatus(a, b)).toBe(c));
  it.each([
    ['image/png', 'image'],
    ['audio/ogg; codecs=opus', 'audio'],
    ['application/pdf', null],
    [null, null],
  ])('kind of %s', (mime, kind) => expect(attachmentKind(mime)).toBe(kind));
  it("names stored files by message id, never by the sender's name", () => {
    expect(attachmentFileName(7, 'audio/ogg; codecs=opus')).toBe('7.ogg');
    expect(attachmentFileName(8, 'application/x-evil')).toBe('8.bin');
  });
  it('greets by first name', () =>
    expect(welcomeText('MARÍA JOSÉ', 'Clínica Norte')).toMatch(/^Hola María, Clínica Norte le da la bienvenida/));
});

describe('failure texts (P148)', () => {
  it.each([
    ['unavailable', 503, true, 'El proveedor de mensajería no está disponible (código 503); se reintentará.'],
    ['refused', 400, false, 'El proveedor de mensajería rechazó el mensaje (código 400).'],
    ['rate_limited', 429, true, 'El proveedor de mensajería limitó los envíos por exceso de mensajes (código 429); se reintentará.'],
    ['unreachable', null, true, 'No se pudo conectar con el proveedor de mensajería; se reintentará.'],
    ['internal', null, false, 'No se pudo enviar el mensaje por un error interno.'],
  ] as const)('%s %s retrying=%s', (failure, status, retrying, text) => expect(sendFailureText(failure, status, retrying)).toBe(text));
  it('says a sent message keeps no provider id, and why', () => {
    expect(acceptedNoteText('id_conflict', 'wamid.1')).toBe(
      'Enviado: el proveedor indicó el identificador wamid.1, que ya tenía otro mensaje; los avisos de entrega y lectura de este mensaje no se podrán seguir.',
    );
    expect(acceptedNoteText('no_id', null)).toMatch(/^Enviado: el proveedor no indicó su identificador;/);
  });
  it('reports a failed delivery in Spanish, with the code only', () => {
    expect(deliveryFailureText('131026')).toBe('El proveedor de mensajería no pudo entregar el mensaje (código 131026).');
    expect(deliveryFailureText(null)).toBe('El proveedor de mensajería no pudo entregar el mensaje.');
  });
});
