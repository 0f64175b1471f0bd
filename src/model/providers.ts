/**
 * The two provider dialects. Each turns a prompt into a request body and a reply body into the
 * structured payload, and knows nothing of the network: src/model/client.ts sends through
 * src/egress/http.ts. The model is never offered a tool it could act with: OpenAI gets a response
 * schema, Anthropic one forced reporting tool.
 */
import {
  FACTS_JSON_SCHEMA,
  FACTS_SCHEMA_NAME,
  FACTS_TOOL_NAME,
  FINDINGS_JSON_SCHEMA,
  FINDINGS_SCHEMA_NAME,
  FINDINGS_TOOL_NAME,
  PROPOSAL_JSON_SCHEMA,
  PROPOSAL_SCHEMA_NAME,
  PROPOSAL_TOOL_NAME,
  VERDICT_JSON_SCHEMA,
  VERDICT_SCHEMA_NAME,
  VERDICT_TOOL_NAME,
} from './schemas.js';

/** Which structured reply a call asks for (`proposal`: the fix command's edit proposal; `facts`: `jscr facts init --propose`). */
type ReplyKind = 'findings' | 'verdict' | 'proposal' | 'facts';

/** Per reply kind: the OpenAI schema name, the Anthropic tool, and the JSON Schema both are given. */
const REPLY_SHAPES: Record<ReplyKind, { schemaName: string; toolName: string; toolDescription: string; schema: unknown }> = {
  findings: { schemaName: FINDINGS_SCHEMA_NAME, toolName: FINDINGS_TOOL_NAME, toolDescription: 'Report the security findings of this review (an empty list when there are none).', schema: FINDINGS_JSON_SCHEMA },
  verdict: { schemaName: VERDICT_SCHEMA_NAME, toolName: VERDICT_TOOL_NAME, toolDescription: 'Report whether the finding is kept or rejected, and why.', schema: VERDICT_JSON_SCHEMA },
  proposal: { schemaName: PROPOSAL_SCHEMA_NAME, toolName: PROPOSAL_TOOL_NAME, toolDescription: 'Propose one edit: the lines to replace, quoted, and their new text.', schema: PROPOSAL_JSON_SCHEMA },
  facts: { schemaName: FACTS_SCHEMA_NAME, toolName: FACTS_TOOL_NAME, toolDescription: 'Propose the functions of the material that are authorization checks (an empty list when there are none).', schema: FACTS_JSON_SCHEMA },
};

/** Tokens as the provider reports them (0 when it does not). */
export interface TokenUsage {
  input_tokens: number;
  output_tokens: number;
}

/** What a prompt needs to become a request. */
export interface PromptParts {
  model: string;
  system: string;
  user: string;
  kind: ReplyKind;
  maxOutputTokens: number;
}

/**
 * How a request deviates from the widest-accepted shape, learnt from a server's 400 reply. OpenAI's
 * reasoning models (o-series, gpt-5) refuse `max_tokens` and any temperature but the default, while
 * older Azure api-versions, Ollama and llama.cpp's server know only `max_tokens`; so jscr starts
 * with the widest shape and changes only what the server names.
 */
export interface RequestAdjustments {
  /** Which field carries the output bound. */
  tokenField: 'max_tokens' | 'max_completion_tokens';
  /** Whether `temperature: 0` is sent. */
  temperature: boolean;
}

/** The first shape tried. */
export const WIDEST_REQUEST: RequestAdjustments = { tokenField: 'max_tokens', temperature: true };

/** The structured payload of a reply, or why there is none (prose, refusal, malformed JSON, cut off). */
export type ProviderReply =
  | { ok: true; payload: unknown; usage: TokenUsage }
  | { ok: false; problem: string; usage: TokenUsage };

export interface Provider {
  name: 'openai' | 'anthropic';
  /** Used when `model.base_url` is not set. */
  defaultBaseUrl: string;
  /** The request URL for a base URL: path appended once, query (e.g. Azure's `api-version`) kept. */
  endpoint(baseUrl: string): string;
  /** Authentication and version headers for the request URL; no key header when there is no key. */
  headers(apiKey: string | null, url: string): Record<string, string>;
  body(prompt: PromptParts, adjustments?: RequestAdjustments): unknown;
  /** Extract the payload from a reply body already parsed as JSON. */
  read(kind: ReplyKind, reply: unknown): ProviderReply;
  /**
   * The request shape to try next after an HTTP 400 whose body names a field this request sent in a
   * form the model does not accept; null when the 400 is about something else.
   */
  adjust(errorBody: string, current: RequestAdjustments): RequestAdjustments | null;
}

const NO_USAGE: TokenUsage = { input_tokens: 0, output_tokens: 0 };

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}

/** Model-written text shown in a reason: one line, bounded. */
export function shortText(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/**
 * `base` with `path` appended to its path, its query kept (Azure-style gateways carry
 * `?api-version=...` in the base URL). A base that already ends with `path`, or with `overlap` (the
 * part of `path` users tend to include, like Anthropic's `/v1`), is not doubled.
 */
export function joinEndpoint(base: string, path: string, overlap = ''): string {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    return `${base.replace(/\/+$/, '')}${path}`; // the egress decision then refuses it as not a URL
  }
  const current = url.pathname.replace(/\/+$/, '');
  if (current.endsWith(path)) url.pathname = current;
  else if (overlap !== '' && current.endsWith(overlap)) url.pathname = `${current}${path.slice(overlap.length)}`;
  else url.pathname = `${current}${path}`;
  return url.toString();
}

/**
 * Azure OpenAI takes a key in the `api-key` header (a Bearer token there must be an Entra ID token);
 * its hosts end in `.azure.com`, and gateways in front of it carry `api-version` in the query.
 */
function isAzureStyle(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.hostname.toLowerCase().endsWith('.azure.com') || parsed.searchParams.has('api-version');
  } catch {
    return false;
  }
}

/** The provider's error object in a reply body, when it has one. */
function errorObject(text: string): { message: string; param: string } | null {
  try {
    const body = record(JSON.parse(text) as unknown);
    const error = body?.['error'];
    if (typeof error === 'string') return { message: error, param: '' };
    const fields = record(error);
    if (!fields) return null;
    return { message: typeof fields['message'] === 'string' ? fields['message'] : '', param: typeof fields['param'] === 'string' ? fields['param'] : '' };
  } catch {
    return null;
  }
}

/**
 * The JSON text of a chat message's content: a string, or the text parts of a content array joined.
 * A server that does not enforce the schema may wrap the JSON in a Markdown fence or put a reasoning
 * model's `<think>` block before it; both are removed (the payload is still checked by zod).
 */
export function contentText(content: unknown): string | null {
  let text: string;
  if (typeof content === 'string') text = content;
  else if (Array.isArray(content)) {
    const parts = content.map(record).filter((p) => p !== null && (p['type'] === 'text' || p['type'] === 'output_text') && typeof p['text'] === 'string');
    if (parts.length === 0) return null;
    text = parts.map((p) => p?.['text'] as string).join('');
  } else return null;
  let trimmed = text.trim().replace(/^<think>[\s\S]*?<\/think>\s*/, '');
  const fenced = /^```[A-Za-z]*\s*\n([\s\S]*?)\n?```$/.exec(trimmed);
  if (fenced) trimmed = (fenced[1] ?? '').trim();
  return trimmed;
}

const CUT_OFF = 'the reply was cut off at model.max_output_tokens before the JSON was complete (raise max_output_tokens; reasoning models spend part of it thinking)';

export const openaiProvider: Provider = {
  name: 'openai',
  defaultBaseUrl: 'https://api.openai.com/v1',
  endpoint: (baseUrl) => joinEndpoint(baseUrl, '/chat/completions'),
  headers(apiKey, url): Record<string, string> {
    if (apiKey === null) return {};
    return isAzureStyle(url) ? { 'api-key': apiKey } : { authorization: `Bearer ${apiKey}` };
  },
  body(prompt, adjustments = WIDEST_REQUEST) {
    const shape = REPLY_SHAPES[prompt.kind];
    return {
      model: prompt.model,
      ...(adjustments.temperature ? { temperature: 0 } : {}),
      [adjustments.tokenField]: prompt.maxOutputTokens,
      messages: [
        { role: 'system', content: prompt.system },
        { role: 'user', content: prompt.user },
      ],
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: shape.schemaName,
          strict: true,
          schema: shape.schema,
        },
      },
    };
  },
  read(_kind, reply) {
    const body = record(reply);
    const usageBody = record(body?.['usage']);
    const usage = usageBody ? { input_tokens: count(usageBody['prompt_tokens']), output_tokens: count(usageBody['completion_tokens']) } : NO_USAGE;
    const choices = body?.['choices'];
    const choice = record(Array.isArray(choices) ? choices[0] : undefined);
    const message = record(choice?.['message']);
    if (!message) {
      const error = errorObject(JSON.stringify(body ?? {}));
      return { ok: false, problem: `the reply has no message${error?.message ? `: ${shortText(error.message)}` : ''}`, usage };
    }
    const refusal = message['refusal'];
    if (typeof refusal === 'string' && refusal.trim() !== '') return { ok: false, problem: `the model refused: ${shortText(refusal)}`, usage };
    // A reply cut off by the token bound is a failure, even if what arrived happens to parse.
    const finish = choice?.['finish_reason'];
    if (finish === 'length') return { ok: false, problem: CUT_OFF, usage };
    if (finish === 'content_filter') return { ok: false, problem: 'the provider\'s content filter stopped the reply', usage };
    const text = contentText(message['content']);
    if (text === null || text === '') return { ok: false, problem: 'the reply message has no text content', usage };
    try {
      return { ok: true, payload: JSON.parse(text) as unknown, usage };
    } catch {
      return { ok: false, problem: `the model answered in prose, not JSON: ${shortText(text)}`, usage };
    }
  },
  adjust(errorBody, current) {
    const error = errorObject(errorBody);
    if (!error) return null;
    const says = (field: string): boolean => error.param === field || error.message.includes(field);
    if (current.tokenField === 'max_tokens' && says('max_tokens') && /max_completion_tokens|not supported|unsupported/i.test(error.message)) {
      return { ...current, tokenField: 'max_completion_tokens' };
    }
    if (current.temperature && says('temperature') && /not support|unsupported|only the default/i.test(error.message)) {
      return { ...current, temperature: false };
    }
    return null;
  },
};

export const anthropicProvider: Provider = {
  name: 'anthropic',
  defaultBaseUrl: 'https://api.anthropic.com',
  endpoint: (baseUrl) => joinEndpoint(baseUrl, '/v1/messages', '/v1'),
  headers: (apiKey) => ({ 'anthropic-version': '2023-06-01', ...(apiKey === null ? {} : { 'x-api-key': apiKey }) }),
  body(prompt, adjustments = WIDEST_REQUEST) {
    const shape = REPLY_SHAPES[prompt.kind];
    const tool = { name: shape.toolName, description: shape.toolDescription, input_schema: shape.schema };
    return {
      model: prompt.model,
      // Required by the Messages API; Anthropic has no other name for it.
      max_tokens: prompt.maxOutputTokens,
      ...(adjustments.temperature ? { temperature: 0 } : {}),
      system: prompt.system,
      messages: [{ role: 'user', content: prompt.user }],
      tools: [tool],
      tool_choice: { type: 'tool', name: tool.name },
    };
  },
  read(kind, reply) {
    const body = record(reply);
    const usageBody = record(body?.['usage']);
    // Cached prompt tokens are counted apart from input_tokens; all of them were read by the model.
    const usage = usageBody
      ? { input_tokens: count(usageBody['input_tokens']) + count(usageBody['cache_creation_input_tokens']) + count(usageBody['cache_read_input_tokens']), output_tokens: count(usageBody['output_tokens']) }
      : NO_USAGE;
    const stop = body?.['stop_reason'];
    if (stop === 'refusal') return { ok: false, problem: 'the model refused', usage };
    // A tool call cut off by max_tokens carries an incomplete input object: never read it as the answer.
    if (stop === 'max_tokens') return { ok: false, problem: CUT_OFF, usage };
    const wanted = REPLY_SHAPES[kind].toolName;
    const content = body?.['content'];
    const blocks = Array.isArray(content) ? content.map(record) : [];
    const call = blocks.find((b) => b?.['type'] === 'tool_use' && b['name'] === wanted);
    if (call) return { ok: true, payload: call['input'], usage };
    const prose = blocks.map((b) => (b?.['type'] === 'text' && typeof b['text'] === 'string' ? b['text'] : '')).join(' ');
    return { ok: false, problem: `the model did not call ${wanted}${prose.trim() ? `: ${shortText(prose)}` : ''}`, usage };
  },
  adjust(errorBody, current) {
    // Some newer Claude models accept only the default sampling settings.
    const error = errorObject(errorBody);
    if (error && current.temperature && error.message.includes('temperature') && /not support|unsupported|only the default/i.test(error.message)) {
      return { ...current, temperature: false };
    }
    return null;
  },
};

export const PROVIDERS: Record<'openai' | 'anthropic', Provider> = { openai: openaiProvider, anthropic: anthropicProvider };
