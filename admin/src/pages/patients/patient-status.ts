import type { Schemas } from '../../contract';

/** 01 §4: status colours. Green active, red incomplete, grey inactive, black deceased. */
export const PATIENT_STATUS_DISPLAY: Record<number, { label: string; color: string; hint?: string }> = {
  0: { label: 'Inactivo', color: '#8c8c8c' },
  1: { label: 'Activo', color: '#2e7d32' },
  2: { label: 'Incompleto', color: '#d32f2f', hint: 'Complete la información de contacto para activar al paciente' },
  3: { label: 'Fallecido', color: '#212121' },
};

/** Country whose insurer (EAPB) and regime apply (01 §2, §5). */
export const COLOMBIA_ID = 26;

export const INCOMPLETE_TEXT = 'Dato Incompleto';

/** Missing-data badges of a search result card (01 §2). */
export function missingBadges(p: Pick<Schemas['PatientSummary'], 'cellphone' | 'email' | 'address'>): string[] {
  const out: string[] = [];
  if (!p.cellphone) out.push('Teléfono Incompleto');
  if (!p.email) out.push('Email Incompleto');
  if (!p.address) out.push('Dirección incompleta');
  return out;
}
