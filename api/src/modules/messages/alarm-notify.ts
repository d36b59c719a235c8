import type { AlertHook } from '../alerts/hooks.js';

/** Alarm rules with ia_alarm message the patient (ia_script / prompt_ia) when they fire (owner: messaging work). */
export const notifyPatientOfAlarm: AlertHook = async () => {};
