import type { components } from '@vigia/contract/openapi';

/** Every schema of the contract, by name (`Tag`, `TagInput`, ...). */
export type Schemas = components['schemas'];
export type SchemaName = keyof Schemas & string;

export type Session = Schemas['Session'];
export type Profile = Schemas['Profile'];
export type ApiError = Schemas['Error'];
