/** Pure rules of the messaging channel: phone numbers, inbound payloads, message texts. */

/** The channel's id for a phone (WhatsApp `wa_id`): country prefix and number, digits only. */
export function waId(prefix: string | null | undefined, cellphone: string | null | undefined): string | null {
  const number = (cellphone ?? '').replace(/\D/g, '');
  if (number.length < 7) return null;
  return `${(prefix ?? '').replace(/\D/g, '')}${number}`;
}

/** The stored cellphones (7 to 11 digits, 01 §5) an inbound number can match: its trailing digits. */
export function phoneCandidates(from: string): string[] {
  const digits = from.replace(/\D/g, '');
  const out: string[] = [];
  for (let n = 7; n <= 11 && n <= digits.length; n++) out.push(digits.slice(-n));
  return out;
}

/** Picks the patient whose prefix + cellphone is exactly the inbound number (lowest id wins). */
export function matchPatient<T extends { id: number; prefix: string | null; cellphone: string | null }>(
  from: string,
  candidates: T[],
): T | null {
  const digits = from.replace(/\D/g, '');
  const exact = candidates.filter((p) => waId(p.prefix, p.cellphone) === digits).sort((a, b) => a.id - b.id);
  if (exact.length) return exact[0];
  // A number received without its country prefix matches the cellphone alone.
  const bare = candidates.filter((p) => (p.cellphone ?? '').replace(/\D/g, '') === digits).sort((a, b) => a.id - b.id);
  return bare[0] ?? null;
}

export type InboundEvent =
  | {
      type: 'message';
      providerId: string;
      from: string;
      at: Date | null;
      profileName: string | null;
      kind: 'text' | 'image' | 'audio' | 'other';
      text: string | null;
      mediaId: string | null;
      mime: string | null;
      filename: string | null;
      transcription: string | null;
    }
  | { type: 'status'; providerId: string; status: 'sent' | 'delivered' | 'read' | 'failed'; error: string | null };

const STATUSES = ['sent', 'delivered', 'read', 'failed'] as const;
const isStatus = (v: unknown): v is (typeof STATUSES)[number] => (STATUSES as readonly unknown[]).includes(v);

/** A WhatsApp-style payload as received: untrusted, so every leaf is checked before it is used. */
type WaMedia = { id?: unknown; mime_type?: unknown; filename?: unknown; caption?: unknown; transcription?: unknown };
type WaMessage = {
  id?: unknown;
  from?: unknown;
  timestamp?: unknown;
  type?: unknown;
  text?: { body?: unknown };
  image?: WaMedia;
  audio?: WaMedia;
};
type WaContact = { wa_id?: unknown; profile?: { name?: unknown } };
type WaStatus = { id?: unknown; status?: unknown; errors?: unknown };
const str = (v: unknown): string | null => (typeof v === 'string' && v.length ? v : typeof v === 'number' ? String(v) : null);

/** Flattens a WhatsApp-style webhook body into events; anything unrecognised is skipped. */
export function parseInbound(body: unknown): InboundEvent[] {
  const events: InboundEvent[] = [];
  const entries = Array.isArray((body as { entry?: unknown })?.entry) ? (body as { entry: unknown[] }).entry : [];
  for (const entry of entries) {
    const changes = Array.isArray((entry as { changes?: unknown })?.changes) ? (entry as { changes: unknown[] }).changes : [];
    for (const change of changes) {
      const value = (change as { value?: Record<string, unknown> })?.value ?? {};
      const contacts = Array.isArray(value.contacts) ? (value.contacts as WaContact[]) : [];
      for (const m of Array.isArray(value.messages) ? (value.messages as WaMessage[]) : []) {
        const providerId = str(m?.id);
        const from = str(m?.from);
        if (!providerId || !from || !/^\+?\d{7,15}$/.test(from)) continue;
        const contact = contacts.find((c) => str(c?.wa_id) === from) ?? contacts[0];
        const ts = Number(m.timestamp);
        const kind = m.type === 'text' || m.type === 'image' || m.type === 'audio' ? m.type : 'other';
        const media = kind === 'image' ? m.image : kind === 'audio' ? m.audio : null;
        events.push({
          type: 'message',
          providerId: providerId.slice(0, 120),
          from: from.replace(/\D/g, ''),
          at: Number.isFinite(ts) && ts > 0 ? new Date(ts * 1000) : null,
          profileName: str(contact?.profile?.name)?.slice(0, 120) ?? null,
          kind,
          text: (kind === 'text' ? str(m.text?.body) : str(media?.caption))?.slice(0, 4096) ?? null,
          mediaId: str(media?.id)?.slice(0, 200) ?? null,
          mime: str(media?.mime_type)?.slice(0, 100) ?? null,
          filename: str(media?.filename)?.slice(0, 200) ?? null,
          transcription: str(media?.transcription)?.slice(0, 4096) ?? null,
        });
      }
      for (const s of Array.isArray(value.statuses) ? (value.statuses as WaStatus[]) : []) {
        const providerId = str(s?.id);
        const status = s?.status;
        if (!providerId || !isStatus(status)) continue;
        const err = Array.isArray(s.errors) ? s.errors[0] : null;
        events.push({
          type: 'status',
          providerId,
          status,
          error: err ? (str(err.title) ?? str(err.message) ?? 'Error del proveedor') : null,
        });
      }
    }
  }
  return events;
}

/** Status moves forward only (a late 'sent' callback never undoes 'read'); 'failed' ends it. */
const RANK: Record<string, number> = { queued: 0, sent: 1, delivered: 2, read: 3, failed: 4 };
export function nextStatus(current: string, incoming: string): string {
  if (current === 'failed') return current;
  return (RANK[incoming] ?? -1) > (RANK[current] ?? -1) ? incoming : current;
}

/** The welcome template's text as shown in the chat (the provider renders its own copy). */
export function welcomeText(firstName: string, clientName: string): string {
  const name = firstName.trim().split(/\s+/)[0] ?? '';
  const pretty = name ? name.charAt(0).toUpperCase() + name.slice(1).toLowerCase() : '';
  return `Hola ${pretty}, ${clientName} le da la bienvenida a su acompañamiento por este canal. Aquí recibirá sus recordatorios y podrá escribirnos cuando lo necesite.`;
}

const EXT: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'audio/ogg': 'ogg',
  'audio/mpeg': 'mp3',
  'audio/mp4': 'm4a',
  'audio/aac': 'aac',
  'audio/amr': 'amr',
  'audio/wav': 'wav',
};

/** A safe file name for a stored attachment (the provider's name is only kept for display). */
export function attachmentFileName(messageId: number, mime: string | null): string {
  const ext = EXT[(mime ?? '').split(';')[0].trim().toLowerCase()] ?? 'bin';
  return `${messageId}.${ext}`;
}

/** Only images and audio are kept as chat attachments (01 §3). */
export function attachmentKind(mime: string | null): 'image' | 'audio' | null {
  const m = (mime ?? '').toLowerCase();
  if (m.startsWith('image/')) return 'image';
  if (m.startsWith('audio/')) return 'audio';
  return null;
}
