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
          { id: 'y', status: 'failed', errors: [{ title: 'Número no válido' }] },
          { id: 'z', status: 'weird' },
        ],
      }),
    );
    expect(
      events.map((e) => (e.type === 'message' ? [e.providerId, e.kind, e.text, e.mediaId] : [e.providerId, e.status, e.error])),
    ).toEqual([
      ['a', 'text', 'hola', null],
      ['b', 'image', 'foto', 'm1'],
      ['c', 'audio', null, 'm2'],
      ['d', 'other', null, null],
      ['x', 'delivered', null],
      ['y', 'failed', 'Número no válido'],
    ]);
    expect(events[0]).toMatchObject({ profileName: 'María', at: new Date(1700000000 * 1000) });
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
