/**
 * The provider dialects against the contracts of the real APIs: OpenAI strict structured output
 * rules for our three schemas, URL joining (trailing slashes, Azure query strings), key headers,
 * truncated and array-shaped replies, and, over a real HTTP server on 127.0.0.1, the request-shape
 * adjustment after a 400 naming max_tokens or temperature, and the Retry-After forms.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ProposalSchema } from '../../src/guard/shapes.js';
import {
  FACTS_JSON_SCHEMA,
  FACTS_SCHEMA_NAME,
  FACTS_TOOL_NAME,
  FINDINGS_JSON_SCHEMA,
  FINDINGS_SCHEMA_NAME,
  FINDINGS_TOOL_NAME,
  MAX_RETRY_WAIT_MS,
  PROPOSAL_JSON_SCHEMA,
  PROPOSAL_SCHEMA_NAME,
  PROPOSAL_TOOL_NAME,
  VERDICT_JSON_SCHEMA,
  VERDICT_SCHEMA_NAME,
  VERDICT_TOOL_NAME,
  anthropicProvider,
  callModel,
  contentText,
  joinEndpoint,
  openaiProvider,
  retryWaitMs,
  type CallTarget,
  type PromptParts,
  type Provider,
} from '../../src/model/index.js';
import { egressDecision } from '../../src/policy/egress.js';

/** Keywords OpenAI strict mode accepts on every model, and that Anthropic, vLLM, llama.cpp and Ollama grammars understand. */
const PORTABLE_KEYWORDS = new Set(['type', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'description']);
const SCALAR_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null']);

/** Every breach of the strict-mode rules in a schema node and below, as `path: problem` lines. */
function strictModeBreaches(node: unknown, path: string): string[] {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return [`${path}: not a schema object`];
  const schema = node as Record<string, unknown>;
  const out: string[] = [];
  for (const key of Object.keys(schema)) if (!PORTABLE_KEYWORDS.has(key)) out.push(`${path}: keyword ${key} is not accepted in strict mode`);
  const types = Array.isArray(schema['type']) ? (schema['type'] as unknown[]) : [schema['type']];
  if (types.length === 0 || types.some((t) => typeof t !== 'string')) out.push(`${path}: no type`);
  if (types.includes('object')) {
    const properties = schema['properties'] as Record<string, unknown> | undefined;
    if (!properties) out.push(`${path}: object without properties`);
    if (schema['additionalProperties'] !== false) out.push(`${path}: additionalProperties is not false`);
    const required = Array.isArray(schema['required']) ? [...(schema['required'] as string[])].sort() : [];
    if (JSON.stringify(required) !== JSON.stringify(Object.keys(properties ?? {}).sort())) out.push(`${path}: required does not list every property`);
    for (const [name, child] of Object.entries(properties ?? {})) out.push(...strictModeBreaches(child, `${path}.${name}`));
  } else if (types.includes('array')) {
    out.push(...strictModeBreaches(schema['items'], `${path}[]`));
  } else {
    for (const t of types) if (!SCALAR_TYPES.has(t as string)) out.push(`${path}: unknown type ${String(t)}`);
    if ('enum' in schema && !(Array.isArray(schema['enum']) && schema['enum'].every((v) => typeof v === 'string'))) out.push(`${path}: enum is not a list of strings`);
  }
  return out;
}

const SCHEMAS = [
  ['findings', FINDINGS_SCHEMA_NAME, FINDINGS_TOOL_NAME, FINDINGS_JSON_SCHEMA],
  ['verdict', VERDICT_SCHEMA_NAME, VERDICT_TOOL_NAME, VERDICT_JSON_SCHEMA],
  ['proposal', PROPOSAL_SCHEMA_NAME, PROPOSAL_TOOL_NAME, PROPOSAL_JSON_SCHEMA],
  ['facts', FACTS_SCHEMA_NAME, FACTS_TOOL_NAME, FACTS_JSON_SCHEMA],
] as const;

describe('reply schemas meet OpenAI strict structured output', () => {
  it.each(SCHEMAS)('%s: object root, every object closed and fully required, only portable keywords', (_kind, schemaName, toolName, schema) => {
    expect(schema.type).toBe('object');
    expect(strictModeBreaches(schema, '$')).toEqual([]);
    // OpenAI schema names and Anthropic tool names: letters, digits, _ and -, at most 64.
    expect(schemaName).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(toolName).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
  });

  it('the walker catches what strict mode refuses', () => {
    const loose = { type: 'object', properties: { a: { type: 'string', minLength: 1 }, b: { type: 'object', properties: { c: { type: 'integer' } }, required: [] } }, required: ['a'] };
    expect(strictModeBreaches(loose, '$')).toEqual([
      '$: additionalProperties is not false',
      '$: required does not list every property',
      '$.a: keyword minLength is not accepted in strict mode',
      '$.b: additionalProperties is not false',
      '$.b: required does not list every property',
    ]);
  });

  it('the proposal schema asks for exactly the fields the guard checks', () => {
    expect([...PROPOSAL_JSON_SCHEMA.required].sort()).toEqual(Object.keys(ProposalSchema.shape).sort());
  });
});

describe('endpoint URLs', () => {
  it('appends the path once, with or without a trailing slash, and keeps a query string', () => {
    expect(openaiProvider.endpoint('https://api.openai.com/v1')).toBe('https://api.openai.com/v1/chat/completions');
    expect(openaiProvider.endpoint('http://127.0.0.1:11434/v1/')).toBe('http://127.0.0.1:11434/v1/chat/completions');
    expect(openaiProvider.endpoint('https://r.openai.azure.com/openai/deployments/gpt4o?api-version=2024-10-21')).toBe(
      'https://r.openai.azure.com/openai/deployments/gpt4o/chat/completions?api-version=2024-10-21',
    );
    expect(openaiProvider.endpoint('https://gw.example/openai/deployments/x/chat/completions?api-version=2024-10-21')).toBe(
      'https://gw.example/openai/deployments/x/chat/completions?api-version=2024-10-21',
    );
    expect(anthropicProvider.endpoint('https://api.anthropic.com')).toBe('https://api.anthropic.com/v1/messages');
    expect(anthropicProvider.endpoint('https://api.anthropic.com/')).toBe('https://api.anthropic.com/v1/messages');
    expect(anthropicProvider.endpoint('https://api.anthropic.com/v1')).toBe('https://api.anthropic.com/v1/messages');
    expect(anthropicProvider.endpoint('https://gw.example/anthropic/v1/messages')).toBe('https://gw.example/anthropic/v1/messages');
    expect(joinEndpoint('not a url', '/x')).toBe('not a url/x');
  });

  it('sends a key header only when there is a key, and api-key to Azure-style gateways', () => {
    const plain = 'https://api.openai.com/v1/chat/completions';
    const azure = 'https://r.openai.azure.com/openai/deployments/d/chat/completions?api-version=2024-10-21';
    expect(openaiProvider.headers(null, plain)).toEqual({});
    expect(openaiProvider.headers('k', plain)).toEqual({ authorization: 'Bearer k' });
    expect(openaiProvider.headers('k', azure)).toEqual({ 'api-key': 'k' });
    expect(openaiProvider.headers('k', 'https://gw.example/v1/chat/completions?api-version=1')).toEqual({ 'api-key': 'k' });
    expect(anthropicProvider.headers(null, 'https://api.anthropic.com/v1/messages')).toEqual({ 'anthropic-version': '2023-06-01' });
    expect(anthropicProvider.headers('k', 'https://api.anthropic.com/v1/messages')).toEqual({ 'anthropic-version': '2023-06-01', 'x-api-key': 'k' });
  });
});

const PROMPT: PromptParts = { model: 'm', system: 'sys', user: 'usr', kind: 'verdict', maxOutputTokens: 900 };
const VERDICT = { verdict: 'keep', reason: 'r' };
const openaiReply = (message: Record<string, unknown>, finish = 'stop'): unknown => ({
  choices: [{ index: 0, finish_reason: finish, message: { role: 'assistant', refusal: null, ...message } }],
  usage: { prompt_tokens: 10, completion_tokens: 5 },
});

describe('reading OpenAI-style replies', () => {
  it('the request carries system and user messages, temperature 0 and max_tokens', () => {
    expect(openaiProvider.body(PROMPT)).toMatchObject({
      model: 'm',
      temperature: 0,
      max_tokens: 900,
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'usr' },
      ],
    });
    expect(openaiProvider.body(PROMPT, { tokenField: 'max_completion_tokens', temperature: false })).not.toHaveProperty('max_tokens');
    expect(openaiProvider.body(PROMPT, { tokenField: 'max_completion_tokens', temperature: false })).not.toHaveProperty('temperature');
  });

  it('a reply cut off by the token bound is a failure even when its text parses', () => {
    const cut = openaiProvider.read('verdict', openaiReply({ content: JSON.stringify(VERDICT) }, 'length'));
    expect(cut.ok).toBe(false);
    expect(!cut.ok && cut.problem).toContain('cut off at model.max_output_tokens');
    const filtered = openaiProvider.read('verdict', openaiReply({ content: null }, 'content_filter'));
    expect(!filtered.ok && filtered.problem).toContain('content filter');
  });

  it('reads content arrays, fenced JSON and a leading think block; refusals are failures', () => {
    const parts = openaiProvider.read('verdict', openaiReply({ content: [{ type: 'text', text: '{"verdict":"keep",' }, { type: 'text', text: '"reason":"r"}' }] }));
    expect(parts).toEqual({ ok: true, payload: VERDICT, usage: { input_tokens: 10, output_tokens: 5 } });
    const fenced = openaiProvider.read('verdict', openaiReply({ content: '```json\n{"verdict":"keep","reason":"r"}\n```' }));
    expect(fenced.ok && fenced.payload).toEqual(VERDICT);
    expect(contentText('<think>hmm</think>\n{"a":1}')).toBe('{"a":1}');
    const refused = openaiProvider.read('verdict', openaiReply({ content: null, refusal: 'I cannot help with that.' }));
    expect(!refused.ok && refused.problem).toBe('the model refused: I cannot help with that.');
    const empty = openaiProvider.read('verdict', openaiReply({ content: '' }));
    expect(empty.ok).toBe(false);
    const gatewayError = openaiProvider.read('verdict', { error: { message: 'upstream overloaded' } });
    expect(!gatewayError.ok && gatewayError.problem).toBe('the reply has no message: upstream overloaded');
  });
});

describe('reading Anthropic replies', () => {
  const message = (content: unknown[], stop: string, usage: Record<string, number> = { input_tokens: 10, output_tokens: 5 }): unknown => ({ type: 'message', role: 'assistant', content, stop_reason: stop, usage });

  it('the request has top-level system, required max_tokens, one tool and a forced tool_choice', () => {
    const body = anthropicProvider.body(PROMPT) as Record<string, unknown>;
    expect(body).toMatchObject({ model: 'm', max_tokens: 900, temperature: 0, system: 'sys', messages: [{ role: 'user', content: 'usr' }], tool_choice: { type: 'tool', name: VERDICT_TOOL_NAME } });
    expect(body['tools']).toEqual([{ name: VERDICT_TOOL_NAME, description: expect.any(String) as unknown, input_schema: VERDICT_JSON_SCHEMA }]);
  });

  it('takes the tool input; a tool call cut off by max_tokens is a failure; cached input tokens count', () => {
    const call = { type: 'tool_use', id: 'tu', name: VERDICT_TOOL_NAME, input: VERDICT };
    const usage = { input_tokens: 10, cache_creation_input_tokens: 3, cache_read_input_tokens: 4, output_tokens: 5 };
    expect(anthropicProvider.read('verdict', message([call], 'tool_use', usage))).toEqual({ ok: true, payload: VERDICT, usage: { input_tokens: 17, output_tokens: 5 } });
    const cut = anthropicProvider.read('verdict', message([{ ...call, input: { verdict: 'keep' } }], 'max_tokens'));
    expect(!cut.ok && cut.problem).toContain('cut off');
    const refused = anthropicProvider.read('verdict', message([call], 'refusal'));
    expect(!refused.ok && refused.problem).toBe('the model refused');
  });
});

describe('Retry-After forms', () => {
  it('prefers retry-after-ms, else seconds or an HTTP date, capped', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(retryWaitMs({ 'retry-after-ms': '250', 'retry-after': '1' }, now)).toBe(250);
    expect(retryWaitMs({ 'retry-after': '1' }, now)).toBe(1000);
    expect(retryWaitMs({ 'retry-after': 'Wed, 01 Jan 2025 00:00:03 GMT' }, now)).toBe(3000);
    expect(retryWaitMs({ 'retry-after-ms': '999999' }, now)).toBe(MAX_RETRY_WAIT_MS);
    expect(retryWaitMs({}, now)).toBeNull();
  });
});

/** One request as the test server saw it. */
interface Seen {
  url: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}
type Responder = (seen: Seen) => { status: number; body: unknown; headers?: Record<string, string> };

let server: Server | null = null;
afterEach(async () => {
  const running = server;
  server = null;
  if (running) await new Promise<void>((resolve) => running.close(() => resolve()));
});

/** A real server on 127.0.0.1 answering with `respond`; returns its base URL and what it saw. */
async function serve(respond: Responder): Promise<{ base: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request = { url: req.url ?? '', headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> };
      seen.push(request);
      const out = respond(request);
      res.writeHead(out.status, { 'content-type': 'application/json', ...out.headers }).end(JSON.stringify(out.body));
    });
  });
  const running = server;
  await new Promise<void>((resolve) => running.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(running.address() as AddressInfo).port}`, seen };
}

function targetFor(provider: Provider, url: string, extra: Partial<CallTarget> = {}): CallTarget {
  const decision = egressDecision({ egress: { enabled: true }, net: { connect: [new URL(url).host] } }, url);
  if (!decision.allowed) throw new Error(decision.reason);
  return { provider, url, decision, apiKey: 'sk-test', timeoutMs: 5000, deadlineAt: Date.now() + 30_000, ...extra };
}

const ok = (): { status: number; body: unknown } => ({ status: 200, body: openaiReply({ content: JSON.stringify(VERDICT) }) });
/** OpenAI's own 400 bodies for a reasoning model. */
const UNSUPPORTED_MAX_TOKENS = { error: { message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", type: 'invalid_request_error', param: 'max_tokens', code: 'unsupported_parameter' } };
const UNSUPPORTED_TEMPERATURE = { error: { message: "Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported.", type: 'invalid_request_error', param: 'temperature', code: 'unsupported_value' } };

describe('calls over HTTP', () => {
  it('a reasoning model\'s 400s about max_tokens and temperature reshape the request; later calls start reshaped', async () => {
    const { base, seen } = await serve(({ body }) => {
      if ('max_tokens' in body) return { status: 400, body: UNSUPPORTED_MAX_TOKENS };
      if ('temperature' in body) return { status: 400, body: UNSUPPORTED_TEMPERATURE };
      return ok();
    });
    const target = targetFor(openaiProvider, openaiProvider.endpoint(`${base}/v1`));
    const first = await callModel(target, PROMPT);
    expect(first).toMatchObject({ delivered: true, requests: 3, reply: { ok: true, payload: VERDICT } });
    expect(seen[2]?.body).toMatchObject({ max_completion_tokens: 900 });
    expect(seen[2]?.body).not.toHaveProperty('temperature');
    const second = await callModel(target, PROMPT);
    expect(second).toMatchObject({ delivered: true, requests: 1 });
  });

  it('any other 400 fails at once with the provider\'s message; a 5xx is retried once only', async () => {
    const { base, seen } = await serve(() => ({ status: 400, body: { error: { message: 'Invalid schema for response_format' } } }));
    const outcome = await callModel(targetFor(openaiProvider, `${base}/v1/chat/completions`), PROMPT);
    expect(outcome).toEqual({ delivered: false, reason: `HTTP 400 from ${base}/v1/chat/completions: Invalid schema for response_format`, requests: 1 });
    expect(seen).toHaveLength(1);
  });

  it('Azure-style: the query survives, the key travels as api-key, never as a Bearer token', async () => {
    const { base, seen } = await serve(ok);
    const url = openaiProvider.endpoint(`${base}/openai/deployments/gpt4o?api-version=2024-10-21`);
    const outcome = await callModel(targetFor(openaiProvider, url), PROMPT);
    expect(outcome.delivered).toBe(true);
    expect(seen[0]?.url).toBe('/openai/deployments/gpt4o/chat/completions?api-version=2024-10-21');
    expect(seen[0]?.headers['api-key']).toBe('sk-test');
    expect(seen[0]?.headers.authorization).toBeUndefined();
  });

  it('without a key no authorization header is sent', async () => {
    const { base, seen } = await serve(ok);
    await callModel(targetFor(openaiProvider, `${base}/v1/chat/completions`, { apiKey: null }), PROMPT);
    expect(seen[0]?.headers.authorization).toBeUndefined();
    expect(seen[0]?.headers['api-key']).toBeUndefined();
  });

  it('a 429 with an HTTP-date Retry-After waits that long, once', async () => {
    let calls = 0;
    const { base } = await serve(() => {
      calls += 1;
      return calls === 1 ? { status: 429, body: { error: { message: 'rate limited' } }, headers: { 'retry-after': new Date(Date.now() + 2000).toUTCString() } } : ok();
    });
    const waits: number[] = [];
    const outcome = await callModel(targetFor(openaiProvider, `${base}/v1/chat/completions`, { sleep: (ms) => (waits.push(ms), Promise.resolve()) }), PROMPT);
    expect(outcome).toMatchObject({ delivered: true, requests: 2 });
    expect(waits).toHaveLength(1);
    // An HTTP date has whole seconds: between 1 and 2 seconds from now.
    expect(waits[0]).toBeGreaterThan(900);
    expect(waits[0]).toBeLessThanOrEqual(2000);
  });

  it('Anthropic: overloaded (529) twice fails after one retry, naming the status', async () => {
    const { base, seen } = await serve(() => ({ status: 529, body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } }));
    const outcome = await callModel(targetFor(anthropicProvider, anthropicProvider.endpoint(base), { sleep: () => Promise.resolve() }), PROMPT);
    expect(outcome).toEqual({ delivered: false, reason: `HTTP 529 from ${base}/v1/messages: Overloaded (after one retry)`, requests: 2 });
    expect(seen.map((s) => s.url)).toEqual(['/v1/messages', '/v1/messages']);
    expect(seen[0]?.headers['x-api-key']).toBe('sk-test');
    expect(seen[0]?.headers['anthropic-version']).toBe('2023-06-01');
  });
});
