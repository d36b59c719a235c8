import { Router, type Request, type Response } from 'express';
import type { Sequelize } from 'sequelize';
import { requireStaff, staffOf } from '../../http/auth.js';
import { readListParams, sendList } from '../../http/list-params.js';
import { readIntParam } from '../../http/params.js';
import { findTag } from '../tags/tags.service.js';
import { patientForRead, patientForWrite } from '../observations/record-access.js';
import * as prompts from './prompts.service.js';

type OwnerOf = (req: Request, write: boolean) => Promise<prompts.PromptOwner>;

/**
 * AI instructions at three levels, one set of handlers: the client's (`/client_prompts`, admin
 * writes), a tag's (`/tags/{id}/prompts`, admin writes) and a patient's
 * (`/patients/{id}/prompts`, clinical staff write while the patient is not deceased).
 */
export function promptsRouter(sequelize: Sequelize, now: () => Date): Router {
  const r = Router();
  const mount = (base: string, ownerOf: OwnerOf, writeAction?: 'administer') => {
    const guard = writeAction ? requireStaff(writeAction) : requireStaff();
    r.get(base, requireStaff(), async (req, res) => {
      const { rows, total } = await prompts.listPrompts(
        sequelize,
        staffOf(req).clientId,
        await ownerOf(req, false),
        readListParams(req, 10),
      );
      sendList(res, rows, total);
    });
    r.post(base, guard, async (req, res) => {
      const p = staffOf(req);
      res.status(201).json(await prompts.createPrompt(sequelize, p.clientId, await ownerOf(req, true), req.body, p.userId, now()));
    });
    const update = async (req: Request, res: Response) => {
      res.json(
        await prompts.updatePrompt(
          sequelize,
          staffOf(req).clientId,
          await ownerOf(req, true),
          readIntParam(req, 'promptId'),
          req.body,
          now(),
        ),
      );
    };
    r.put(`${base}/:promptId`, guard, update);
    r.patch(`${base}/:promptId`, guard, update);
    r.delete(`${base}/:promptId`, guard, async (req, res) => {
      await prompts.deletePrompt(sequelize, staffOf(req).clientId, await ownerOf(req, true), readIntParam(req, 'promptId'));
      res.status(204).end();
    });
  };
  mount('/client_prompts', async (req) => ({ type: 'client', id: staffOf(req).clientId }), 'administer');
  mount(
    '/tags/:id/prompts',
    async (req) => ({ type: 'tag', id: (await findTag(staffOf(req).clientId, readIntParam(req, 'id'))).id }),
    'administer',
  );
  mount('/patients/:id/prompts', async (req, write) => {
    const id = readIntParam(req, 'id');
    const p = write ? await patientForWrite(staffOf(req), id, 'clinical.write') : await patientForRead(staffOf(req), id);
    return { type: 'patient', id: p.id };
  });
  return r;
}
