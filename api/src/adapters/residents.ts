/**
 * Care-residence management product (D18): residents looked up by their code. The product is
 * reached over HTTP at the client's `residents_url` with the client's API user and password
 * (HTTP Basic): `GET {residents_url}/residents/{code}` answers the resident as JSON, 404 when no
 * resident has that code. Without a URL the integration is off (the local default).
 */
interface ResidentsSettings {
  enabled: boolean;
  url: string | null;
  user: string | null;
  password: string | null;
}

interface ResidentRecord {
  full_name: string;
  document_id: string;
  document_id_type: string;
  code: string;
  id: number | string;
}

export class ResidentsUnavailable extends Error {}
export class ResidentsOff extends Error {}

const TIMEOUT_MS = 8000;

/** Field names vary between versions of the product; these are the ones we accept. */
function toRecord(body: Record<string, unknown>, code: string): ResidentRecord | null {
  const pick = (...keys: string[]) => keys.map((k) => body[k]).find((v) => typeof v === 'string' || typeof v === 'number');
  const id = pick('id', 'resident_id');
  const fullName = pick('full_name', 'nombre_completo', 'name');
  if (id == null || fullName == null) return null;
  return {
    full_name: String(fullName),
    document_id: String(pick('document_id', 'documento') ?? ''),
    document_id_type: String(pick('document_id_type', 'tipo_documento') ?? ''),
    code: String(pick('code', 'codigo') ?? code),
    id: id as number | string,
  };
}

export interface ResidentsAdapter {
  /** The resident, or null when the product says no resident has that code. */
  findByCode(settings: ResidentsSettings, code: string): Promise<ResidentRecord | null>;
}

export function createResidentsAdapter(fetchImpl: typeof fetch = fetch): ResidentsAdapter {
  return {
    async findByCode(settings, code) {
      if (!settings.enabled || !settings.url) throw new ResidentsOff();
      const url = `${settings.url.replace(/\/+$/, '')}/residents/${encodeURIComponent(code)}`;
      const headers: Record<string, string> = { Accept: 'application/json' };
      if (settings.user) headers.Authorization = `Basic ${Buffer.from(`${settings.user}:${settings.password ?? ''}`).toString('base64')}`;
      let response: Response;
      try {
        response = await fetchImpl(url, { headers, signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'error' });
      } catch {
        throw new ResidentsUnavailable('No fue posible comunicarse con el sistema de residentes.');
      }
      if (response.status === 404) return null;
      if (response.status === 401 || response.status === 403) {
        throw new ResidentsUnavailable('El sistema de residentes rechazó el usuario o la contraseña de la integración.');
      }
      if (!response.ok) throw new ResidentsUnavailable(`El sistema de residentes respondió con un error (${response.status}).`);
      let body: unknown;
      try {
        body = await response.json();
      } catch {
        throw new ResidentsUnavailable('El sistema de residentes envió una respuesta no válida.');
      }
      const record = body && typeof body === 'object' ? toRecord(body as Record<string, unknown>, code) : null;
      if (!record) throw new ResidentsUnavailable('El sistema de residentes envió una respuesta no válida.');
      return record;
    },
  };
}
