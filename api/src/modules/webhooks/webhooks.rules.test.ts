import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { attemptError, MAX_CONSECUTIVE_FAILURES, shouldSwitchOff, webhookSecret } from './webhooks.rules';

const T0 = new Date('2026-11-21T10:00:00Z');
const later = (ms: number) => new Date(T0.getTime() + ms);

describe('webhook rules', () => {
  it.each([
    [1, T0, later(60_000), false],
    [3, T0, later(24 * 3600_000 - 1), false],
    [3, T0, later(24 * 3600_000), true],
    [MAX_CONSECUTIVE_FAILURES - 1, T0, later(60_000), false],
    [MAX_CONSECUTIVE_FAILURES, T0, later(60_000), true],
    [0, null, later(0), false],
  ])('%i failures since %s, now %s → off: %s', (failures, since, now, off) => {
    expect(shouldSwitchOff(failures, since, now)).toBe(off);
  });

  it('derives a Standard Webhooks secret from the phrase that verifies what it signs', () => {
    const wh = new Webhook(webhookSecret('  frase-secreta  '));
    const now = new Date();
    const body = '{"resourceType":"Observation"}';
    const headers = {
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': wh.sign('msg_1', now, body),
    };
    expect(new Webhook(webhookSecret('frase-secreta')).verify(body, headers)).toEqual({ resourceType: 'Observation' });
    expect(() => new Webhook(webhookSecret('otra-frase')).verify(body, headers)).toThrow();
  });

  it.each([
    [500, null, 'HTTP 500'],
    [null, Object.assign(new Error('x'), { name: 'TimeoutError' }), 'tiempo de espera agotado'],
    [null, new TypeError('fetch failed', { cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }) }), 'conexión rechazada'],
    [null, new TypeError('fetch failed', { cause: new Error('bad port') }), 'puerto no permitido'],
    [null, new Error('algo raro'), 'error de conexión'],
  ])('describes an attempt (%s) in Spanish', (status, err, expected) => {
    expect(attemptError(status, err)).toBe(expected);
  });
});
