import { moduleLoad } from './ui/loaded-lazy';

/**
 * The files of the patient page opened on Signos, each fetched once: route-preload.ts starts them
 * with the entry and the components that render them (lazyLoaded) find them arrived, so none of
 * them suspends (ui/loaded-lazy.ts). Dynamic imports: each stays a chunk of its own.
 */
export const APP_SHELL = moduleLoad(() => import('./AppShell'));
export const PATIENT_PAGE = moduleLoad(() => import('./pages/patients/PatientPage'));
export const ENCOUNTERS_CARD = moduleLoad(() => import('./pages/patients/EncountersCard'));
export const MEASUREMENTS_TAB = moduleLoad(() => import('./pages/patients/tabs/MeasurementsTab'));
export const MEASUREMENT_CHART = moduleLoad(() => import('./charts/MeasurementChart'));
