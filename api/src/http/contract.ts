import fs from 'node:fs';
import { createRequire } from 'node:module';
import { rootPath } from '../paths.js';
import yaml from 'js-yaml';
import * as OpenApiValidator from 'express-openapi-validator';
import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import { AppError, type FieldError } from './errors.js';
import { MESSAGES, controlCharacterPath, nonFinitePath } from '@vigia/contract/rules/validation';
import {
  derefSchema,
  findPropertySchema,
  ruleMessage,
  withValueRanges,
  type JsonSchema,
  type OpenApiDocument,
  type OpenApiOperation,
  type OpenApiParameter,
} from '@vigia/contract/rules/schema';

const CONTRACT_PATH = rootPath('openapi.yaml');

export type Contract = OpenApiDocument;

/**
 * openapi.yaml as data. js-yaml with its core schema (no timestamps, as the `yaml` package's
 * default reads it: contract.test.ts holds the two equal) parses the 9,000 lines in ~0.2 s where
 * `yaml` took ~1.5 s, and every process that serves the API parses it once: each test file's app,
 * each server a test starts, each production start (P258).
 */
export function parseContract(text: string): Contract {
  return yaml.load(text, { schema: yaml.CORE_SCHEMA }) as Contract;
}

let cached: { text: string; doc: Contract } | null = null;
export function loadContract(): { text: string; doc: Contract } {
  if (!cached) {
    const text = fs.readFileSync(CONTRACT_PATH, 'utf8');
    // Every number held to its column's range (schema.ts withValueRanges): the validator and the
    // error messages read the same bounds.
    cached = { text, doc: withValueRanges(parseContract(text)) };
  }
  return cached;
}

interface EovError {
  status?: number;
  errors?: Array<{ path: string; message: string; errorCode?: string }>;
  message?: string;
}

/** What express-openapi-validator leaves on the request: the matched operation of the contract. */
type ValidatedRequest = Request & { openapi?: { schema?: OpenApiOperation; pathItem?: { parameters?: OpenApiParameter[] } } };

function rootSchemaFor(doc: Contract, req: ValidatedRequest, location: string): JsonSchema | undefined {
  const op = req.openapi?.schema;
  if (!op) return undefined;
  if (location === 'body') return op.requestBody?.content?.['application/json']?.schema;
  const params = [...(op.parameters ?? []), ...(req.openapi?.pathItem?.parameters ?? [])].map((p) => derefSchema(doc, p)!);
  return {
    type: 'object',
    // Node gives header names in lower case; the contract spells them as HTTP does (Idempotency-Key).
    properties: Object.fromEntries(
      params.filter((p) => p.in === location).map((p) => [location === 'header' ? (p.name ?? '').toLowerCase() : p.name, p.schema ?? {}]),
    ),
  };
}

/** A header the operation declares, named as the contract spells it ('idempotency-key' → 'Idempotency-Key'). */
function headerName(doc: Contract, req: ValidatedRequest, lower: string | undefined): string | undefined {
  const declared = [...(req.openapi?.schema?.parameters ?? []), ...(req.openapi?.pathItem?.parameters ?? [])]
    .map((p) => derefSchema(doc, p)!)
    .find((p) => p.in === 'header' && p.name?.toLowerCase() === lower);
  return declared?.name ?? lower;
}

/** Turns express-openapi-validator's English errors into our error body. */
export function createContractErrorTranslator(doc: Contract): ErrorRequestHandler {
  return (err: EovError & Error, req, _res, next) => {
    if (err instanceof AppError || !Array.isArray(err.errors) || !err.status) return next(err);
    if (err.status === 404 || err.status === 405) {
      return next(
        new AppError(
          err.status,
          err.status === 404 ? 'not_found' : 'method_not_allowed',
          err.status === 404 ? 'La ruta solicitada no existe.' : 'Método no permitido en esta ruta.',
        ),
      );
    }
    if (err.status === 415) return next(new AppError(415, 'unsupported_media_type', 'El contenido debe enviarse como JSON.'));
    if (err.status === 401) return next(new AppError(401, 'unauthorized', 'Su sesión no es válida o ha expirado. Inicie sesión de nuevo.'));
    if (err.status !== 400) return next(err);
    const seen = new Set<string>();
    const errors: FieldError[] = [];
    for (const e of err.errors) {
      const parts = e.path.replace(/^\./, '/').split(/[/.]/).filter(Boolean);
      const location = ['body', 'query', 'params', 'path', 'headers'].includes(parts[0]) ? parts.shift()! : 'body';
      const keyword = (e.errorCode ?? '').replace('.openapi.validation', '') || (/required/.test(e.message) ? 'required' : 'unknown');
      const schemaLocation = location === 'params' ? 'path' : location === 'headers' ? 'header' : location;
      const schema = findPropertySchema(doc, rootSchemaFor(doc, req, schemaLocation), parts);
      const field = (location === 'headers' ? headerName(doc, req, parts[0]) : parts.join('.')) || location;
      if (seen.has(field)) continue;
      seen.add(field);
      // A query parameter the operation does not declare (allowUnknownQueryParameters: false).
      if (location === 'query' && /^Unknown query parameter/.test(e.message))
        errors.push({ field, message: `El parámetro '${field}' no está permitido en esta consulta.` });
      else errors.push({ field, message: ruleMessage(keyword, schema, field) });
    }
    if (!errors.length) errors.push({ field: 'body', message: 'La petición no es válida.' });
    next(new AppError(400, 'validation_error', errors[0].message, errors));
  };
}

/** require() as express-openapi-validator sees it: its own copies of its dependencies and files. */
export const validatorRequire = () => createRequire(createRequire(import.meta.url).resolve('express-openapi-validator'));

/**
 * express-openapi-validator finds a request's operation by compiling every route of the contract
 * with path-to-regexp again on every request (openapi.metadata.js, lookupRoute): ~150 compilations
 * per request, a third of its cost (bench: 1.2 ms of CPU per reading). The compiled pattern
 * depends only on the route and the options, and a non-global RegExp keeps no state, so the
 * validator's own copy of path-to-regexp gets a cache.
 */
function memoiseRouteCompilation(): void {
  const ptr = validatorRequire()('path-to-regexp') as {
    pathToRegexp: (path: string, opts?: { sensitive?: boolean; strict?: boolean }) => unknown;
    memoised?: boolean;
  };
  if (ptr.memoised) return;
  const compile = ptr.pathToRegexp;
  const cache = new Map<string, unknown>();
  ptr.pathToRegexp = (route: string, opts?: { sensitive?: boolean; strict?: boolean }) => {
    // The validator passes exactly these two options, from the app's settings.
    const key = `${opts?.sensitive ? 1 : 0}${opts?.strict ? 1 : 0}${route}`;
    let hit = cache.get(key);
    if (!hit) cache.set(key, (hit = compile(route, opts)));
    return hit;
  };
  ptr.memoised = true;
}

type Middleware = (req: Request, res: unknown, next: (err?: unknown) => void) => void;
interface OpenApiContextLike {
  expressRouteMap: Record<string, unknown>;
}

/**
 * The validator then still tries the contract's ~150 routes one by one on every request until one
 * matches (lookupRoute, 4% of a stored reading's CPU). Which route matches first depends only on
 * the request's method and shape when no route has an all-digit literal segment: a numeric segment
 * can only fill a parameter. So the route found for `POST /api/v1/patients/<n>/measurements` is
 * remembered, and later requests of that shape are looked up among that one route only (same
 * code, same answer, same path parameters); anything else gets the full list.
 */
function rememberRouteByShape(): void {
  const metadata = validatorRequire()('./middlewares/openapi.metadata') as {
    applyOpenApiMetadata: (ctx: OpenApiContextLike, responseApiDoc?: unknown) => Middleware;
    shapeAware?: boolean;
  };
  if (metadata.shapeAware) return;
  const original = metadata.applyOpenApiMetadata;
  metadata.applyOpenApiMetadata = (ctx, responseApiDoc) => {
    const all = ctx.expressRouteMap;
    if (responseApiDoc || Object.keys(all).some((route) => route.split('/').some((seg) => /^\d+$/.test(seg))))
      return original(ctx, responseApiDoc);
    let current = all;
    // The original reads expressRouteMap from here on each request: the full list, or one route.
    const view = Object.create(ctx, { expressRouteMap: { get: () => current } }) as OpenApiContextLike;
    const lookup = original(view, responseApiDoc);
    const byShape = new Map<string, Record<string, unknown>>();
    return (req, res, next) => {
      const shape = `${req.method} ${req.originalUrl.split('?')[0].replace(/\/\d+(?=\/|$)/g, '/#')}`;
      const known = byShape.get(shape);
      current = known ?? all;
      try {
        lookup(req, res, next);
      } finally {
        current = all;
      }
      const route = (req as Request & { openapi?: { expressRoute?: string } }).openapi?.expressRoute;
      if (!known && route && route in all) {
        // Tokens and card ids make shapes too: kept to a bounded number.
        if (byShape.size >= 5000) byShape.clear();
        byShape.set(shape, { [route]: all[route] });
      }
    };
  };
  metadata.shapeAware = true;
}

interface SchemaPreprocessorLike {
  ajv: { schemas: Record<string, { schema?: unknown } | undefined> };
  resolvedSchemaCache: Map<string, unknown>;
  resolveSchema(schema: unknown): unknown;
}
interface SchemaPreprocessorPrototype {
  resolveSchema(this: SchemaPreprocessorLike, schema: unknown): unknown;
  /** The validator's own resolveSchema, kept for contract.test.ts's comparison. */
  compilingResolveSchema?: (this: SchemaPreprocessorLike, schema: unknown) => unknown;
}

/** The validator's schema pre-processor, as contract.test.ts builds it to compare both ways. */
export function schemaPreprocessorClass(): {
  new (apiDoc: unknown, ajvOptions: unknown, responses: unknown): SchemaPreprocessorLike & { preProcess(): { apiDoc: unknown } };
  prototype: SchemaPreprocessorPrototype;
} {
  return (
    validatorRequire()('./middlewares/parsers/schema.preprocessor') as { SchemaPreprocessor: ReturnType<typeof schemaPreprocessorClass> }
  ).SchemaPreprocessor;
}

/**
 * Before its first request is judged, the validator walks the contract and resolves each `$ref`
 * with `ajv.getSchema(ref).schema` (schema.preprocessor.js resolveSchema): getSchema *compiles* the
 * component into a validation function only to hand back the schema object it was given. The
 * 244 component schemas of openapi.yaml cost every API process ~0.6 s of CPU there alone (1.9 s
 * on a loaded machine), and those functions are thrown away: requests are validated by another
 * Ajv.
 * A component schema is read from the same Ajv's store without compiling: the same object
 * getSchema returns (contract.test.ts compares the pre-processed contract both ways). Any other
 * reference goes the validator's own way.
 */
function resolveRefsWithoutCompiling(): void {
  const proto = schemaPreprocessorClass().prototype;
  if (proto.compilingResolveSchema) return;
  const compiling = proto.resolveSchema;
  proto.compilingResolveSchema = compiling;
  proto.resolveSchema = function (schema) {
    const ref = (schema as { $ref?: unknown } | null)?.$ref;
    if (typeof ref === 'string' && !this.resolvedSchemaCache.has(ref)) {
      const stored = this.ajv.schemas[ref]?.schema;
      if (stored !== undefined) {
        this.resolvedSchemaCache.set(ref, stored);
        return stored;
      }
    }
    return compiling.call(this, schema);
  };
}

/** express-openapi-validator's options for the contract (contract.test.ts builds its pre-processor from them). */
export function contractValidatorOptions(doc: Contract): Parameters<typeof OpenApiValidator.middleware>[0] {
  return {
    apiSpec: structuredClone(doc) as unknown as Parameters<typeof OpenApiValidator.middleware>[0]['apiSpec'],
    validateRequests: { allowUnknownQueryParameters: false, coerceTypes: true, removeAdditional: false },
    validateResponses: false,
    validateSecurity: false,
    validateFormats: true,
    // 'full': a date is checked against the calendar (2026-02-30 and 2026-02-29 are refused with 400);
    // the default 'fast' mode checks only the digits' shape, and PostgreSQL then failed the statement.
    ajvFormats: { mode: 'full' },
    ignoreUndocumented: false,
    // The document itself is checked by `npm run lint:contract` (Redocly and Spectral, stricter than
    // the validator's own check against the OpenAPI schema), which `npm test` runs first: checked
    // again on every start it cost each process ~1.2 s (P258).
    validateApiSpec: false,
    ignorePaths: (p: string) => !p.startsWith('/api/v1/'),
  };
}

/** Validates every /api/v1 request against openapi.yaml before a handler runs. */
export function createContractValidator(doc: Contract): RequestHandler[] {
  memoiseRouteCompilation();
  rememberRouteByShape();
  resolveRefsWithoutCompiling();
  return OpenApiValidator.middleware(contractValidatorOptions(doc)) as unknown as RequestHandler[];
}

/**
 * Values no column can hold are refused with the field's name (issue 18), after the contract
 * validator has coerced query and path text (so the parameters are known by name):
 * - text with control characters other than tab and newline: NUL cut SQLite statements, and
 *   PostgreSQL cannot store it;
 * - numbers that are not finite: `1e309` is valid JSON that reads as Infinity, and the validator's
 *   `maximum` lets Infinity through.
 */
export const rejectUnsafeValues: RequestHandler = (req, _res, next) => {
  const pathParams = (req as ValidatedRequest & { openapi?: { pathParams?: Record<string, unknown> } }).openapi?.pathParams ?? req.params;
  const sources = [req.body, req.query, pathParams];
  let segment: string | null;
  try {
    segment = controlCharacterPath(decodeURIComponent(req.path)) && 'path';
  } catch {
    segment = null;
  }
  const text = sources.reduce<string | null>((found, source) => found ?? controlCharacterPath(source), null) ?? segment;
  if (text) return next(fieldError(text, MESSAGES.controlCharacters));
  const number = sources.reduce<string | null>((found, source) => found ?? nonFinitePath(source), null);
  if (number) return next(fieldError(number, MESSAGES.finiteNumber));
  next();
};

/**
 * Who may call an operation is decided before what they sent is judged (issue 49). For an
 * operation that needs a session, sessionFirst has already authenticated the caller; a refusal of
 * the request's shape (malformed JSON, the contract's 400 or 415, an unsafe value) is held on the
 * request, the remaining checks are skipped, and the operation's binding (operations.ts `route`)
 * raises it after its guards: a patient's token on a staff operation, or a role without the
 * right, gets its 401/403 and learns nothing of the schema; the right caller gets the same 400 as
 * before. Public operations are refused at once, as before; an unknown route is still a 404.
 */
const heldRefusals = new WeakMap<Request, unknown>();

const isShapeRefusal = (err: unknown) => {
  const status = (err as { status?: unknown; statusCode?: unknown } | null)?.status ?? (err as { statusCode?: unknown } | null)?.statusCode;
  return status === 400 || status === 413 || status === 415;
};

/** The request checks, each holding its refusal for an authenticated caller (see above). */
export function holdingRefusals(checks: RequestHandler[]): RequestHandler[] {
  return checks.map((check): RequestHandler => (req, res, next) => {
    if (heldRefusals.has(req)) return next();
    const done = (err?: unknown) => {
      if (err && isShapeRefusal(err) && req.user?.principal) {
        heldRefusals.set(req, err);
        return next();
      }
      next(err as Error);
    };
    try {
      return check(req, res, done);
    } catch (err) {
      done(err);
    }
  });
}

/** Mounted after an operation's guards: the refusal held for its request, if any. */
export const raiseHeldRefusal: RequestHandler = (req, _res, next) => {
  const err = heldRefusals.get(req);
  if (err === undefined) return next();
  heldRefusals.delete(req);
  next(err);
};

function fieldError(field: string, message: string): AppError {
  return new AppError(400, 'validation_error', `${message.slice(0, -1)} ('${field}').`, [{ field, message }]);
}
