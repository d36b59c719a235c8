import type { Schemas } from '../../contract';

/** A batch's state as the inventory list and 'Ver lote' show it. */
export const stockStatus = (s: Pick<Schemas['Stock'], 'active'>) =>
  s.active ? { text: 'Activo', tone: 'success' as const } : { text: 'Inactivo', tone: 'default' as const };
