/** Patient session in localStorage, as the spec's store keeps it: token and patient id. */
export interface PatientSession {
  token: string;
  patient_id: number;
}

const KEY = 'vigia.patient';
/**
 * The portal's offline copies of what it last read (issue 50): health data on the patient's phone,
 * so they live only as long as the session. clearSession (sign-out, idle logout, a revoked token)
 * removes every one of them with the token.
 */
const COPY_PREFIX = 'vigia.patient.copy.';

export function readSession(): PatientSession | null {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(KEY) ?? 'null');
    if (value && typeof value === 'object') {
      const { token, patient_id } = value as Record<string, unknown>;
      if (typeof token === 'string' && token && typeof patient_id === 'number') return { token, patient_id };
    }
  } catch {
    // A corrupt entry is the same as none.
  }
  return null;
}

export function saveSession(session: PatientSession): void {
  localStorage.setItem(KEY, JSON.stringify(session));
}

export function clearSession(): void {
  localStorage.removeItem(KEY);
  for (const key of Object.keys(localStorage)) if (key.startsWith(COPY_PREFIX)) localStorage.removeItem(key);
}

/** A read's last answer and when it was read, kept for a later offline visit (of this session only). */
export interface OfflineCopy<T> {
  data: T;
  readAt: number;
}

export function saveCopy<T>(name: string, copy: OfflineCopy<T>): void {
  try {
    localStorage.setItem(COPY_PREFIX + name, JSON.stringify(copy));
  } catch {
    // A full storage only costs the offline view.
  }
}

export function readCopy<T>(name: string): OfflineCopy<T> | null {
  try {
    const value = JSON.parse(localStorage.getItem(COPY_PREFIX + name) ?? 'null') as OfflineCopy<T> | null;
    return value && typeof value.readAt === 'number' ? value : null;
  } catch {
    return null;
  }
}
