import type { MeasurementHook } from '../measurements/hooks.js';

/** D11: a reading completes the patient's vital-sign activity in progress for its element (owner: orders work). */
export const completeActivities: MeasurementHook = async () => {};
