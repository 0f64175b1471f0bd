/**
 * A real HTTP server on 127.0.0.1 that speaks both provider dialects (OpenAI chat completions and
 * Anthropic messages) with scripted replies, and records every request and every connection.
 * Replies are written provider-neutrally and rendered in the dialect of the path that was called.
 * It answers the review's calls (findings, verdicts) and `jscr fix`'s edit proposals.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FACTS_SCHEMA_NAME, FACTS_TOOL_NAME, FINDINGS_SCHEMA_NAME, PROPOSAL_SCHEMA_NAME, PROPOSAL_TOOL_NAME, VERDICT_SCHEMA_NAME } from '../../src/model/schemas.js';

/** The SPEC 6 proposal fields, as the model would send them. */
export interface ScriptedProposal {
  path: string;
  start_line: number;
  end_line: number;
  symbol: string | null;
  replaces: string;
  replacement: string;
}

/** One scripted reply. */
type Scripted =
  | { findings: Record<string, unknown>[] }
  | { verdict: 'keep' | 'reject'; reason: string }
  /** An edit proposal, built from the request's user prompt if a function; `before` runs first (to change files on disk meanwhile). */
  | { proposal: ScriptedProposal | ((userPrompt: string) => ScriptedProposal); before?: () => void }
  /** `jscr facts init --propose` rows, built from the request's user prompt if a function. */
  | { rows: Record<string, unknown>[] | ((userPrompt: string) => Record<string, unknown>[]) }
  | { prose: string }
  | { refusal: string }
  /** A 200 whose structured part is not valid JSON (OpenAI content) or of the wrong shape (Anthropic tool input). */
  | { malformed: true }
  /** A 200 cut off by the output-token bound (finish_reason "length" / stop_reason "max_tokens"), carrying these findings. */
  | { truncated: Record<string, unknown>[] }
  | { status: number; body?: string; headers?: Record<string, string> }
  /** Never answer (the caller's timeout must fire). */
  | { hang: true }
  /** Answer 200 at once, then one byte of the body every 50 ms, never ending (only a whole-reply deadline stops it). */
  | { trickle: true };

interface RecordedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
  body: Record<string, unknown>;
  /** The schema (OpenAI) or forced tool (Anthropic) the request asked for. */
  schemaName: string | null;
  /** `findings`, `verdict` or `proposal`, read from that schema or tool name. */
  kind: 'findings' | 'verdict' | 'proposal' | 'facts' | 'unknown';
  at: number;
}

export interface ScriptedServer {
  base: string;
  hostPort: string;
  requests: RecordedRequest[];
  connections: number;
  /** Replies for review calls, taken in order; the last one repeats. */
  review: Scripted[];
  /** Replies for verification calls, taken in order; the last one repeats. */
  verify: Scripted[];
  /** Replies for edit-proposal calls, taken in order; the last one repeats. */
  propose: Scripted[];
  /** Replies for fact-acquisition calls, taken in order; the last one repeats. */
  facts: Scripted[];
  close(): Promise<void>;
}

function schemaNameOf(body: Record<string, unknown>): string | null {
  const openai = (body['response_format'] as { json_schema?: { name?: string } } | undefined)?.json_schema?.name;
  const anthropic = (body['tool_choice'] as { name?: string } | undefined)?.name;
  return openai ?? anthropic ?? null;
}

function kindOf(name: string | null): RecordedRequest['kind'] {
  if (name === FINDINGS_SCHEMA_NAME || name === 'report_findings') return 'findings';
  if (name === VERDICT_SCHEMA_NAME || name === 'report_verdict') return 'verdict';
  if (name === PROPOSAL_SCHEMA_NAME || name === PROPOSAL_TOOL_NAME) return 'proposal';
  if (name === FACTS_SCHEMA_NAME || name === FACTS_TOOL_NAME) return 'facts';
  return 'unknown';
}

/** The text of the request's user message (a string in both dialects as jscr sends them). */
function userPromptOf(body: Record<string, unknown>): string {
  const messages = (body['messages'] as { role?: string; content?: unknown }[] | undefined) ?? [];
  const content = messages.find((m) => m.role === 'user')?.content;
  return typeof content === 'string' ? content : '';
}

const USAGE = { openai: { prompt_tokens: 120, completion_tokens: 30 }, anthropic: { input_tokens: 120, output_tokens: 30 } };

function render(dialect: 'openai' | 'anthropic', kind: RecordedRequest['kind'], reply: Exclude<Scripted, { hang: true } | { trickle: true }>, userPrompt: string): { status: number; body: string; headers: Record<string, string> } {
  const json = (value: unknown): { status: number; body: string; headers: Record<string, string> } => ({ status: 200, body: JSON.stringify(value), headers: { 'content-type': 'application/json' } });
  if ('status' in reply) return { status: reply.status, body: reply.body ?? '{"error":{"message":"scripted failure"}}', headers: reply.headers ?? {} };
  const tool = kind === 'verdict' ? 'report_verdict' : kind === 'proposal' ? PROPOSAL_TOOL_NAME : kind === 'facts' ? FACTS_TOOL_NAME : 'report_findings';
  // What the structured part carries: a proposal is sent as its fields, rows as `{ rows }`, everything else as scripted.
  const structured = 'proposal' in reply ? (typeof reply.proposal === 'function' ? reply.proposal(userPrompt) : reply.proposal) : 'rows' in reply ? { rows: typeof reply.rows === 'function' ? reply.rows(userPrompt) : reply.rows } : reply;
  if (dialect === 'openai') {
    const message = (content: string | null, refusal: string | null = null, finish = 'stop'): unknown => ({
      id: 'chatcmpl-test',
      object: 'chat.completion',
      choices: [{ index: 0, finish_reason: finish, message: { role: 'assistant', content, refusal } }],
      usage: USAGE.openai,
    });
    // Cut where the bound fell; the text that did arrive ends in an unfinished JSON value.
    if ('truncated' in reply) return json(message(JSON.stringify({ findings: reply.truncated }).slice(0, -2), null, 'length'));
    if ('prose' in reply) return json(message(reply.prose));
    if ('refusal' in reply) return json(message(null, reply.refusal));
    if ('malformed' in reply) return json(message('{"verdict": "keep", "reason": '));
    return json(message(JSON.stringify(structured)));
  }
  const content = (blocks: unknown[], stop = 'tool_use'): unknown => ({ id: 'msg_test', type: 'message', role: 'assistant', content: blocks, stop_reason: stop, usage: USAGE.anthropic });
  if ('prose' in reply) return json(content([{ type: 'text', text: reply.prose }], 'end_turn'));
  if ('refusal' in reply) return json(content([{ type: 'text', text: reply.refusal }], 'refusal'));
  if ('malformed' in reply) return json(content([{ type: 'tool_use', id: 'tu_1', name: tool, input: { verdict: 'maybe' } }]));
  if ('truncated' in reply) return json(content([{ type: 'tool_use', id: 'tu_1', name: tool, input: { findings: reply.truncated } }], 'max_tokens'));
  return json(content([{ type: 'tool_use', id: 'tu_1', name: tool, input: structured }]));
}

/** Start the server on 127.0.0.1; `port` 0 (the default) lets the system choose a free one. */
export async function startServer(options: { port?: number } = {}): Promise<ScriptedServer> {
  const state: ScriptedServer = {
    base: '',
    hostPort: '',
    requests: [],
    connections: 0,
    review: [{ findings: [] }],
    verify: [{ verdict: 'keep', reason: 'the code does what the finding says' }],
    propose: [{ status: 500 }],
    facts: [{ rows: [] }],
    close: async () => {},
  };
  const cursor = { findings: 0, verdict: 0, proposal: 0, facts: 0 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        /* recorded as is */
      }
      const path = req.url ?? '';
      const schemaName = schemaNameOf(body);
      const kind = kindOf(schemaName);
      state.requests.push({ path, headers: req.headers, raw, body, schemaName, kind, at: Date.now() });
      const dialect = path.endsWith('/v1/messages') ? 'anthropic' : path.endsWith('/chat/completions') ? 'openai' : null;
      if (dialect === null || kind === 'unknown') {
        res.writeHead(404).end('{"error":{"message":"unknown route"}}');
        return;
      }
      const queue = kind === 'findings' ? state.review : kind === 'verdict' ? state.verify : kind === 'facts' ? state.facts : state.propose;
      const index = Math.min(cursor[kind], queue.length - 1);
      cursor[kind] += 1;
      const reply = queue[index] ?? { status: 500 };
      if ('hang' in reply) return; // the socket is destroyed by close()
      if ('trickle' in reply) {
        res.writeHead(200, { 'content-type': 'application/json' }).write('{');
        const drip = setInterval(() => (res.destroyed ? clearInterval(drip) : res.write(' ')), 50);
        res.on('close', () => clearInterval(drip));
        return;
      }
      if ('proposal' in reply) reply.before?.();
      const out = render(dialect, kind, reply, userPromptOf(body));
      res.writeHead(out.status, out.headers).end(out.body);
    });
  });
  server.on('connection', () => {
    state.connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  state.base = `http://127.0.0.1:${port}`;
  state.hostPort = `127.0.0.1:${port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
