/** Patient session in localStorage, as the spec's store keeps it: token and patient id. */
export interface PatientSession {
  token: string;
  patient_id: number;
}

const KEY = 'vigia.patient';

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
}
