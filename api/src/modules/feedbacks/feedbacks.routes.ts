import { Router } from 'express';
import type { Sequelize } from 'sequelize';
import { requireStaff, staffOf } from '../../http/auth.js';
import { badRequest } from '../../http/errors.js';
import { route } from '../../http/operations.js';

export function feedbacksRouter(sequelize: Sequelize, now: () => Date): Router {
  const r = Router();
  route(r, 'createFeedback', [requireStaff()], async (req, res) => {
    const p = staffOf(req);
    const qualification = req.body.qualification ?? null;
    const message = typeof req.body.message === 'string' && req.body.message.trim() ? req.body.message.trim() : null;
    // The dialog keeps Enviar disabled when both are empty; the server agrees.
    if (qualification == null && message == null) throw badRequest('message', 'Seleccione una calificación o escriba un mensaje.');
    await sequelize.query('INSERT INTO feedbacks (client_id, user_id, qualification, message, created_at) VALUES (:c, :u, :q, :m, :now)', {
      replacements: { c: p.clientId, u: p.userId, q: qualification, m: message, now: now() },
    });
    res.status(201).json({ type: 'success', message: '¡Gracias por su opinión!' });
  });
  return r;
}
