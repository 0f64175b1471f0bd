/**
 * A real HTTP server on 127.0.0.1 that speaks both provider dialects (OpenAI chat completions and
 * Anthropic messages) with scripted replies, and records every request and every connection.
 * Replies are written provider-neutrally and rendered in the dialect of the path that was called.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted reply. */
export type Scripted =
  | { findings: Record<string, unknown>[] }
  | { verdict: 'keep' | 'reject'; reason: string }
  | { prose: string }
  | { refusal: string }
  /** A 200 whose structured part is not valid JSON (OpenAI content) or of the wrong shape (Anthropic tool input). */
  | { malformed: true }
  | { status: number; body?: string; headers?: Record<string, string> }
  /** Never answer (the caller's timeout must fire). */
  | { hang: true };

export interface RecordedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
  body: Record<string, unknown>;
  /** `findings` or `verdict`, read from the schema or tool the request asked for. */
  kind: 'findings' | 'verdict' | 'unknown';
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
  close(): Promise<void>;
}

function kindOf(body: Record<string, unknown>): RecordedRequest['kind'] {
  const openai = (body['response_format'] as { json_schema?: { name?: string } } | undefined)?.json_schema?.name;
  const anthropic = (body['tool_choice'] as { name?: string } | undefined)?.name;
  const name = openai ?? anthropic;
  if (name === 'jscr_findings' || name === 'report_findings') return 'findings';
  if (name === 'jscr_verdict' || name === 'report_verdict') return 'verdict';
  return 'unknown';
}

const USAGE = { openai: { prompt_tokens: 120, completion_tokens: 30 }, anthropic: { input_tokens: 120, output_tokens: 30 } };

function render(dialect: 'openai' | 'anthropic', kind: RecordedRequest['kind'], reply: Scripted): { status: number; body: string; headers: Record<string, string> } {
  const json = (value: unknown): { status: number; body: string; headers: Record<string, string> } => ({ status: 200, body: JSON.stringify(value), headers: { 'content-type': 'application/json' } });
  if ('status' in reply) return { status: reply.status, body: reply.body ?? '{"error":{"message":"scripted failure"}}', headers: reply.headers ?? {} };
  const tool = kind === 'verdict' ? 'report_verdict' : 'report_findings';
  if (dialect === 'openai') {
    const message = (content: string | null, refusal: string | null = null): unknown => ({
      id: 'chatcmpl-test',
      object: 'chat.completion',
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content, refusal } }],
      usage: USAGE.openai,
    });
    if ('prose' in reply) return json(message(reply.prose));
    if ('refusal' in reply) return json(message(null, reply.refusal));
    if ('malformed' in reply) return json(message('{"verdict": "keep", "reason": '));
    return json(message(JSON.stringify(reply)));
  }
  const content = (blocks: unknown[], stop = 'tool_use'): unknown => ({ id: 'msg_test', type: 'message', role: 'assistant', content: blocks, stop_reason: stop, usage: USAGE.anthropic });
  if ('prose' in reply) return json(content([{ type: 'text', text: reply.prose }], 'end_turn'));
  if ('refusal' in reply) return json(content([{ type: 'text', text: reply.refusal }], 'refusal'));
  if ('malformed' in reply) return json(content([{ type: 'tool_use', id: 'tu_1', name: tool, input: { verdict: 'maybe' } }]));
  return json(content([{ type: 'tool_use', id: 'tu_1', name: tool, input: reply }]));
}

export async function startServer(): Promise<ScriptedServer> {
  const state: ScriptedServer = {
    base: '',
    hostPort: '',
    requests: [],
    connections: 0,
    review: [{ findings: [] }],
    verify: [{ verdict: 'keep', reason: 'the code does what the finding says' }],
    close: async () => {},
  };
  const cursor = { findings: 0, verdict: 0 };
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
      const kind = kindOf(body);
      state.requests.push({ path, headers: req.headers, raw, body, kind, at: Date.now() });
      const dialect = path.endsWith('/v1/messages') ? 'anthropic' : path.endsWith('/chat/completions') ? 'openai' : null;
      if (dialect === null || kind === 'unknown') {
        res.writeHead(404).end('{"error":{"message":"unknown route"}}');
        return;
      }
      const queue = kind === 'findings' ? state.review : state.verify;
      const index = Math.min(cursor[kind], queue.length - 1);
      cursor[kind] += 1;
      const reply = queue[index] ?? { status: 500 };
      if ('hang' in reply) return; // the socket is destroyed by close()
      const out = render(dialect, kind, reply);
      res.writeHead(out.status, out.headers).end(out.body);
    });
  });
  server.on('connection', () => {
    state.connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
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
