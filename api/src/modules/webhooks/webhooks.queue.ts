import type { MeasurementHook } from '../measurements/hooks.js';
import type { AlertHook } from '../alerts/hooks.js';

/** D19: queues a FHIR Observation delivery per reading for subscribed clients (owner: webhooks work). */
export const queueMeasurementWebhooks: MeasurementHook = async () => {};

/** D19: queues a FHIR DetectedIssue delivery for a new value alert (type 0) of a subscribed client (owner: webhooks work). */
export const queueAlertWebhook: AlertHook = async () => {};
