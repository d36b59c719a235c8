import { parseArgs } from 'node:util';
import { describeFailure, loadConfig } from '../config.js';
import { bootstrap } from '../bootstrap.js';
import { createClientWithAdmin } from '../modules/clients/clients.service.js';
import { AppError } from '../http/errors.js';

/**
 * npm run client:create -- --name "Clínica Norte" --country 26 --admin-email ana@norte.co
 *   --admin-password 'Segura@2026' --admin-first-name Ana --admin-last-name Pérez [--time-zone America/Bogota] [--multipatient]
 */
async function main() {
  const { values } = parseArgs({
    options: {
      name: { type: 'string' },
      country: { type: 'string', default: '26' },
      'time-zone': { type: 'string' },
      'logo-url': { type: 'string' },
      multipatient: { type: 'boolean', default: false },
      'admin-email': { type: 'string' },
      'admin-password': { type: 'string' },
      'admin-first-name': { type: 'string' },
      'admin-last-name': { type: 'string' },
    },
  });
  const required = ['name', 'admin-email', 'admin-password', 'admin-first-name', 'admin-last-name'] as const;
  const missing = required.filter((k) => !values[k]);
  if (missing.length) {
    console.error(`Faltan opciones: ${missing.map((m) => `--${m}`).join(', ')}`);
    process.exit(2);
  }
  const product = await bootstrap(loadConfig(), { serveFrontEnds: false });
  try {
    const { client, user } = await createClientWithAdmin(product.sequelize, product.catalogues, {
      name: values.name!,
      countryId: Number(values.country),
      timeZone: values['time-zone'],
      logoUrl: values['logo-url'] ?? null,
      multipatient: values.multipatient,
      // Issue 38: an organisation made here starts with administrators required to have a second factor.
      secondFactorRoles: ['admin'],
      admin: {
        email: values['admin-email']!,
        password: values['admin-password']!,
        firstName: values['admin-first-name']!,
        lastName: values['admin-last-name']!,
      },
    });
    console.log(`Cliente creado: #${client.id} ${client.name}. Administrador: ${user.email}`);
  } catch (err) {
    if (err instanceof AppError) {
      console.error(`${err.errors[0]?.field ?? ''}: ${err.message}`);
      process.exit(1);
    }
    throw err;
  } finally {
    await product.close();
  }
}

main().catch((err) => {
  // A wrong setting (DATA_DIR, DATABASE_URL, PORT…) reads as one sentence, as at the server's start.
  console.error(`[vigia] no se pudo crear el cliente: ${describeFailure(err)}`);
  process.exit(1);
});
