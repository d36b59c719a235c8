import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { signBody } from '../../api/src/adapters/messaging.js';
import { createHolds } from './hold.js';

/** Real HTTP peers on loopback for the messaging channel and the AI model (D18). */

async function listen(handler: http.RequestListener): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        // A held request would keep close() waiting.
        server.closeAllConnections();
      }),
  };
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A POST /messages body, as far as the tests read it. */
interface SentMessage {
  to: string;
  type: string;
  biz_opaque_callback_data?: string;
  text?: { body?: string };
  template?: { name: string; components: Array<{ parameters: Array<{ text: string }> }> };
}

/** A chat-completions request body, as far as the tests read it, with its Authorization header. */
interface ModelRequest {
  model: string;
  authorization: string | undefined;
  tools: Array<{ function: { name: string } }>;
  messages: Array<{ role: string; content: string }>;
}

export interface FakeProvider {
  url: string;
  /** Outbound calls received (POST /messages bodies) with their Authorization header. */
  sent: { body: SentMessage; authorization: string | undefined }[];
  /** Next answers to POST /messages, by status (empty = 200). */
  failNext: number[];
  /** Ids for the next accepted messages, in order (null: a 200 that names no id); empty = a new id each time. */
  idsNext: (string | null)[];
  /** Media the provider holds: id → bytes and mime. */
  media: Map<string, { bytes: Buffer; mime: string }>;
  /** How long to hold a POST /messages before answering (a slow provider); 0 = at once. */
  holdMs: (body: SentMessage) => number;
  /**
   * Messages posted again with an Idempotency-Key already accepted: answered with the first one's
   * id and not sent twice, as a provider that honours the key does (issue 41).
   */
  duplicates: { body: SentMessage; key: string }[];
  /**
   * WhatsApp's 24-hour rule, when on: free text to a number that has not written within 24 hours
   * (by `now`) is refused with error 131047 'Re-engagement message', as the Cloud API does;
   * templates always pass. Off by default (the chat tests answer patients who just wrote).
   */
  enforceWindow: boolean;
  now: () => Date;
  /** When each number last wrote to the business (tests record it beside the inbound webhook they post). */
  lastInbound: Map<string, Date>;
  close(): Promise<void>;
}

/** The Cloud API's answer to free text outside the customer service window. */
export const REENGAGEMENT_ERROR = {
  error: {
    message: '(#131047) Re-engagement message',
    type: 'OAuthException',
    code: 131047,
    error_data: {
      details: 'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
    },
  },
};

export async function startFakeProvider(): Promise<FakeProvider> {
  const state = {
    sent: [] as FakeProvider['sent'],
    failNext: [] as number[],
    idsNext: [] as (string | null)[],
    media: new Map<string, { bytes: Buffer; mime: string }>(),
    holdMs: (() => 0) as (body: SentMessage) => number,
    duplicates: [] as { body: SentMessage; key: string }[],
    enforceWindow: false,
    now: () => new Date(),
    lastInbound: new Map<string, Date>(),
  };
  const accepted = new Map<string, unknown>();
  const { hold, release } = createHolds();
  let n = 0;
  let base = '';
  const { url, close } = await listen(async (req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'POST' && path === '/messages') {
      const body = JSON.parse(await readBody(req));
      const fail = state.failNext.shift();
      if (fail) {
        res.writeHead(fail, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'Service Unavailable' } }));
        return;
      }
      const last = state.lastInbound.get(body.to);
      if (state.enforceWindow && body.type === 'text' && !(last && state.now().getTime() - last.getTime() < 24 * 3600_000)) {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify(REENGAGEMENT_ERROR));
        return;
      }
      // Held, then accepted even when the client stopped waiting: the provider has it.
      await hold(state.holdMs(body));
      const key = req.headers['idempotency-key'] as string | undefined;
      if (key && accepted.has(key)) {
        state.duplicates.push({ body, key });
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(accepted.get(key)));
        return;
      }
      state.sent.push({ body, authorization: req.headers.authorization });
      const id = state.idsNext.length ? state.idsNext.shift() : `wamid.out.${++n}`;
      const answer = id === null ? {} : { messages: [{ id }] };
      if (key) accepted.set(key, answer);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      return;
    }
    const fileMatch = path.match(/^\/files\/(.+)$/);
    if (req.method === 'GET' && fileMatch && state.media.has(fileMatch[1])) {
      if (req.headers.authorization !== 'Bearer proveedor-token') return void res.writeHead(401).end();
      const m = state.media.get(fileMatch[1])!;
      res.writeHead(200, { 'content-type': m.mime }).end(m.bytes);
      return;
    }
    const metaMatch = path.match(/^\/([^/]+)$/);
    if (req.method === 'GET' && metaMatch && state.media.has(metaMatch[1])) {
      const m = state.media.get(metaMatch[1])!;
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ url: `${base}/files/${metaMatch[1]}`, mime_type: m.mime, file_size: m.bytes.length }));
      return;
    }
    res.writeHead(404).end();
  });
  base = url;
  return Object.assign(state, {
    url,
    close: () => {
      release();
      return close();
    },
  });
}

/** A WhatsApp-style inbound webhook body with one message. */
export function inboundBody(from: string, id: string, message: Record<string, unknown>, profileName = 'Paciente') {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: 'waba',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              contacts: [{ wa_id: from, profile: { name: profileName } }],
              messages: [{ from, id, timestamp: '1763800000', ...message }],
            },
          },
        ],
      },
    ],
  };
}

export function statusBody(id: string, status: string) {
  return {
    object: 'whatsapp_business_account',
    entry: [{ changes: [{ field: 'messages', value: { statuses: [{ id, status, timestamp: '1763800000', recipient_id: '1' }] } }] }],
  };
}

export function signed(secret: string, body: unknown): { raw: string; signature: string } {
  const raw = JSON.stringify(body);
  return { raw, signature: signBody(secret, raw) };
}

export interface FakeModel {
  url: string;
  /** Requests received (chat-completions bodies). */
  requests: ModelRequest[];
  /** Scripted answers, consumed in order: a status code, or an assistant message. */
  script: (number | { content?: string | null; tool_calls?: { name: string; arguments: Record<string, unknown> }[] })[];
  close(): Promise<void>;
}

export async function startFakeModel(): Promise<FakeModel> {
  const state = { requests: [] as ModelRequest[], script: [] as FakeModel['script'] };
  let n = 0;
  const { url, close } = await listen(async (req, res) => {
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) return void res.writeHead(404).end();
    const body = JSON.parse(await readBody(req));
    state.requests.push({ ...body, authorization: req.headers.authorization });
    const next = state.script.shift() ?? { content: 'De acuerdo.' };
    if (typeof next === 'number') {
      res.writeHead(next, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'overloaded' } }));
      return;
    }
    const message = {
      role: 'assistant',
      content: next.content ?? null,
      ...(next.tool_calls
        ? {
            tool_calls: next.tool_calls.map((c) => ({
              id: `call_${++n}`,
              type: 'function',
              function: { name: c.name, arguments: JSON.stringify(c.arguments) },
            })),
          }
        : {}),
    };
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        id: `chatcmpl-${n}`,
        object: 'chat.completion',
        model: body.model,
        choices: [{ index: 0, message, finish_reason: next.tool_calls ? 'tool_calls' : 'stop' }],
      }),
    );
  });
  return Object.assign(state, { url, close });
}
