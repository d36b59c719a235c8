import { describe, expect, it } from 'vitest';
import { planClientSettings, validateServiceUrl, type CurrentSettings } from './clients.rules';

const EMPTY: CurrentSettings = {
  webhook_url: null,
  security_phrase_set: false,
  residents_enabled: false,
  residents_url: null,
  residents_user: null,
  residents_password_set: false,
};
const REGISTERED: CurrentSettings = { ...EMPTY, webhook_url: 'https://receptor.example/fhir', security_phrase_set: true };
const URL_MSG = '¡El formato de la URL no es válido!';

describe('validateServiceUrl (03 §5 URL)', () => {
  it.each([
    ['https://receptor.example/fhir', false, null],
    ['http://receptor.example/fhir', false, URL_MSG],
    ['http://127.0.0.1:8080/fhir', true, null],
    ['https://127.0.0.1/fhir', false, URL_MSG],
    ['https://10.0.0.5/fhir', false, URL_MSG],
    ['https://localhost/fhir', false, URL_MSG],
    ['ftp://receptor.example', true, URL_MSG],
    ['', false, '¡El campo es requerido!'],
  ])('%s (http allowed: %s) → %s', (url, allowHttp, expected) => {
    expect(validateServiceUrl(url, { allowHttp })).toBe(expected);
  });
});

describe('planClientSettings', () => {
  const prod = { allowHttp: false };
  it.each([
    ['registering needs the phrase', EMPTY, { webhook_url: 'https://r.example/h' }, 'security_phrase', '¡El campo es requerido!'],
    [
      'the phrase has at least 6 characters',
      EMPTY,
      { webhook_url: 'https://r.example/h', security_phrase: '12345' },
      'security_phrase',
      'Debe tener mínimo 6 caracteres',
    ],
    ['subscriptions need a registered webhook', EMPTY, { webhook_measurements: true }, 'webhook_url', '¡El campo es requerido!'],
    [
      'https only unless WEBHOOKS_ALLOW_HTTP',
      EMPTY,
      { webhook_url: 'http://r.example/h', security_phrase: 'frase123' },
      'webhook_url',
      URL_MSG,
    ],
    [
      'the integration needs a URL',
      EMPTY,
      { residents_enabled: true, residents_user: 'api', residents_password: 'x' },
      'residents_url',
      '¡El campo es requerido!',
    ],
    [
      'the integration needs a user',
      EMPTY,
      { residents_enabled: true, residents_url: 'https://resi.example', residents_password: 'x' },
      'residents_user',
      '¡El campo es requerido!',
    ],
    [
      'the integration needs a password',
      EMPTY,
      { residents_enabled: true, residents_url: 'https://resi.example', residents_user: 'api' },
      'residents_password',
      '¡El campo es requerido!',
    ],
  ])('%s', (_label, current, input, field, message) => {
    expect(planClientSettings(current, input, prod)).toEqual({ ok: false, field, message });
  });

  it('editing the URL or the phrase clears validate; subscriptions alone do not', () => {
    expect(planClientSettings(REGISTERED, { webhook_url: 'https://otro.example/h' }, prod)).toMatchObject({
      ok: true,
      patch: { webhook_url: 'https://otro.example/h', webhook_validated: false },
    });
    expect(planClientSettings(REGISTERED, { security_phrase: 'nueva-frase' }, prod)).toMatchObject({
      ok: true,
      patch: { security_phrase: 'nueva-frase', webhook_validated: false },
    });
    const subs = planClientSettings(REGISTERED, { webhook_alerts: true }, prod);
    expect(subs).toEqual({ ok: true, patch: { webhook_alerts: true } });
  });

  it.each([
    [{ message_full_name: true }, { message_full_name: true }],
    [
      { message_rule_name: true, message_full_name: false },
      { message_rule_name: true, message_full_name: false },
    ],
    [
      { escalation_minutes: 45, message_rule_name: false },
      { escalation_minutes: 45, message_rule_name: false },
    ],
  ])('what the messages show is saved as sent (issue 41): %o', (input, patch) => {
    expect(planClientSettings(REGISTERED, input, prod)).toEqual({ ok: true, patch });
  });

  it('keeps the stored phrase when the edit sends it blank, and the same URL is no change', () => {
    expect(planClientSettings(REGISTERED, { webhook_url: 'https://receptor.example/fhir', security_phrase: '' }, prod)).toEqual({
      ok: true,
      patch: {},
    });
  });

  it('null unregisters the webhook and forgets the phrase', () => {
    expect(planClientSettings(REGISTERED, { webhook_url: null }, prod)).toEqual({
      ok: true,
      patch: { webhook_url: null, security_phrase: null, webhook_validated: false, webhook_measurements: false, webhook_alerts: false },
    });
  });

  it('keeps the stored integration password when none is sent', () => {
    const current = { ...EMPTY, residents_url: 'https://resi.example', residents_user: 'api', residents_password_set: true };
    expect(planClientSettings(current, { residents_enabled: true }, prod)).toEqual({ ok: true, patch: { residents_enabled: true } });
  });
});
