import { AppError, conflict, forbidden, notFound } from '../../http/errors.js';
import type { StaffPrincipal } from '../../http/auth.js';
import { can } from '@vigia/contract/rules/access';
import { Client } from '../../db/models/clients.model.js';
import { ResidentsOff, ResidentsUnavailable, type ResidentsAdapter } from '../../adapters/residents.js';

const RESIDENT_NOT_FOUND = 'Residente no encontrado';

/**
 * Looks a resident up in the client's residents product (01 §2 Ajustes). Assigning and
 * unassigning are patient updates of resiplus_data, resiplus_code and resiplus_id.
 */
export async function findResident(adapter: ResidentsAdapter, principal: StaffPrincipal, clientId: number, code: string) {
  if (clientId !== principal.clientId) throw notFound();
  if (!can(principal.role, 'patients.edit')) throw forbidden();
  const client = await Client.findByPk(principal.clientId);
  if (!client) throw notFound();
  try {
    const resident = await adapter.findByCode(
      { enabled: !!client.residents_enabled, url: client.residents_url, user: client.residents_user, password: client.residents_password },
      code,
    );
    if (!resident) throw notFound(RESIDENT_NOT_FOUND);
    return resident;
  } catch (err) {
    if (err instanceof ResidentsOff) throw conflict('La integración con el sistema de residentes no está habilitada para este cliente.');
    if (err instanceof ResidentsUnavailable) throw new AppError(502, 'residents_unavailable', err.message);
    throw err;
  }
}
