import crypto from 'node:crypto';
import { badRequest } from '../../http/errors.js';
import { sortOrder } from '../../http/list-params.js';
import { execute } from '../../db/sql.js';
import { ApiClient } from '../../db/models/api-clients.model.js';
import { defineResource } from '../../resources/resource.js';
import { validateServiceUrl } from '../clients/clients.rules.js';
import { MESSAGES } from '@vigia/contract/rules/validation';
import { mixedScopesProblem } from '@vigia/contract/rules/scopes';
import { jwksProblem } from './api-clients.rules.js';
import type { components } from '@vigia/contract/openapi';

type S = components['schemas'];

export interface ApiClientDeps {
  /** http:// and loopback JWKS URLs (WEBHOOKS_ALLOW_HTTP=1, a local peer); otherwise https:// only, as webhooks (03 §5). */
  allowHttp: boolean;
}

/** The one place an api_clients row becomes the contract's ApiClient. */
function toApiClient(c: ApiClient): S['ApiClient'] {
  return {
    id: c.id,
    client_id: c.public_id,
    name: c.name,
    jwks: c.jwks ? (JSON.parse(c.jwks) as S['Jwks']) : null,
    jwks_url: c.jwks_url,
    scopes: JSON.parse(c.scopes) as S['ApiClientScope'][],
    status: c.status as S['ApiClientStatus'],
    last_token_at: c.last_token_at ? new Date(c.last_token_at).toISOString() : null,
    created_at: new Date(c.created_at).toISOString(),
  };
}

function checkName(name: string): string {
  const v = name.trim();
  if (v.length < 3) throw badRequest('name', 'Debe tener mínimo 3 caracteres y máximo 100');
  return v;
}

/** The scopes as stored: 'Todas' or single types, never both (the contract's rule, as the form). */
function scopesOf(scopes: S['ApiClientScope'][]): string {
  const problem = mixedScopesProblem(scopes);
  if (problem) throw badRequest('scopes', problem);
  return JSON.stringify(scopes);
}

/** The keys: a pasted JWKS or its URL, exactly one of them. */
function keysOf(input: { jwks?: S['Jwks']; jwks_url?: string }, deps: ApiClientDeps): { jwks: string | null; jwks_url: string | null } {
  if (input.jwks !== undefined && input.jwks_url !== undefined)
    throw badRequest('jwks_url', 'Indique el JWKS o la URL del JWKS, no ambos.');
  if (input.jwks !== undefined) {
    const problem = jwksProblem(input.jwks);
    if (problem) throw badRequest('jwks', problem);
    return { jwks: JSON.stringify(input.jwks), jwks_url: null };
  }
  if (input.jwks_url !== undefined) {
    const problem = validateServiceUrl(input.jwks_url, { allowHttp: deps.allowHttp });
    if (problem) {
      const message = problem === MESSAGES.required ? problem : 'La URL del JWKS debe empezar por https:// y no apuntar a una red privada.';
      throw badRequest('jwks_url', message);
    }
    return { jwks: null, jwks_url: input.jwks_url.trim() };
  }
  throw badRequest('jwks', 'Indique el JWKS (claves públicas) o la URL del JWKS.');
}

/**
 * 'Clientes de API' (issue 37): the systems that read the organisation's data through FHIR with
 * SMART Backend Services. Only `admin` reads and writes them (they are integration credentials, as
 * the webhook settings). The client id is random and never changes; suspending a client refuses
 * its next token, and its tokens (5 minutes) are checked against its status on every use.
 */
export const apiClientsResource = (deps: ApiClientDeps) =>
  defineResource<ApiClient, S['ApiClient'], S['ApiClientInput'], S['ApiClientUpdate']>({
    name: 'api_clients',
    model: ApiClient,
    tenant: 'client_id',
    access: { read: 'administer', write: 'administer' },
    operations: {
      list: 'listApiClients',
      get: 'getApiClient',
      create: 'createApiClient',
      patch: 'patchApiClient',
      remove: 'deleteApiClient',
    },
    fields: {
      id: { column: 'id', kind: 'integer', sort: true },
      name: { column: 'name', kind: 'text', sort: true },
      status: { column: 'status', kind: 'enum', sort: true },
      last_token_at: { column: 'last_token_at', kind: 'datetime', sort: true },
      created_at: { column: 'created_at', kind: 'datetime', sort: true },
    },
    defaultLimit: 10,
    search: { columns: ['name', 'public_id'], fold: 'lower' },
    notFound: 'El cliente de API no existe.',
    order: (p) => sortOrder(p, [['name', p.order]], ['id', 'ASC']),

    async present(rows) {
      return rows.map(toApiClient);
    },
    async create(input, ctx) {
      return ApiClient.create({
        client_id: ctx.clientId,
        public_id: crypto.randomBytes(18).toString('base64url'),
        name: checkName(input.name),
        ...keysOf(input, deps),
        scopes: scopesOf(input.scopes),
        status: input.status ?? 'active',
      });
    },
    async update(row, input) {
      if (input.name !== undefined) row.name = checkName(input.name);
      if (input.jwks !== undefined || input.jwks_url !== undefined) Object.assign(row, keysOf(input, deps));
      if (input.scopes !== undefined) row.scopes = scopesOf(input.scopes);
      if (input.status !== undefined) row.status = input.status;
      await row.save();
    },
    async remove(row, ctx, transaction) {
      await execute(ctx.sequelize, 'DELETE FROM oauth_jtis WHERE api_client_id = :id', { id: row.id }, transaction);
    },
  });
