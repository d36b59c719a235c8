import { Op, type Sequelize, type Transaction } from 'sequelize';
import { badRequest, notFound } from '../../http/errors.js';
import { Stock, Supply } from '../../db/models/inventory.model.js';
import { addDays, localToUtc } from '@vigia/contract/rules/activities';

export interface InventoryDeps {
  sequelize: Sequelize;
  now: () => Date;
  /** The organisation's time zone (module clients' clientTimeZone): its days and its dates. */
  clientTimeZone: (clientId: number) => Promise<string>;
}

export const bool = (v: unknown) => v === true || v === 1 || v === '1' || v === 'true';

/** From-to local dates of the client as a UTC half-open interval. */
export function dayRange(date1: string | undefined, date2: string | undefined, zone: string) {
  const range: Record<symbol, Date> = {};
  if (date1) range[Op.gte] = localToUtc(date1, 0, zone);
  if (date2) range[Op.lt] = localToUtc(addDays(date2, 1), 0, zone);
  return Object.getOwnPropertySymbols(range).length ? range : null;
}

/** A supply of the client (else 404, or a field error when `field` names the input that pointed to it). */
export async function findSupply(clientId: number, id: number, field?: string): Promise<Supply> {
  const s = await Supply.findOne({ where: { id, client_id: clientId } });
  if (!s) throw field ? badRequest(field, 'El insumo no existe.') : notFound('El insumo no existe.');
  return s;
}

/** A batch of the client (else 404, or a field error when `field` names the input that pointed to it). */
export async function findStock(clientId: number, id: number, field?: string, transaction?: Transaction): Promise<Stock> {
  const s = await Stock.findOne({ where: { id, client_id: clientId }, transaction });
  if (!s) throw field ? badRequest(field, 'El lote no existe.') : notFound('El lote no existe.');
  return s;
}
