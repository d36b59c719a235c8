import type { components } from '@vigia/contract/openapi';

type Schemas = components['schemas'];

export type Patient = Schemas['Patient'];
export type OtpRequestInput = Schemas['OtpRequestInput'];
export type OtpRequested = Schemas['OtpRequested'];
export type OtpVerifyInput = Schemas['OtpVerifyInput'];
export type PatientSessionAnswer = Schemas['PatientSession'];
export type ApiErrorBody = Schemas['Error'];
