/** Pure rules of the messaging channel: phone numbers, inbound payloads, message texts. */
import type { ChannelFailure } from '../../adapters/messaging.js';

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
      profileName: string | null;
      kind: 'text' | 'image' | 'audio' | 'other';
      text: string | null;
      mediaId: string | null;
      mime: string | null;
      filename: string | null;
      transcription: string | null;
    }
  /** errorCode: the provider's numeric error code of a failed delivery, when it gave one. */
  | { type: 'status'; providerId: string; status: 'sent' | 'delivered' | 'read' | 'failed'; errorCode: string | null };

const STATUSES = ['sent', 'delivered', 'read', 'failed'] as const;
const isStatus = (v: unknown): v is (typeof STATUSES)[number] => (STATUSES as readonly unknown[]).includes(v);

/** A WhatsApp-style payload as received: untrusted, so every leaf is checked before it is used. */
type WaMedia = { id?: unknown; mime_type?: unknown; filename?: unknown; caption?: unknown; transcription?: unknown };
type WaMessage = {
  id?: unknown;
  from?: unknown;
  type?: unknown;
  text?: { body?: unknown };
  image?: WaMedia;
  audio?: WaMedia;
};
type WaContact = { wa_id?: unknown; profile?: { name?: unknown } };
type WaStatus = { id?: unknown; status?: unknown; errors?: { code?: unknown }[] };
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
        const kind = m.type === 'text' || m.type === 'image' || m.type === 'audio' ? m.type : 'other';
        const media = kind === 'image' ? m.image : kind === 'audio' ? m.audio : null;
        events.push({
          type: 'message',
          providerId: providerId.slice(0, 120),
          from: from.replace(/\D/g, ''),
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
        // Only the code is kept: the provider's title and message are in English (P148).
        const code = Array.isArray(s.errors) ? str(s.errors[0]?.code) : null;
        events.push({ type: 'status', providerId, status, errorCode: code && /^\d{1,10}$/.test(code) ? code : null });
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

/**
 * What the chat shows (ChatMessage.error) when a message could not be sent, by kind of failure:
 * always Spanish, never an exception's or the provider's own text (P148). `retrying` adds that the
 * job will try again.
 */
type SendFailure = ChannelFailure | 'no_phone' | 'internal';
export function sendFailureText(failure: SendFailure, httpStatus: number | null, retrying: boolean): string {
  const code = httpStatus ? ` (código ${httpStatus})` : '';
  const base: Record<SendFailure, string> = {
    no_phone: 'El paciente no tiene un número de celular válido',
    unreachable: 'No se pudo conectar con el proveedor de mensajería',
    timeout: 'El proveedor de mensajería no respondió a tiempo',
    refused: `El proveedor de mensajería rechazó el mensaje${code}`,
    unavailable: `El proveedor de mensajería no está disponible${code}`,
    rate_limited: `El proveedor de mensajería limitó los envíos por exceso de mensajes${code}`,
    not_configured: 'No hay un proveedor de mensajería configurado',
    bad_answer: 'El proveedor de mensajería dio una respuesta no válida',
    internal: 'No se pudo enviar el mensaje por un error interno',
  };
  return `${base[failure]}${retrying ? '; se reintentará.' : '.'}`;
}

/** Why a message the provider accepted was stored without its provider id (it stays sent, P148). */
type AcceptedNote = 'no_id' | 'id_conflict' | 'store_failed';
export function acceptedNoteText(note: AcceptedNote, providerId: string | null): string {
  const why: Record<AcceptedNote, string> = {
    no_id: 'el proveedor no indicó su identificador',
    id_conflict: `el proveedor indicó el identificador ${providerId ?? ''}, que ya tenía otro mensaje`,
    store_failed: 'no se pudo guardar el identificador que indicó el proveedor',
  };
  return `Enviado: ${why[note]}; los avisos de entrega y lectura de este mensaje no se podrán seguir.`;
}

/** A delivery the provider reported failed (status callback), with its error code if it gave one. */
export function deliveryFailureText(errorCode: string | null): string {
  return `El proveedor de mensajería no pudo entregar el mensaje${errorCode ? ` (código ${errorCode})` : ''}.`;
}

/** An inbound attachment that could not be fetched from the provider. */
export const MEDIA_FAILURE_TEXT = 'No se pudo descargar el adjunto desde el proveedor de mensajería.';

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
