import { MESSAGES, validateDate, validateSerial } from '@vigia/contract/rules/validation';

/** Pure inventory rules (03 §2 'Inventario', §4 'Stock', §5 batch form, §9). */

export const SUPPLY_TYPE_NAMES: Record<string, string> = {
  biologico: 'Biológico',
  dispositivo: 'Dispositivo',
  medicamento: 'Medicamento',
  insumo: 'Insumo médico',
};
export const MOVE_TYPE_NAMES: Record<string, string> = { entrada: 'Entrada', salida: 'Salida', aplicacion: 'Aplicación' };

/** Signed change a move makes to its batch's quantity. */
export function moveDelta(type: string, amount: number): number {
  return type === 'entrada' ? amount : -amount;
}

export function insufficientStockMessage(serial: string, available: number, requested: number): string {
  return `No hay unidades suficientes en el lote ${serial}: hay ${available} disponible(s) y se pidieron ${requested}. El stock no puede quedar en negativo.`;
}

/** 'YYYY-MM-DD' → 'dd/mm/aaaa'. */
export function formatDate(isoDate: string): string {
  const [y, m, d] = isoDate.slice(0, 10).split('-');
  return `${d}/${m}/${y}`;
}

export interface FieldProblem {
  field: string;
  message: string;
}

export interface StockShape {
  type: string;
  serial: string;
  expiration_date: string;
  medical_supply_id: number | null;
  batch: boolean;
}

/**
 * Batch form rules: serial of 16 letters or digits, expiry not before today (in the client's zone),
 * a supply for Biológico and Dispositivo. `expiryChanged` is false when an edit keeps the stored date.
 */
export function checkStock(s: StockShape, today: string, expiryChanged = true): FieldProblem | null {
  const serial = validateSerial(s.serial);
  if (serial) return { field: 'serial', message: serial };
  const expiry = validateDate(s.expiration_date, expiryChanged ? 'expiration' : 'any', today);
  if (expiry) return { field: 'expiration_date', message: expiry };
  if ((s.type === 'biologico' || s.type === 'dispositivo') && s.medical_supply_id == null)
    return { field: 'medical_supply_id', message: MESSAGES.required };
  return null;
}

/** 03 §4: Biológico forces batch on. */
export function normaliseBatch(type: string, batch: boolean | undefined): boolean {
  return type === 'biologico' ? true : (batch ?? true);
}
