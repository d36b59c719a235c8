import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Schemas } from '../contract';
import {
  apiCall,
  apiRead,
  refineWrite,
  type AnswerOf,
  type ApiRead,
  type BodyOf,
  type MethodOf,
  type PathParamsOf,
  type QueryOf,
} from './calls';
import { NO_BODY } from './data';

describe('apiCall: the URL of one operation of the contract', () => {
  it('puts the path parameters in, encoded', () => {
    expect(apiCall('get', '/patients/{id}/orders/{orderId}', { id: 7, orderId: '12' })).toEqual({
      url: '/api/v1/patients/7/orders/12',
      method: 'get',
    });
    expect(apiCall('get', '/clients/{id}/residents/{code}', { id: 3, code: 'A/1 b' }).url).toBe('/api/v1/clients/3/residents/A%2F1%20b');
    expect(apiCall('delete', '/sessions/mine')).toEqual({ url: '/api/v1/sessions/mine', method: 'delete' });
  });

  it('refuses, at compile time, a path the contract lacks, a method it lacks, and missing or extra parameters', () => {
    // @ts-expect-error: no such path
    apiCall('get', '/patient/{id}', { id: 1 });
    // @ts-expect-error: /reports/indicators has no POST
    apiCall('post', '/reports/indicators');
    // @ts-expect-error: orderId missing
    expect(() => apiCall('get', '/patients/{id}/orders/{orderId}', { id: 1 })).toThrow('Missing path parameter orderId');
    // @ts-expect-error: no parameter named patientId
    apiCall('get', '/patients/{id}', { id: 1, patientId: 2 });
    // @ts-expect-error: the path has parameters
    expect(() => apiCall('get', '/patients/{id}')).toThrow('Missing path parameter id');
  });
});

describe('apiRead: a GET built ahead (its useCustom cache entry)', () => {
  it('carries the URL and the query as useCustom and the prefetch key them', () => {
    const read = apiRead('/patients/{id}/alarms', { params: { id: 4 }, query: { clinical_element: 3 } });
    expect(read).toEqual({ url: '/api/v1/patients/4/alarms', query: { clinical_element: 3 } });
    expect(apiRead('/me/factors')).toEqual({ url: '/api/v1/me/factors', query: undefined });
    expectTypeOf(read).toEqualTypeOf<ApiRead<Schemas['PatientAlarm'][]>>();
  });

  it("checks the query against the operation's", () => {
    // @ts-expect-error: `order` is 'asc' | 'desc'
    apiRead('/patients/{id}/measurements', { params: { id: 1 }, query: { order: 'down' } });
    // @ts-expect-error: /listings/id_types_full requires country_id
    apiRead('/listings/id_types_full', { query: {} });
  });
});

describe('refineWrite: what useCustomMutation is handed', () => {
  it('fills the URL and sends the body', () => {
    const write = refineWrite({
      method: 'put',
      path: '/patients/{id}/measurements/{mid}',
      params: { id: 2, mid: 9 },
      values: { status: 1, comment: 'duplicada' },
    });
    expect(write).toMatchObject({ url: '/api/v1/patients/2/measurements/9', method: 'put', values: { status: 1, comment: 'duplicada' } });
  });

  it("sends the submit's Idempotency-Key as a header, and no header without one (issue 50)", () => {
    const entry = {
      method: 'post',
      path: '/patients/{id}/alerts/{alertId}/alert_entries',
      params: { id: 1, alertId: 2 },
      values: { description: 'Llamé al paciente' },
    } as const;
    expect(refineWrite({ ...entry, idempotencyKey: '3f0c2a9e-5b1d-4c7e-9a8f-2d6b1e4c0a7d' }).config).toEqual({
      headers: { 'Idempotency-Key': '3f0c2a9e-5b1d-4c7e-9a8f-2d6b1e4c0a7d' },
    });
    expect(refineWrite(entry)).not.toHaveProperty('config');
  });

  it('sends no body at all for an operation without one', () => {
    expect(refineWrite({ method: 'delete', path: '/patients/{id}/portal_lock', params: { id: 5 } }).values).toBe(NO_BODY);
  });

  it("refuses, at compile time, a body that is not the operation's", () => {
    // @ts-expect-error: a prompt's status is 0 or 1
    refineWrite({ method: 'post', path: '/client_prompts', values: { text: 'Responder en español', status: 7 } });
    // @ts-expect-error: PatientUpdate has no `patient` wrapper (additionalProperties: false)
    refineWrite({ method: 'put', path: '/patients/{id}', params: { id: 1 }, values: { patient: { tag_ids: [1] } } });
    // @ts-expect-error: the body is required
    refineWrite({ method: 'post', path: '/patients/{id}/messages', params: { id: 1 } });
  });
});

describe("the operation's types", () => {
  it('are read from the contract', () => {
    expectTypeOf<MethodOf<'/patients/{id}/alerts/{alertId}'>>().toEqualTypeOf<'get' | 'put' | 'patch'>();
    expectTypeOf<PathParamsOf<'/patients/{id}/alerts/{alertId}', 'put'>>().toEqualTypeOf<{ id: number; alertId: number }>();
    expectTypeOf<QueryOf<'/me/factors', 'get'>>().toBeNever();
    expectTypeOf<BodyOf<'/patients/{id}/observations', 'post'>>().toEqualTypeOf<Schemas['ObservationInput']>();
    expectTypeOf<AnswerOf<'/me/factors', 'get'>>().toEqualTypeOf<Schemas['Factors']>();
    expectTypeOf<AnswerOf<'/patients/{id}/measurements', 'post'>>().toEqualTypeOf<Schemas['Measurement'][]>();
  });
});
