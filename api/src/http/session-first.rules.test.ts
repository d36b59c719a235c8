import { describe, expect, it } from 'vitest';
import { sessionRequirement } from './session-first.rules';
import { loadContract } from './contract';

const planted = {
  servers: [{ url: '/api/v1' }],
  security: [{ bearer: [] }],
  paths: {
    '/health': { get: { security: [] } },
    '/patients': { get: {}, post: {} },
    '/patients/{id}': { get: {}, put: {} },
    '/patients/lookup': { get: { security: [] } },
    '/patients/patient_id={id}/set_caregiver': { get: {} },
    '/devices/{card_id}/readings': { post: { security: [{ deviceSecret: [] }] } },
    '/reports/{kind}': { get: { security: [{ deviceSecret: [] }, { bearer: [] }] } },
  },
};

describe('sessionRequirement: which calls authenticate before the contract is checked', () => {
  const needs = sessionRequirement(planted);
  it.each([
    ['POST', '/api/v1/patients', true],
    ['GET', '/api/v1/patients', true],
    ['GET', '/api/v1/patients/12', true],
    ['GET', '/api/v1/patients/abc', true],
    ['PUT', '/api/v1/patients/12/', true],
    ['HEAD', '/api/v1/patients/12', true],
    ['GET', '/api/v1/patients/lookup', false],
    ['GET', '/api/v1/patients/patient_id=7/set_caregiver', true],
    ['GET', '/api/v1/patients/patient_id=/set_caregiver', false],
    ['GET', '/api/v1/health', false],
    ['POST', '/api/v1/devices/CARD-1/readings', false],
    ['GET', '/api/v1/reports/monthly', true],
    ['DELETE', '/api/v1/patients/12', false],
    ['GET', '/api/v1/nothing', false],
    ['GET', '/api/v1/patients/12/extra', false],
    ['GET', '/patients', false],
    ['GET', '/', false],
  ] as const)('%s %s → %s', (method, path, expected) => {
    expect(needs(method, path)).toBe(expected);
  });

  it('reads openapi.yaml: sign-in, codes, single sign-on, downloads, devices and webhooks are public, the rest needs a session', () => {
    const { doc } = loadContract();
    const contractNeeds = sessionRequirement(doc);
    expect(contractNeeds('POST', '/api/v1/sessions')).toBe(false);
    expect(contractNeeds('POST', '/api/v1/request_otp')).toBe(false);
    expect(contractNeeds('POST', '/api/v1/verify_otp')).toBe(false);
    expect(contractNeeds('POST', '/api/v1/sso/authorize')).toBe(false);
    expect(contractNeeds('GET', '/api/v1/downloads/abc.def')).toBe(false);
    expect(contractNeeds('POST', '/api/v1/devices/CARD-1/readings')).toBe(false);
    expect(contractNeeds('POST', '/api/v1/messaging/webhook/3')).toBe(false);
    expect(contractNeeds('GET', '/api/v1/health')).toBe(false);
    expect(contractNeeds('POST', '/api/v1/patients')).toBe(true);
    expect(contractNeeds('GET', '/api/v1/me')).toBe(true);
  });
});
