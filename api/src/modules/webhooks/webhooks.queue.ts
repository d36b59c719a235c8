import type { MeasurementHook } from '../measurements/hooks.js';

/** D19: queues a FHIR Observation delivery per reading for subscribed clients (owner: webhooks work). */
export const queueMeasurementWebhooks: MeasurementHook = async () => {};
