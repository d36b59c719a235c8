/** Numbers the specification states (03 §9); one place so screens and tests quote the same value. */

/** Inactivity logout: 3 hours without mouse movement (03 §4, §9). */
export const INACTIVITY_LOGOUT_MS = 10_800_000;

/** Each notification stays 4 s at the top right (03 §2, §9). */
export const NOTIFICATION_DURATION_S = 4;

/** The staff app's header (layout.css `.vigia-header`, sticky at the top of every screen). */
export const HEADER_HEIGHT_PX = 64;

/**
 * Where toasts start: below the header, never over its controls (issue 50: the welcome toast
 * covered 'Salir' on a phone). antd's notification and message both take it as `top`.
 */
export const TOAST_TOP_PX = HEADER_HEIGHT_PX + 8;

/** More open notifications than this and a dialog lists them (03 §2). */
export const NOTIFICATION_DIALOG_THRESHOLD = 2;

/** Base path of the API (D1). */
export const API_URL = '/api/v1';

/** Browser storage keys. */
export const SESSION_STORAGE_KEY = 'vigia.session';
export const REDIRECT_STORAGE_KEY = 'vigia.redirect';
export const LOGOUT_REASON_STORAGE_KEY = 'vigia.logout_reason';

/** Paths served by the separate patient portal app: never routed here (03 §2). */
export const PORTAL_PATHS = ['/login_patient', '/portal_patient'] as const;

/** Where the provider's marketing links point (login page). */
export const PROVIDER_LINKS = {
  site: 'https://vigia.co',
  facebook: 'https://www.facebook.com/vigia.salud',
  instagram: 'https://www.instagram.com/vigia.salud',
  linkedin: 'https://www.linkedin.com/company/vigia-salud',
  youtube: 'https://www.youtube.com/@vigia.salud',
} as const;

/**
 * Where an administrator completes the institution's data for the RDA (issue 51): NIT, REPS code,
 * class, address and sites. The teleconsultation's list of gaps links records 'organization' and
 * 'site' here.
 */
export const INSTITUTION_RDA_PATH = '/integrations#institucion-rda';
