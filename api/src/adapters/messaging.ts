import crypto from 'node:crypto';

/**
 * WhatsApp-style business messaging channel (D18), shaped like the WhatsApp Cloud API:
 * - outbound: `POST {MESSAGING_URL}/messages` with `{messaging_product, to, type: text|template, ...}`,
 *   bearer MESSAGING_TOKEN, answering `{messages: [{id}]}`;
 * - media: `GET {MESSAGING_URL}/{media_id}` answers `{url, mime_type, file_size}`, then the url is
 *   fetched with the same token;
 * - inbound webhook: the provider posts `{entry: [{changes: [{value: {contacts, messages, statuses}}]}]}`
 *   signed with `X-Hub-Signature-256: sha256=<HMAC-SHA256(raw body, MESSAGING_WEBHOOK_SECRET)>`.
 * Without MESSAGING_URL the local adapter keeps everything in the product: outbound messages are
 * marked sent locally and shown in the chat.
 */

interface OutboundText {
  to: string;
  kind: 'text' | 'template';
  body: string;
  template?: string | null;
  /** Template body parameters, in order. */
  params?: string[];
  language?: string;
  /**
   * Our own id of the message, the same on every try: sent as the Idempotency-Key header and in
   * `biz_opaque_callback_data` (which the provider returns in its status webhooks), so a resend
   * after an unknown outcome can be recognised (issue 41).
   */
  key?: string;
}

interface MediaFile {
  bytes: Buffer;
  mime: string;
}

export interface MessagingChannel {
  /** 'local' keeps messages in the product; 'provider' talks to MESSAGING_URL. */
  readonly mode: 'local' | 'provider';
  /**
   * Sends and answers the provider's message id; throws a ChannelError when the provider refuses or
   * is down. Any 2xx answer is an accepted send: providerId is null when it did not say the id.
   */
  send(message: OutboundText): Promise<{ providerId: string | null }>;
  /** Downloads an inbound attachment by the provider's media id. */
  fetchMedia(mediaId: string): Promise<MediaFile>;
  /** True when `signature` (the X-Hub-Signature-256 header) signs `rawBody`. */
  verifySignature(rawBody: Buffer, signature: string | undefined): boolean;
}

export interface MessagingConfig {
  url: string | null;
  token: string | null;
  webhookSecret: string | null;
  fetchImpl?: typeof fetch;
  /** How long a call may take (default MESSAGING_TIMEOUT_MS); tests shorten it. */
  timeoutMs?: number;
}

/**
 * A generous limit for one call (issue 41): the provider answers in seconds when well, but a
 * client that gives up early while the provider is slow turns a slow send into two messages
 * (it gave up at 15 s). Past it the outcome is unknown ('timeout'), never a plain failure.
 */
export const MESSAGING_TIMEOUT_MS = 120_000;

/** Why the channel failed, which the chat shows in Spanish (messages.rules.ts sendFailureText). */
export type ChannelFailure = 'unreachable' | 'timeout' | 'refused' | 'unavailable' | 'rate_limited' | 'not_configured' | 'bad_answer';

export class ChannelError extends Error {
  constructor(
    /** For the log and the job's last error only: it may carry the provider's own (English) text. */
    message: string,
    /** False when retrying cannot help (e.g. the provider rejects the number). */
    readonly retryable: boolean,
    readonly failure: ChannelFailure,
    /** The provider's HTTP status, when it answered one. */
    readonly httpStatus: number | null = null,
  ) {
    super(message);
  }

  /** The request went out and no answer came: the provider may have accepted it. */
  get outcomeUnknown(): boolean {
    return this.failure === 'timeout';
  }
}

export function signBody(secret: string, rawBody: Buffer | string): string {
  return `sha256=${crypto.createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

function verify(secret: string | null, rawBody: Buffer, signature: string | undefined): boolean {
  if (!secret || !signature) return false;
  const expected = Buffer.from(signBody(secret, rawBody));
  const given = Buffer.from(signature.trim());
  return expected.length === given.length && crypto.timingSafeEqual(expected, given);
}

export function createMessagingChannel(config: MessagingConfig): MessagingChannel {
  const doFetch = config.fetchImpl ?? fetch;
  if (!config.url) {
    return {
      mode: 'local',
      async send() {
        return { providerId: `local-${crypto.randomUUID()}` };
      },
      async fetchMedia() {
        throw new ChannelError('Sin proveedor de mensajería configurado', false, 'not_configured');
      },
      verifySignature: (raw, sig) => verify(config.webhookSecret, raw, sig),
    };
  }
  const base = config.url.replace(/\/+$/, '');
  const auth: Record<string, string> = config.token ? { authorization: `Bearer ${config.token}` } : {};

  async function call(url: string, init: RequestInit): Promise<Response> {
    let res: Response;
    try {
      res = await doFetch(url, {
        ...init,
        headers: { ...auth, ...(init.headers as Record<string, string>) },
        signal: AbortSignal.timeout(config.timeoutMs ?? MESSAGING_TIMEOUT_MS),
      });
    } catch (err) {
      const timeout = (err as Error).name === 'TimeoutError';
      throw new ChannelError(
        `El proveedor de mensajería no responde (${(err as Error).message})`,
        true,
        timeout ? 'timeout' : 'unreachable',
      );
    }
    if (!res.ok) {
      const text = await res.text().catch(() => '');
      // 4xx other than 408/429 is the provider refusing this message: retrying will not help.
      const retryable = res.status >= 500 || res.status === 408 || res.status === 429;
      const failure = res.status === 429 ? 'rate_limited' : retryable ? 'unavailable' : 'refused';
      throw new ChannelError(
        `El proveedor de mensajería respondió ${res.status}${text ? `: ${text.slice(0, 200)}` : ''}`,
        retryable,
        failure,
        res.status,
      );
    }
    return res;
  }

  return {
    mode: 'provider',
    async send(m) {
      const payload =
        m.kind === 'template'
          ? {
              messaging_product: 'whatsapp',
              to: m.to,
              type: 'template',
              template: {
                name: m.template,
                language: { code: m.language ?? 'es' },
                components: [{ type: 'body', parameters: (m.params ?? []).map((text) => ({ type: 'text', text })) }],
              },
            }
          : { messaging_product: 'whatsapp', to: m.to, type: 'text', text: { body: m.body } };
      const res = await call(`${base}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(m.key ? { 'idempotency-key': m.key } : {}) },
        body: JSON.stringify(m.key ? { ...payload, biz_opaque_callback_data: m.key } : payload),
      });
      // A 2xx answer is the provider accepting the message: sending it again would duplicate it,
      // even when the answer does not say its id (DECISIONS P148).
      const data = (await res.json().catch(() => ({}))) as { messages?: { id?: unknown }[] };
      const id = data.messages?.[0]?.id;
      return { providerId: typeof id === 'string' && id ? id.slice(0, 120) : typeof id === 'number' ? String(id) : null };
    },
    async fetchMedia(mediaId) {
      const meta = (await (await call(`${base}/${encodeURIComponent(mediaId)}`, { method: 'GET' })).json()) as {
        url?: string;
        mime_type?: string;
      };
      if (!meta.url) throw new ChannelError('El proveedor no devolvió la dirección del archivo', true, 'bad_answer');
      const file = await call(meta.url, { method: 'GET' });
      return {
        bytes: Buffer.from(await file.arrayBuffer()),
        mime: meta.mime_type ?? file.headers.get('content-type') ?? 'application/octet-stream',
      };
    },
    verifySignature: (raw, sig) => verify(config.webhookSecret, raw, sig),
  };
}
