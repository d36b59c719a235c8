import type { MeasurementHook } from '../measurements/hooks.js';

/** D10: checks each stored reading against the patient's alarm rules (owner: alarms/alerts work). */
export const checkAlarms: MeasurementHook = async () => {};
