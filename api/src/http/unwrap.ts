import type { RequestHandler } from 'express';

/** Singular of the resource a path addresses: /patients/3/alerts/9 → 'alert'. */
export function singularOf(path: string): string | null {
  const segments = path
    .split('?')[0]
    .split('/')
    .filter((s) => s && !/^\d+$/.test(s));
  const last = segments.at(-1);
  if (!last) return null;
  if (last.endsWith('ies')) return `${last.slice(0, -3)}y`;
  if (last.endsWith('ses')) return last.slice(0, -2);
  return last.endsWith('s') ? last.slice(0, -1) : last;
}

/**
 * D21: callers of the existing product wrap a body in the resource's singular name
 * (`{"patient": {...}}`). Unwrap it once, here, before validation; keys beside the wrapper
 * (e.g. `password_confirmation` next to `user`) are kept.
 */
export const unwrapBody: RequestHandler = (req, _res, next) => {
  const body = req.body;
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const key = singularOf(req.path);
    const inner = key ? body[key] : undefined;
    if (inner && typeof inner === 'object' && !Array.isArray(inner)) {
      const { [key as string]: _, ...rest } = body;
      req.body = { ...inner, ...rest };
    }
  }
  next();
};
