import { Router } from 'express';
import type { Sequelize } from 'sequelize';
import { select } from '../../db/sql.js';
import { requireStaff, staffOf } from '../../http/auth.js';
import { badRequest } from '../../http/errors.js';
import { route } from '../../http/operations.js';
import type { Catalogues } from './catalogues.service.js';
import { toSearchKey } from '@vigia/contract/rules/names';
import type { components } from '@vigia/contract/openapi';

export function cataloguesRouter(sequelize: Sequelize, catalogues: Catalogues): Router {
  const r = Router();
  // Staff only (P146): the portal reads no catalogue, and a patient token reaches only what the portal shows.
  route(r, 'listIdTypesFull', [requireStaff()], async (req, res) => {
    const countryId = req.query.country_id;
    res.json({
      data: catalogues
        .idTypesFull(countryId)
        .map(({ id, code, name, country_id, validation_regex }) => ({ id, code, name, country_id, validation_regex })),
    });
  });
  route(r, 'getListing', [requireStaff()], async (req, res) => {
    // Path parameters arrive as text; the contract validator has already refused a name that is not a ListName.
    const name = req.params.list_name as components['schemas']['ListName'];
    const countryId = req.query.country_id || undefined;
    if (name === 'tags') {
      const rows = await select<{ id: number; name: string }>(sequelize, 'SELECT id, name FROM tags WHERE client_id = :c ORDER BY name', {
        c: staffOf(req).clientId,
      });
      return res.json({ data: Object.fromEntries(rows.map((t) => [String(t.id), t.name])) });
    }
    res.json({ data: catalogues.listing(name, countryId, req.query.q) });
  });
  route(r, 'searchListing', [requireStaff()], async (req, res) => {
    const type = req.query.type;
    const q = req.query.q ?? '';
    const page = req.query.page ?? 1;
    const perPage = req.query.per_page ?? 20;
    const countryId = req.query.country_id || undefined;
    if (type === 'tags') {
      // A client has a handful of tags: match in memory, accents ignored on both sides.
      const key = toSearchKey(q);
      const rows = (
        await select<{ id: number; name: string }>(sequelize, 'SELECT id, name FROM tags WHERE client_id = :c ORDER BY name', {
          c: staffOf(req).clientId,
        })
      ).filter((t) => toSearchKey(t.name).includes(key));
      const start = (page - 1) * perPage;
      return res.json({
        data: {
          data: rows.slice(start, start + perPage).map((t) => ({ ...t, detail: null })),
          total: rows.length,
          page,
          per_page: perPage,
        },
      });
    }
    if (type === 'cities' && !countryId) throw badRequest('country_id', '¡El campo es requerido!');
    res.json(catalogues.search(type, q, countryId, page, perPage));
  });
  return r;
}
