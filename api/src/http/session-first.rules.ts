/**
 * Which requests need a session before anything else looks at them (issue 41): an anonymous call
 * to a secured operation answers 401 before the contract validator runs, so a stranger learns
 * nothing of the operation's schema from a 400. Read from the contract's `security`: an operation
 * without its own inherits the document's (bearer); `security: []` and the device secret are
 * public, and those keep being validated first.
 */

interface SecuredContract {
  security?: Array<Record<string, string[]>>;
  servers?: Array<{ url: string }>;
  paths: Record<string, Record<string, unknown>>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

interface Route {
  pattern: RegExp;
  literals: number;
  needsSession: boolean;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const needsBearer = (security: Array<Record<string, string[]>> | undefined) => (security ?? []).some((s) => 'bearer' in s);

/** A predicate: does `METHOD /full/path` (the server's prefix included) name an operation that needs a session? */
export function sessionRequirement(doc: SecuredContract): (method: string, path: string) => boolean {
  const prefix = (doc.servers?.[0]?.url ?? '').replace(/\/$/, '');
  // By method and first segment (every path of the contract starts with a fixed one): a request
  // is tried against a handful of routes, not the contract's hundred-odd.
  const groups = new Map<string, Route[]>();
  for (const [path, item] of Object.entries(doc.paths)) {
    const segments = path.split('/').filter(Boolean);
    // A parameter may fill a whole segment or part of one (`patient_id={id}`).
    const source = segments
      .map(
        (s) =>
          `/${s
            .split(/\{[^}]+\}/)
            .map(escape)
            .join('[^/]+')}`,
      )
      .join('');
    const pattern = new RegExp(`^${escape(prefix)}${source}/?$`);
    const literals = segments.filter((s) => !s.includes('{')).length;
    for (const method of METHODS) {
      const op = item[method] as { security?: Array<Record<string, string[]>> } | undefined;
      if (!op) continue;
      const key = `${method.toUpperCase()} ${segments[0] ?? ''}`;
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key)!.push({ pattern, literals, needsSession: needsBearer(op.security ?? doc.security) });
    }
  }
  // `/patients/export` before `/patients/{id}`: the route with more fixed segments names the operation.
  for (const routes of groups.values()) routes.sort((a, b) => b.literals - a.literals);
  return (method, path) => {
    if (!path.startsWith(`${prefix}/`)) return false;
    const m = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
    const first = path.slice(prefix.length + 1).split('/', 1)[0];
    return groups.get(`${m} ${first}`)?.find((r) => r.pattern.test(path))?.needsSession ?? false;
  };
}
