import fs from 'node:fs';
import path from 'node:path';
import express, { Router } from 'express';
import { requireStaff, staffOf } from '../../http/auth.js';
import { AppError, notFound, unauthorized } from '../../http/errors.js';
import { attachment, type Downloads } from '../../http/downloads.js';
import { readListParams, sendList } from '../../http/list-params.js';
import { route, type OperationHandler } from '../../http/operations.js';
import { readIntParam } from '../../http/params.js';
import { select } from '../../db/sql.js';
import * as messages from './messages.service.js';
import { withoutControlCharacters } from '@vigia/contract/rules/validation';
import { handleInbound } from './messages.jobs.js';
import { parseInbound } from './messages.rules.js';

/** Staff calls of the chat (01 §7): messages page, composer, messaging info, welcome. */
export function messagesRouter(deps: messages.MessagingDeps): Router {
  const r = Router();
  route(r, 'listPatientMessages', [requireStaff()], async (req, res) => {
    res.json(
      await messages.listMessages(
        deps,
        staffOf(req).clientId,
        readIntParam(req, 'id'),
        req.query.page ?? 1,
        req.query.per_page ?? messages.CHAT_PAGE_SIZE,
      ),
    );
  });
  route(r, 'sendPatientMessage', [requireStaff('clinical.write')], async (req, res) => {
    res.status(201).json(await messages.sendStaffMessage(deps, staffOf(req), readIntParam(req, 'id'), req.body.text));
  });
  route(r, 'getPatientSmeInfo', [requireStaff()], async (req, res) => {
    res.json(await messages.getSmeInfo(deps, staffOf(req).clientId, readIntParam(req, 'id')));
  });
  const setInfo: OperationHandler<'updatePatientSmeInfo'> = async (req, res) => {
    res.json(await messages.setMessagingEnabled(deps, staffOf(req).clientId, readIntParam(req, 'id'), req.body.sme_enabled));
  };
  route(r, 'updatePatientSmeInfo', [requireStaff('patients.edit')], setInfo);
  route(r, 'patchPatientSmeInfo', [requireStaff('patients.edit')], setInfo);
  route(r, 'sendPatientWelcome', [requireStaff('clinical.write')], async (req, res) => {
    res.json(await messages.sendWelcome(deps, staffOf(req), readIntParam(req, 'id')));
  });
  route(r, 'listUnknownMessages', [requireStaff('administer')], async (req, res) => {
    const p = readListParams(req, 20);
    const { rows, total } = await messages.listUnknownMessages(deps, staffOf(req).clientId, p.offset, p.offset + p.limit, p.q);
    sendList(res, rows, total);
  });
  return r;
}

/** The provider's webhook: its own proof (HMAC over the raw body) instead of a staff token, mounted before the JSON parser. */
export function messagingPublicRouter(deps: messages.MessagingDeps): Router {
  const r = Router();
  r.post('/api/v1/messaging/webhook/:clientId', express.raw({ type: () => true, limit: '1mb' }), async (req, res) => {
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    if (!deps.channel.verifySignature(raw, req.get('x-hub-signature-256')))
      throw unauthorized('La firma del proveedor de mensajería no es válida.');
    const clientId = readIntParam(req, 'clientId');
    const [client] =
      Number.isInteger(clientId) && clientId > 0
        ? await select<{ id: number }>(deps.sequelize, 'SELECT id FROM clients WHERE id = :id', { id: clientId })
        : [];
    if (!client) throw notFound();
    let body: unknown;
    try {
      // A patient's message cannot be refused: control characters (NUL) are dropped, not stored (issue 18).
      body = withoutControlCharacters(JSON.parse(raw.toString('utf8')));
    } catch {
      throw new AppError(400, 'invalid_json', 'El cuerpo de la petición no es un JSON válido.', [
        { field: 'body', message: 'El cuerpo de la petición no es un JSON válido.' },
      ]);
    }
    const events = parseInbound(body);
    const stored = await handleInbound(deps, clientId, events);
    res.json({ received: events.length, stored });
  });
  return r;
}

/** Serves a chat attachment through the signed download links (D4), to staff of its client only. */
export function registerAttachmentDownloads(deps: messages.MessagingDeps, downloads: Downloads) {
  downloads.register(messages.ATTACHMENT_DOWNLOAD, async (claims, res) => {
    const [m] = await select<{ attachment_path: string | null; attachment_mime: string | null; attachment_filename: string | null }>(
      deps.sequelize,
      'SELECT attachment_path, attachment_mime, attachment_filename FROM messages WHERE id = :id AND client_id = :clientId',
      { id: Number(claims.params.message), clientId: claims.clientId },
    );
    if (!m?.attachment_path) throw notFound();
    const root = path.resolve(deps.dataDir, 'messages');
    const file = path.resolve(root, m.attachment_path);
    if (!file.startsWith(root + path.sep) || !fs.existsSync(file)) throw notFound();
    res.setHeader('Content-Type', m.attachment_mime ?? 'application/octet-stream');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    attachment(res, m.attachment_filename ?? path.basename(file), true);
    res.sendFile(file);
  });
  deps.downloads = downloads;
}
