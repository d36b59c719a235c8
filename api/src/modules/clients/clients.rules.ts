import { MESSAGES, validateCode, validateUrl } from '@vigia/contract/rules/validation';
import type { components } from '@vigia/contract/openapi';

/** What PUT /clients/{id} may change (03 §2 webhook and integrations pages). */
type ClientSettingsInput = components['schemas']['ClientSettingsInput'];

/** The stored settings the rules compare against (secrets only as "is set"). */
export interface CurrentSettings {
  webhook_url: string | null;
  security_phrase_set: boolean;
  residents_enabled: boolean;
  residents_url: string | null;
  residents_user: string | null;
  residents_password_set: boolean;
}

interface SettingsPatch {
  webhook_url?: string | null;
  security_phrase?: string | null;
  webhook_validated?: boolean;
  webhook_measurements?: boolean;
  webhook_alerts?: boolean;
  residents_enabled?: boolean;
  residents_url?: string | null;
  residents_user?: string | null;
  residents_password?: string | null;
  escalation_minutes?: number;
  message_full_name?: boolean;
  message_rule_name?: boolean;
  second_factor_roles?: string;
}

export type SettingsResult = { ok: true; patch: SettingsPatch } | { ok: false; field: string; message: string };

const PRIVATE_HOST =
  /^(localhost|127\.|10\.|192\.168\.|169\.254\.|172\.(1[6-9]|2\d|3[01])\.|0\.|\[?::1\]?$|\[?f[cd][0-9a-f]{2}:|\[?fe80:)/i;

/**
 * 03 §5 URL rule: https:// only, and not a literal private or loopback host, so the server cannot
 * be pointed at its own network. `allowHttp` (the explicit WEBHOOKS_ALLOW_HTTP=1, never implied by
 * NODE_ENV) lifts both for a local receiver while developing.
 */
export function validateServiceUrl(value: string | null | undefined, opts: { allowHttp: boolean }): string | null {
  if (value == null || value.trim() === '') return MESSAGES.required;
  const v = value.trim();
  if (opts.allowHttp && v.startsWith('http://')) {
    try {
      new URL(v);
      return null;
    } catch {
      return MESSAGES.url;
    }
  }
  const msg = validateUrl(v);
  if (msg) return msg;
  if (!opts.allowHttp && PRIVATE_HOST.test(new URL(v).hostname)) return MESSAGES.url;
  return null;
}

const blank = (v: string | null | undefined) => v == null || v.trim() === '';

/**
 * Webhook: registering needs a URL and a security phrase (03 §5 'Code': at least 6 characters);
 * editing either clears `validate` (D19); `webhook_url: null` unregisters and forgets the phrase.
 * Integration: switching it on needs a URL, a user and a password (kept when not sent, D20).
 */
export function planClientSettings(current: CurrentSettings, input: ClientSettingsInput, opts: { allowHttp: boolean }): SettingsResult {
  const patch: SettingsPatch = {};
  const fail = (field: string, message: string): SettingsResult => ({ ok: false, field, message });

  if (input.webhook_url === null) {
    Object.assign(patch, {
      webhook_url: null,
      security_phrase: null,
      webhook_validated: false,
      webhook_measurements: false,
      webhook_alerts: false,
    });
  } else {
    const urlChanged = input.webhook_url !== undefined && input.webhook_url.trim() !== current.webhook_url;
    const phraseSent = input.security_phrase !== undefined && !(blank(input.security_phrase) && current.security_phrase_set);
    if (input.webhook_url !== undefined) {
      const msg = validateServiceUrl(input.webhook_url, opts);
      if (msg) return fail('webhook_url', msg);
    }
    if (phraseSent || (urlChanged && !current.security_phrase_set)) {
      const msg = validateCode(input.security_phrase?.trim());
      if (msg) return fail('security_phrase', msg);
    }
    const registered = current.webhook_url != null || input.webhook_url !== undefined;
    if (!registered && (input.webhook_measurements || input.webhook_alerts || phraseSent)) return fail('webhook_url', MESSAGES.required);
    if (urlChanged) patch.webhook_url = input.webhook_url!.trim();
    if (phraseSent) patch.security_phrase = input.security_phrase!.trim();
    if (urlChanged || phraseSent) patch.webhook_validated = false;
    if (input.webhook_measurements !== undefined) patch.webhook_measurements = input.webhook_measurements;
    if (input.webhook_alerts !== undefined) patch.webhook_alerts = input.webhook_alerts;
  }

  const enabled = input.residents_enabled ?? current.residents_enabled;
  if (input.residents_url !== undefined) patch.residents_url = blank(input.residents_url) ? null : input.residents_url!.trim();
  if (input.residents_user !== undefined) patch.residents_user = blank(input.residents_user) ? null : input.residents_user!.trim();
  if (input.residents_password !== undefined && !blank(input.residents_password)) patch.residents_password = input.residents_password;
  if (input.residents_enabled !== undefined) patch.residents_enabled = input.residents_enabled;
  if (patch.residents_url) {
    const msg = validateServiceUrl(patch.residents_url, opts);
    if (msg) return fail('residents_url', msg);
  }
  if (enabled) {
    const url = patch.residents_url !== undefined ? patch.residents_url : current.residents_url;
    const urlMsg = validateServiceUrl(url, opts);
    if (urlMsg) return fail('residents_url', urlMsg);
    const user = patch.residents_user !== undefined ? patch.residents_user : current.residents_user;
    if (blank(user)) return fail('residents_user', MESSAGES.required);
    if (!patch.residents_password && !current.residents_password_set) return fail('residents_password', MESSAGES.required);
  }
  // Issue 20: the escalation delay of high-priority alerts (the contract bounds it, 5 to 1440).
  if (input.escalation_minutes !== undefined) patch.escalation_minutes = input.escalation_minutes;
  // Issue 41: what the care team's messages show of a patient.
  if (input.message_full_name !== undefined) patch.message_full_name = input.message_full_name;
  if (input.message_rule_name !== undefined) patch.message_rule_name = input.message_rule_name;
  // Issue 38: the roles that must sign in with a second factor, stored as a JSON list.
  if (input.second_factor_roles !== undefined) patch.second_factor_roles = JSON.stringify([...new Set(input.second_factor_roles)].sort());
  return { ok: true, patch };
}
