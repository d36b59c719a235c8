import { sortOrder } from '../../http/list-params.js';
import { select } from '../../db/sql.js';
import { FhirExport } from '../../db/models/fhir-exports.model.js';
import { defineResource } from '../../resources/resource.js';
import { exportRowOf } from './fhir-exports.service.js';
import { displayName } from '@vigia/contract/rules/names';
import type { components } from '@vigia/contract/openapi';

type S = components['schemas'];

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * 'Exportaciones FHIR' (issue 37): the organisation's Bulk Data exports, listed for its
 * administrators through the engine (paging, sort, status filter, tenancy). Starting, cancelling and
 * downloading are fhir-exports.routes.ts's; the rows are written by fhir-exports.service.ts only.
 */
export const fhirExportsResource = () =>
  defineResource<FhirExport, S['FhirExport']>({
    name: 'fhir_exports',
    model: FhirExport,
    tenant: 'client_id',
    access: { read: 'administer', write: 'administer' },
    operations: { list: 'listFhirExports', get: 'getFhirExport' },
    fields: {
      id: { column: 'id', kind: 'integer', sort: true },
      status: { column: 'status', kind: 'enum', sort: true },
      created_at: { column: 'created_at', kind: 'datetime', sort: true },
      finished_at: { column: 'finished_at', kind: 'datetime', sort: true },
    },
    defaultLimit: 10,
    notFound: 'La exportación no existe.',
    order: (p) => sortOrder(p, [['created_at', p.order === 'ASC' ? 'ASC' : 'DESC']], ['id', 'DESC']),

    async present(models, ctx) {
      const rows = models.map((m) => exportRowOf(m.get({ plain: true }) as Parameters<typeof exportRowOf>[0]));
      const ids = (pick: (r: (typeof rows)[number]) => number | null) => [
        ...new Set(rows.map(pick).filter((x): x is number => x !== null)),
      ];
      const [clients, users, tags] = await Promise.all([
        lookup(
          ctx.sequelize,
          'SELECT id, name FROM api_clients WHERE client_id = :clientId AND id IN (:ids)',
          ctx.clientId,
          ids((r) => r.api_client_id),
        ),
        lookup(
          ctx.sequelize,
          "SELECT id, TRIM(first_name || ' ' || last_name) AS name FROM users WHERE client_id = :clientId AND id IN (:ids)",
          ctx.clientId,
          ids((r) => r.user_id),
        ),
        lookup(
          ctx.sequelize,
          'SELECT id, name FROM tags WHERE client_id = :clientId AND id IN (:ids)',
          ctx.clientId,
          ids((r) => r.group_id),
        ),
      ]);
      return rows.map((r) => ({
        id: r.id,
        status: r.status,
        level: r.level,
        types: r.types as S['FhirExportType'][],
        since: iso(r.since),
        group_id: r.group_id,
        group_name: r.group_id === null ? null : (tags.get(r.group_id) ?? null),
        requested_by:
          r.api_client_id !== null
            ? `Cliente de API: ${clients.get(r.api_client_id) ?? 'eliminado'}`
            : displayName(users.get(r.user_id ?? 0)) || 'Usuario eliminado',
        progress: r.progress,
        resources: r.resources,
        files: r.files as S['FhirExportFile'][],
        error: r.error,
        created_at: r.created_at.toISOString(),
        finished_at: iso(r.finished_at),
        // When the files go (completed) or went (expired, or deleted by hand).
        expires_at: r.status === 'completed' || r.status === 'expired' ? iso(r.expires_at) : null,
      }));
    },
  });

async function lookup(sequelize: Parameters<typeof select>[0], sql: string, clientId: number, ids: number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const rows = await select<{ id: number | string; name: string }>(sequelize, sql, { clientId, ids });
  return new Map(rows.map((r) => [Number(r.id), r.name]));
}
