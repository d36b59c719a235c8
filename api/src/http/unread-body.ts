import type { RequestHandler } from 'express';
import { AppError } from './errors.js';

/**
 * A request that declared a body which was never read because its client had already gone
 * (issue 52). The session is read before the body (sessionFirst); when the client closes its
 * connection meanwhile (a load generator ending a phase, a device losing its link), body-parser
 * finds the request finished and skips it, leaving `req.body` undefined, and the operation's
 * handler ran on nothing: a TypeError answered 500 and logged as an unhandled error. Refused here
 * as the interrupted request it is (400, held like any refusal of the request's shape for an
 * authenticated caller); no handler runs. Mounted right after the JSON parser.
 */
export const refuseUnreadBody: RequestHandler = (req, _res, next) => {
  const declared = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  if (req.body === undefined && declared && !req.socket?.readable)
    return next(new AppError(400, 'request_aborted', 'La petición se interrumpió antes de recibir su contenido.'));
  next();
};
