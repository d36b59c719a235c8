import { Router, type Request, type Response } from 'express';
import { requireStaff, staffOf } from '../../http/auth.js';
import { readListParams, sendList } from '../../http/list-params.js';
import { readIntParam } from '../../http/params.js';
import * as tags from './tags.service.js';

export function tagsRouter(deps: tags.TagDeps): Router {
  const r = Router();
  r.get('/tags', requireStaff(), async (req, res) => {
    const { rows, total } = await tags.listTags(deps, staffOf(req).clientId, readListParams(req, 10), {
      color: req.query.color as string | undefined,
    });
    sendList(res, rows, total);
  });
  r.post('/tags', requireStaff('administer'), async (req, res) => {
    res.status(201).json(await tags.createTag(staffOf(req).clientId, req.body));
  });
  r.get('/tags/:id', requireStaff(), async (req, res) => {
    res.json(await tags.getTag(deps, staffOf(req).clientId, readIntParam(req, 'id')));
  });
  const update = async (req: Request, res: Response) => {
    res.json(await tags.updateTag(deps, staffOf(req).clientId, readIntParam(req, 'id'), req.body));
  };
  r.put('/tags/:id', requireStaff('administer'), update);
  r.patch('/tags/:id', requireStaff('administer'), update);
  r.delete('/tags/:id', requireStaff('administer'), async (req, res) => {
    await tags.deleteTag(deps.sequelize, staffOf(req).clientId, readIntParam(req, 'id'));
    res.status(204).end();
  });
  return r;
}
