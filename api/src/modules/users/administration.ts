import type { Router } from 'express';
import type { Sequelize } from 'sequelize';
import type { Catalogues } from '../catalogues/catalogues.service.js';
import { usersRouter } from './users.routes.js';
import { inventoryRouter } from '../inventory/inventory.routes.js';
import { encountersRouter } from '../encounters/encounters.routes.js';

/** Issue 5's administration area, mounted by app.ts in one line: users, inventory, encounters. */
export function administrationRouters(deps: { sequelize: Sequelize; catalogues: Catalogues; now: () => Date }): Router[] {
  return [usersRouter(deps), inventoryRouter(deps), encountersRouter(deps)];
}
