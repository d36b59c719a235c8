import { Router, type Request, type Response } from 'express';
import type { Sequelize } from 'sequelize';
import type { components } from '@vigia/contract/openapi';
import { requireStaff, staffOf } from '../../http/auth.js';
import { readListParams, sendList } from '../../http/list-params.js';
import { route } from '../../http/operations.js';
import { readIntParam } from '../../http/params.js';
import { findTag } from '../tags/tags.service.js';
import { patientForRead, patientForWrite } from '../observations/record-access.js';
import * as prompts from './prompts.service.js';

type S = components['schemas'];
/** What the three levels' operations share: the session and the path (`id` of the tag or patient, `promptId`). */
type PromptRequest = Pick<Request, 'user'> & { params: object };
type OwnerOf = (req: PromptRequest, write: boolean) => Promise<prompts.PromptOwner>;

/**
 * AI instructions at three levels, one set of handlers: the client's (`/client_prompts`, admin
 * writes), a tag's (`/tags/{id}/prompts`, admin writes) and a patient's
 * (`/patients/{id}/prompts`, clinical staff write while the patient is not deceased).
 */
export function promptsRouter(sequelize: Sequelize, now: () => Date): Router {
  const r = Router();
  const handlers = (ownerOf: OwnerOf) => ({
    list: async (req: PromptRequest & { query: object }, res: Response) => {
      const { rows, total } = await prompts.listPrompts(
        sequelize,
        staffOf(req).clientId,
        await ownerOf(req, false),
        readListParams(req, 10),
      );
      sendList(res, rows, total);
    },
    create: async (req: PromptRequest & { body: S['PromptInput'] }, res: Response<S['Prompt']>) => {
      const p = staffOf(req);
      res.status(201).json(await prompts.createPrompt(sequelize, p.clientId, await ownerOf(req, true), req.body, p.userId, now()));
    },
    update: async (req: PromptRequest & { body: S['PromptUpdate'] }, res: Response<S['Prompt']>) => {
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
    },
    remove: async (req: PromptRequest, res: Response) => {
      await prompts.deletePrompt(sequelize, staffOf(req).clientId, await ownerOf(req, true), readIntParam(req, 'promptId'));
      res.status(204).end();
    },
  });

  const client = handlers(async (req) => ({ type: 'client', id: staffOf(req).clientId }));
  const clientWrite = requireStaff('administer');
  route(r, 'listClientPrompts', [requireStaff()], client.list);
  route(r, 'createClientPrompt', [clientWrite], client.create);
  route(r, 'updateClientPrompt', [clientWrite], client.update);
  route(r, 'patchClientPrompt', [clientWrite], client.update);
  route(r, 'deleteClientPrompt', [clientWrite], client.remove);

  const tag = handlers(async (req) => ({ type: 'tag', id: (await findTag(staffOf(req).clientId, readIntParam(req, 'id'))).id }));
  const tagWrite = requireStaff('administer');
  route(r, 'listTagPrompts', [requireStaff()], tag.list);
  route(r, 'createTagPrompt', [tagWrite], tag.create);
  route(r, 'updateTagPrompt', [tagWrite], tag.update);
  route(r, 'patchTagPrompt', [tagWrite], tag.update);
  route(r, 'deleteTagPrompt', [tagWrite], tag.remove);

  const patient = handlers(async (req, write) => {
    const id = readIntParam(req, 'id');
    const p = write ? await patientForWrite(staffOf(req), id, 'clinical.write') : await patientForRead(staffOf(req), id);
    return { type: 'patient', id: p.id };
  });
  const patientWrite = requireStaff('clinical.write');
  route(r, 'listPatientPrompts', [requireStaff()], patient.list);
  route(r, 'createPatientPrompt', [patientWrite], patient.create);
  route(r, 'updatePatientPrompt', [patientWrite], patient.update);
  route(r, 'patchPatientPrompt', [patientWrite], patient.update);
  route(r, 'deletePatientPrompt', [patientWrite], patient.remove);
  return r;
}
