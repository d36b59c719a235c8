import type { ErrorRequestHandler, RequestHandler } from 'express';
import { databaseFailureOf } from '../db/unavailable.rules.js';

export interface FieldError {
  field: string;
  message: string;
}

/** An error the API answers on purpose: stable `code`, Spanish `message` the UI can show. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly errors: FieldError[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (field: string, message: string) => new AppError(400, 'validation_error', message, [{ field, message }]);
export const unauthorized = (message = 'Su sesión no es válida o ha expirado. Inicie sesión de nuevo.') =>
  new AppError(401, 'unauthorized', message);
export const forbidden = (message = 'Su rol no permite realizar esta acción.') => new AppError(403, 'forbidden', message);
export const notFound = (message = 'No encontramos el registro solicitado.') => new AppError(404, 'not_found', message);
export const conflict = (message: string, field?: string) => new AppError(409, 'conflict', message, field ? [{ field, message }] : []);
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new AppError(429, 'too_many_requests', message, [], { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
const unavailable = (message: string, retryAfterSeconds = 5) =>
  new AppError(503, 'unavailable', message, [], { 'Retry-After': String(retryAfterSeconds) });

export const notFoundRoute: RequestHandler = (_req, _res, next) => next(notFound('La ruta solicitada no existe.'));

interface ErrorLike {
  status?: number;
  statusCode?: number;
  type?: string;
  name?: string;
  code?: string;
  message?: string;
  errors?: unknown;
}

/**
 * The database's state is not a bug: unreachable (refused, cut, renamed, its file unopenable) or
 * busy (a lock, a full disk) is a 503 with Retry-After on every route, the FHIR API's included;
 * null for anything else.
 */
export function databaseUnavailable(err: unknown): AppError | null {
  if (err instanceof AppError) return null;
  const failure = databaseFailureOf(err);
  if (failure === 'unreachable') return unavailable('La base de datos no responde en este momento. Intente de nuevo en unos segundos.');
  if (failure === 'busy') return unavailable('El servicio está ocupado en este momento. Intente de nuevo en unos segundos.');
  return null;
}

export function createErrorHandler(log: (msg: string, err: unknown) => void): ErrorRequestHandler {
  return (err: ErrorLike & Error, _req, res, _next) => {
    if (res.headersSent) return;
    let e: AppError;
    let database: AppError | null;
    if (err instanceof AppError) e = err;
    else if (err.type === 'entity.parse.failed')
      e = new AppError(400, 'invalid_json', 'El cuerpo de la petición no es un JSON válido.', [
        { field: 'body', message: 'El cuerpo de la petición no es un JSON válido.' },
      ]);
    else if (err.type === 'entity.too.large') e = new AppError(413, 'payload_too_large', 'La petición es demasiado grande.');
    else if (err.type === 'encoding.unsupported' || err.type === 'charset.unsupported')
      e = new AppError(415, 'unsupported_encoding', 'Codificación no soportada.');
    else if (err.name === 'SequelizeUniqueConstraintError') e = conflict('Ya existe un registro con esos datos.');
    else if (err.name === 'SequelizeForeignKeyConstraintError')
      e = new AppError(400, 'validation_error', 'Uno de los registros relacionados no existe.');
    else if ((database = databaseUnavailable(err))) e = database;
    else {
      log('unhandled error', err);
      e = new AppError(500, 'internal_error', 'Ocurrió un error inesperado. Intente nuevamente.');
    }
    for (const [k, v] of Object.entries(e.headers)) res.setHeader(k, v);
    res.status(e.status).json({
      code: e.code,
      message: e.message,
      ...(e.errors.length ? { field: e.errors[0].field, errors: e.errors } : {}),
    });
  };
}
