import { Router } from 'express';
import { requireStaff, staffOf } from '../../http/auth.js';
import { readListParams, sendList } from '../../http/list-params.js';
import { route } from '../../http/operations.js';
import { readIntParam } from '../../http/params.js';
import * as tags from './tags.service.js';

export function tagsRouter(deps: tags.TagDeps): Router {
  const r = Router();
  route(r, 'listTags', [requireStaff()], async (req, res) => {
    const { rows, total } = await tags.listTags(deps, staffOf(req).clientId, readListParams(req, 10, tags.TAG_FIELDS));
    sendList(res, rows, total);
  });
  route(r, 'createTag', [requireStaff('administer')], async (req, res) => {
    res.status(201).json(await tags.createTag(staffOf(req).clientId, req.body));
  });
  route(r, 'getTag', [requireStaff()], async (req, res) => {
    res.json(await tags.getTag(deps, staffOf(req).clientId, readIntParam(req, 'id')));
  });
  route(r, 'updateTag', [requireStaff('administer')], async (req, res) => {
    res.json(await tags.updateTag(deps, staffOf(req).clientId, readIntParam(req, 'id'), req.body));
  });
  route(r, 'patchTag', [requireStaff('administer')], async (req, res) => {
    res.json(await tags.updateTag(deps, staffOf(req).clientId, readIntParam(req, 'id'), req.body));
  });
  route(r, 'deleteTag', [requireStaff('administer')], async (req, res) => {
    await tags.deleteTag(deps.sequelize, staffOf(req).clientId, readIntParam(req, 'id'));
    res.status(204).end();
  });
  return r;
}
