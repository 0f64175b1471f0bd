/**
 * A real HTTP server on 127.0.0.1 speaking the OpenAI chat-completions dialect, scripted with edit
 * proposals for `jscr fix`. Each proposal reply may run a hook first (the tests use it to change the
 * file on disk between the question and the answer). Every request is recorded.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The SPEC 6 proposal fields, as the model would send them. */
export interface ScriptedProposal {
  path: string;
  start_line: number;
  end_line: number;
  symbol: string | null;
  replaces: string;
  replacement: string;
}

/** One scripted answer: a proposal (built from the request's user prompt if a function), or an HTTP failure. */
export type ProposalScript =
  | { proposal: ScriptedProposal | ((userPrompt: string) => ScriptedProposal); before?: () => void }
  | { status: number };

export interface RecordedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
  schemaName: string | null;
}

export interface ProposalServer {
  base: string;
  hostPort: string;
  requests: RecordedRequest[];
  connections: number;
  /** Answers taken in order; the last one repeats. */
  script: ProposalScript[];
  close(): Promise<void>;
}

export async function startProposalServer(): Promise<ProposalServer> {
  const state: ProposalServer = { base: '', hostPort: '', requests: [], connections: 0, script: [{ status: 500 }], close: async () => {} };
  let cursor = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: { response_format?: { json_schema?: { name?: string } }; messages?: { role: string; content: string }[] } = {};
      try {
        body = JSON.parse(raw) as typeof body;
      } catch {
        /* recorded as is */
      }
      const schemaName = body.response_format?.json_schema?.name ?? null;
      state.requests.push({ path: req.url ?? '', headers: req.headers, raw, schemaName });
      if (!(req.url ?? '').endsWith('/chat/completions') || schemaName !== 'jscr_proposal') {
        res.writeHead(404).end('{"error":{"message":"unknown route or schema"}}');
        return;
      }
      const entry = state.script[Math.min(cursor, state.script.length - 1)] ?? { status: 500 };
      cursor += 1;
      if ('status' in entry) {
        res.writeHead(entry.status, { 'content-type': 'application/json' }).end('{"error":{"message":"scripted failure"}}');
        return;
      }
      entry.before?.();
      const user = body.messages?.find((m) => m.role === 'user')?.content ?? '';
      const proposal = typeof entry.proposal === 'function' ? entry.proposal(user) : entry.proposal;
      const reply = {
        id: 'chatcmpl-fix',
        object: 'chat.completion',
        choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: JSON.stringify(proposal), refusal: null } }],
        usage: { prompt_tokens: 200, completion_tokens: 40 },
      };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
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
