import { Router } from 'express';
import type { Sequelize } from 'sequelize';
import { select } from '../../db/sql.js';
import { principalOf, requireStaff, staffOf } from '../../http/auth.js';
import { badRequest } from '../../http/errors.js';
import type { Catalogues } from './catalogues.service.js';
import { toSearchKey } from '@vigia/contract/rules/names';

export function cataloguesRouter(sequelize: Sequelize, catalogues: Catalogues): Router {
  const r = Router();
  r.get('/listings/id_types_full', async (req, res) => {
    principalOf(req);
    const countryId = Number(req.query.country_id);
    res.json({
      data: catalogues
        .idTypesFull(countryId)
        .map(({ id, code, name, country_id, validation_regex }) => ({ id, code, name, country_id, validation_regex })),
    });
  });
  r.get('/listings/:list_name', async (req, res) => {
    principalOf(req);
    const name = req.params.list_name as Parameters<Catalogues['listing']>[0] | 'tags';
    const countryId = req.query.country_id ? Number(req.query.country_id) : undefined;
    if (name === 'tags') {
      const rows = await select<{ id: number; name: string }>(sequelize, 'SELECT id, name FROM tags WHERE client_id = :c ORDER BY name', {
        c: principalOf(req).clientId,
      });
      return res.json({ data: Object.fromEntries(rows.map((t) => [String(t.id), t.name])) });
    }
    res.json({ data: catalogues.listing(name, countryId) });
  });
  r.get('/search', requireStaff(), async (req, res) => {
    const type = req.query.type as string;
    const q = (req.query.q as string | undefined) ?? '';
    const page = Number(req.query.page ?? 1);
    const perPage = Number(req.query.per_page ?? 20);
    const countryId = req.query.country_id ? Number(req.query.country_id) : undefined;
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
    res.json(catalogues.search(type as Parameters<Catalogues['search']>[0], q, countryId, page, perPage));
  });
  return r;
}
