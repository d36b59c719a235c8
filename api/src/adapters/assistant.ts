/**
 * AI assistant adapter (D18): any OpenAI-compatible chat-completions endpoint, configured by
 * AI_BASE_URL (e.g. https://api.openai.com/v1 or a local server), AI_MODEL and AI_API_KEY.
 * Without AI_BASE_URL the assistant is off: patients' messages wait for staff.
 */

interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ChatToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface ChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

interface ChatAnswer {
  content: string | null;
  toolCalls: ChatToolCall[];
}

export interface AssistantModel {
  readonly model: string;
  complete(messages: ChatMessage[], tools?: ChatTool[]): Promise<ChatAnswer>;
}

export interface AssistantConfig {
  baseUrl: string | null;
  model: string | null;
  apiKey: string | null;
  fetchImpl?: typeof fetch;
  timeoutMs?: number;
}

class AssistantError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
  }
}

/** Answers null when no endpoint is configured. */
export function createAssistantModel(config: AssistantConfig): AssistantModel | null {
  if (!config.baseUrl) return null;
  const url = `${config.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const model = config.model || 'gpt-4o-mini';
  const doFetch = config.fetchImpl ?? fetch;
  return {
    model,
    async complete(messages, tools) {
      let res: Response;
      try {
        res = await doFetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}) },
          body: JSON.stringify({ model, messages, ...(tools?.length ? { tools, tool_choice: 'auto' } : {}), temperature: 0.3 }),
          signal: AbortSignal.timeout(config.timeoutMs ?? 60_000),
        });
      } catch (err) {
        throw new AssistantError(`El asistente IA no responde (${(err as Error).message})`, null);
      }
      if (!res.ok) {
        const text = await res.text().catch(() => '');
        throw new AssistantError(`El asistente IA respondió ${res.status}${text ? `: ${text.slice(0, 200)}` : ''}`, res.status);
      }
      const data = (await res.json().catch(() => null)) as {
        choices?: { message?: { content?: string | null; tool_calls?: ChatToolCall[] } }[];
      } | null;
      const message = data?.choices?.[0]?.message;
      if (!message) throw new AssistantError('El asistente IA devolvió una respuesta sin mensaje', res.status);
      return {
        content: typeof message.content === 'string' ? message.content : null,
        toolCalls: Array.isArray(message.tool_calls) ? message.tool_calls.filter((c) => c?.type === 'function' && c.function?.name) : [],
      };
    },
  };
}
