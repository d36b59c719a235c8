import crypto from 'node:crypto';
import request from 'supertest';
import { bootstrap, type Product } from '../../api/src/bootstrap.js';
import { newTestDatabase } from './database-template.js';
import type { Config } from '../../api/src/config.js';
import { createClientWithAdmin } from '../../api/src/modules/clients/clients.service.js';
import { User } from '../../api/src/db/models/users.model.js';
import { hashPassword } from '../../api/src/modules/sessions/passwords.js';
import type { Role } from '@vigia/contract/rules/access';

export const PASSWORD = 'Prueba@2026';
/** Bogotá, D.C. in the DIVIPOLA catalogue (country 26 = Colombia). */
export const BOGOTA = 2611001;

export interface TestProduct extends Product {
  dataDir: string;
  http: ReturnType<typeof request>;
  stop(): Promise<void>;
}

type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** supertest's request for a method read from the contract (a string such as 'post'). */
export function requestFor(t: TestProduct, method: string, url: string): request.Test {
  return t.http[method as HttpMethod](url);
}

/**
 * The real product on a fresh database: a temporary SQLite file, or, when DATABASE_URL is set,
 * a new PostgreSQL database created for this test file and dropped afterwards.
 * `allowHttpServices`: WEBHOOKS_ALLOW_HTTP=1, for files whose webhook or integration peer is an http:// loopback server.
 */
export async function startTestProduct(
  opts: { now?: () => Date; otpLength?: string; jwtSecret?: string; allowHttpServices?: boolean; env?: Config['env'] } = {},
): Promise<TestProduct> {
  // A copy of the migrated template with the catalogues (database-template.ts): bootstrap below
  // still migrates and syncs, as on any existing database.
  const { dataDir, databaseUrl, drop } = await newTestDatabase('vigia-test-', 'vigia_t');
  const config: Config = {
    port: 0,
    env: opts.env ?? 'test',
    dataDir,
    databaseUrl,
    jwtSecret: opts.jwtSecret ?? crypto.randomBytes(32).toString('hex'),
    tokenTtlSeconds: 3600,
    smsUrl: null,
    smsToken: null,
    publicUrl: null,
    allowHttpServices: opts.allowHttpServices ?? false,
  };
  const product = await bootstrap(config, { now: opts.now, otpLength: opts.otpLength, serveFrontEnds: false });
  return {
    ...product,
    dataDir,
    http: request(product.app),
    async stop() {
      await product.close();
      await drop();
    },
  };
}

export interface Org {
  clientId: number;
  tokens: Record<Role, string>;
  users: Record<Role, User>;
}

/**
 * A client with one user per role, each signed in. Where staff sign in through single sign-on
 * (OIDC_* set), only the roles in `breakGlass` are marked so and get a token; the others' is ''.
 */
export async function createOrg(t: TestProduct, name: string, opts: { breakGlass?: Role[] } = {}): Promise<Org> {
  const slug = name.toLowerCase().replace(/[^a-z]/g, '');
  const { client, user } = await createClientWithAdmin(t.sequelize, t.catalogues, {
    name,
    countryId: 26,
    admin: { email: `admin@${slug}.test`, password: PASSWORD, firstName: 'Ana', lastName: 'Admin' },
  });
  const users = { admin: user } as Record<Role, User>;
  const hash = await hashPassword(PASSWORD);
  for (const role of ['medico', 'enfermeria', 'consulta'] as const) {
    users[role] = await User.create({
      client_id: client.id,
      email: `${role}@${slug}.test`,
      password_hash: hash,
      first_name: 'USUARIO',
      last_name: role.toUpperCase(),
      role_name: role,
      cellphone: null,
      prefix: '+57',
      country_id: 26,
      city_id: null,
      time_zone: 'America/Bogota',
    });
  }
  for (const role of opts.breakGlass ?? []) await users[role].update({ break_glass: true });
  const tokens = {} as Record<Role, string>;
  for (const role of ['admin', 'medico', 'enfermeria', 'consulta'] as const) {
    const res = await t.http.post('/api/v1/sessions').send({ email: users[role].email, password: PASSWORD });
    if (res.status === 403 && res.body.code === 'sso_required') {
      tokens[role] = '';
      continue;
    }
    if (res.status !== 201) throw new Error(`login ${role}: ${res.status} ${JSON.stringify(res.body)}`);
    tokens[role] = res.body.token;
  }
  return { clientId: client.id, tokens, users };
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** A valid new-patient body (Colombian CC, complete contact data). */
/** Document numbers for patientBody: sequential, so a test file's data is the same on every run. */
let nextNid = 1_000_000_000;

export function patientBody(overrides: Record<string, unknown> = {}) {
  return {
    id_type: 1,
    nid: String(++nextNid),
    first_name: 'maría josé',
    last_name: 'pérez gómez',
    country_id: 26,
    city_id: BOGOTA as number | null,
    birth_date: '1950-05-17',
    gender: 0,
    address: 'calle 45 # 12-30',
    neighborhood: 'chapinero',
    prefix: '+57',
    cellphone: '3001234567',
    email: 'maria.perez@example.co',
    ...overrides,
  };
}
