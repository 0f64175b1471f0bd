/**
 * The two provider dialects. Each turns a prompt into a request body and a reply body into the
 * structured payload, and knows nothing of the network: src/model/client.ts sends through
 * src/egress/http.ts. The model is never offered a tool it could act with: OpenAI gets a response
 * schema, Anthropic one forced reporting tool.
 */
import {
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

/** Which structured reply a call asks for (`proposal`: the fix command's edit proposal). */
export type ReplyKind = 'findings' | 'verdict' | 'proposal';

/** Per reply kind: the OpenAI schema name, the Anthropic tool, and the JSON Schema both are given. */
const REPLY_SHAPES: Record<ReplyKind, { schemaName: string; toolName: string; toolDescription: string; schema: unknown }> = {
  findings: { schemaName: FINDINGS_SCHEMA_NAME, toolName: FINDINGS_TOOL_NAME, toolDescription: 'Report the security findings of this review (an empty list when there are none).', schema: FINDINGS_JSON_SCHEMA },
  verdict: { schemaName: VERDICT_SCHEMA_NAME, toolName: VERDICT_TOOL_NAME, toolDescription: 'Report whether the finding is kept or rejected, and why.', schema: VERDICT_JSON_SCHEMA },
  proposal: { schemaName: PROPOSAL_SCHEMA_NAME, toolName: PROPOSAL_TOOL_NAME, toolDescription: 'Propose one edit: the lines to replace, quoted, and their new text.', schema: PROPOSAL_JSON_SCHEMA },
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

/** The structured payload of a reply, or why there is none (prose, refusal, malformed JSON). */
export type ProviderReply =
  | { ok: true; payload: unknown; usage: TokenUsage }
  | { ok: false; problem: string; usage: TokenUsage };

export interface Provider {
  name: 'openai' | 'anthropic';
  /** Used when `model.base_url` is not set. */
  defaultBaseUrl: string;
  endpoint(baseUrl: string): string;
  /** Authentication and version headers; none when there is no key (a local server). */
  headers(apiKey: string | null): Record<string, string>;
  body(prompt: PromptParts): unknown;
  /** Extract the payload from a reply body already parsed as JSON. */
  read(kind: ReplyKind, reply: unknown): ProviderReply;
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

function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}${path}`;
}

export const openaiProvider: Provider = {
  name: 'openai',
  defaultBaseUrl: 'https://api.openai.com/v1',
  endpoint: (baseUrl) => joinUrl(baseUrl, '/chat/completions'),
  headers: (apiKey): Record<string, string> => (apiKey === null ? {} : { authorization: `Bearer ${apiKey}` }),
  body(prompt) {
    const shape = REPLY_SHAPES[prompt.kind];
    return {
      model: prompt.model,
      temperature: 0,
      max_tokens: prompt.maxOutputTokens,
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
    const message = record(Array.isArray(choices) ? record(choices[0])?.['message'] : undefined);
    if (!message) return { ok: false, problem: 'the reply has no message', usage };
    const refusal = message['refusal'];
    if (typeof refusal === 'string' && refusal.trim() !== '') return { ok: false, problem: `the model refused: ${shortText(refusal)}`, usage };
    const content = message['content'];
    if (typeof content !== 'string') return { ok: false, problem: 'the reply message has no text content', usage };
    try {
      return { ok: true, payload: JSON.parse(content) as unknown, usage };
    } catch {
      return { ok: false, problem: `the model answered in prose, not JSON: ${shortText(content)}`, usage };
    }
  },
};

export const anthropicProvider: Provider = {
  name: 'anthropic',
  defaultBaseUrl: 'https://api.anthropic.com',
  endpoint: (baseUrl) => joinUrl(baseUrl, '/v1/messages'),
  headers: (apiKey) => ({ 'anthropic-version': '2023-06-01', ...(apiKey === null ? {} : { 'x-api-key': apiKey }) }),
  body(prompt) {
    const shape = REPLY_SHAPES[prompt.kind];
    const tool = { name: shape.toolName, description: shape.toolDescription, input_schema: shape.schema };
    return {
      model: prompt.model,
      max_tokens: prompt.maxOutputTokens,
      temperature: 0,
      system: prompt.system,
      messages: [{ role: 'user', content: prompt.user }],
      tools: [tool],
      tool_choice: { type: 'tool', name: tool.name },
    };
  },
  read(kind, reply) {
    const body = record(reply);
    const usageBody = record(body?.['usage']);
    const usage = usageBody ? { input_tokens: count(usageBody['input_tokens']), output_tokens: count(usageBody['output_tokens']) } : NO_USAGE;
    const wanted = REPLY_SHAPES[kind].toolName;
    const content = body?.['content'];
    const blocks = Array.isArray(content) ? content.map(record) : [];
    const call = blocks.find((b) => b?.['type'] === 'tool_use' && b['name'] === wanted);
    if (call) return { ok: true, payload: call['input'], usage };
    if (body?.['stop_reason'] === 'refusal') return { ok: false, problem: 'the model refused', usage };
    const prose = blocks.map((b) => (b?.['type'] === 'text' && typeof b['text'] === 'string' ? b['text'] : '')).join(' ');
    return { ok: false, problem: `the model did not call ${wanted}${prose.trim() ? `: ${shortText(prose)}` : ''}`, usage };
  },
};

export const PROVIDERS: Record<'openai' | 'anthropic', Provider> = { openai: openaiProvider, anthropic: anthropicProvider };
