import { formatDateTime } from '@vigia/contract/rules/record';

/** Clinical variables (01 §2 'Variables'): how values are read and dates shown. */
export type VariableType = 'numeric' | 'text';

export type ParsedValue = { ok: true; number: number | null; text: string | null } | { ok: false; message: string };

/** Numeric variables take a number ('5,5' or '5.5'); text variables take 1 to 600 characters. */
export function parseVariableValue(type: VariableType, raw: number | string): ParsedValue {
  if (type === 'numeric') {
    const n = typeof raw === 'number' ? raw : Number(String(raw).trim().replace(',', '.'));
    if (String(raw).trim() === '' || !Number.isFinite(n) || Math.abs(n) > 1e9) return { ok: false, message: 'Debe ser un número.' };
    return { ok: true, number: n, text: null };
  }
  const text = String(raw).trim();
  if (!text) return { ok: false, message: '¡El campo es requerido!' };
  if (text.length > 600) return { ok: false, message: 'Debe tener máximo de 600 caracteres' };
  return { ok: true, number: null, text };
}

/** dd/mm/aaaa hh:mm in the patient's zone (01 §1: day/month/year). */
export const formatedDate = formatDateTime;
