import { Router } from 'express';
import type { Sequelize } from 'sequelize';
import { select } from '../../db/sql.js';
import { requireStaff, staffOf } from '../../http/auth.js';
import { readListParams, sendList } from '../../http/list-params.js';
import { route } from '../../http/operations.js';

/** The SMS outbox, readable by admins of the client whose patients received the messages. */
export function smsOutboxRouter(sequelize: Sequelize): Router {
  const r = Router();
  route(r, 'listSmsOutbox', [requireStaff('administer')], async (req, res) => {
    const { offset, limit } = readListParams(req, 20);
    const to = typeof req.query.to === 'string' ? req.query.to : null;
    const where = `client_id = :c${to ? ' AND "to" = :to' : ''}`;
    const replacements = { c: staffOf(req).clientId, to, limit, offset };
    const rows = await select<{ id: number; to: string; body: string; status: string; created_at: string }>(
      sequelize,
      `SELECT id, "to", body, status, created_at FROM sms_outbox WHERE ${where} ORDER BY id DESC LIMIT :limit OFFSET :offset`,
      replacements,
    );
    const [{ n }] = await select<{ n: number }>(sequelize, `SELECT COUNT(*) AS n FROM sms_outbox WHERE ${where}`, replacements);
    sendList(
      res,
      rows.map((m) => ({ ...m, created_at: new Date(m.created_at).toISOString() })),
      Number(n),
    );
  });
  return r;
}
