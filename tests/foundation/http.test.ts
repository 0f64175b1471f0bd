import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EgressError, postJson } from '../../src/egress/http.js';
import { egressDecision } from '../../src/policy/egress.js';

let server: Server;
let base: string;
let port: number;
const received: { path: string; headers: IncomingMessage['headers']; body: string }[] = [];

function route(req: IncomingMessage, res: ServerResponse, body: string): void {
  received.push({ path: req.url ?? '', headers: req.headers, body });
  const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
  if (path === '/echo') {
    res.writeHead(200, { 'content-type': 'application/json', 'x-reply': 'yes' });
    res.end(JSON.stringify({ got: JSON.parse(body) as unknown }));
  } else if (path === '/slow') {
    setTimeout(() => res.end('late'), 2000);
  } else if (path === '/redirect') {
    res.writeHead(302, { location: 'http://169.254.169.254/latest' });
    res.end();
  } else if (path === '/big') {
    res.end('x'.repeat(5000));
  } else {
    res.writeHead(500);
    res.end('boom');
  }
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => route(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function allowed(url: string) {
  const decision = egressDecision({ egress: { enabled: true }, net: { connect: [`127.0.0.1:${port}`] } }, url);
  if (!decision.allowed) throw new Error(decision.reason);
  return decision;
}

async function egressErrorOf(promise: Promise<unknown>): Promise<EgressError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof EgressError) return error;
    throw error;
  }
  throw new Error('expected an EgressError');
}

describe('postJson', () => {
  it('posts JSON with the given headers and returns status, headers and text', async () => {
    const url = `${base}/echo`;
    const reply = await postJson(url, { question: 'safe?' }, { headers: { authorization: 'Bearer sk-test-123' }, timeoutMs: 5000, decision: allowed(url) });
    expect(reply.status).toBe(200);
    expect(reply.headers['x-reply']).toBe('yes');
    expect(JSON.parse(reply.text)).toEqual({ got: { question: 'safe?' } });
    const last = received.at(-1);
    expect(last?.headers.authorization).toBe('Bearer sk-test-123');
    expect(last?.headers['content-type']).toBe('application/json');
  });

  it('returns non-2xx replies as values', async () => {
    const url = `${base}/fail`;
    expect(await postJson(url, {}, { headers: {}, timeoutMs: 5000, decision: allowed(url) })).toMatchObject({ status: 500, text: 'boom' });
  });

  it('does not follow redirects', async () => {
    const url = `${base}/redirect`;
    expect(await postJson(url, {}, { headers: {}, timeoutMs: 5000, decision: allowed(url) })).toMatchObject({ status: 302 });
  });

  it('turns a timeout into EgressError(timeout) without header values in the message', async () => {
    const url = `${base}/slow?key=query-secret`;
    const error = await egressErrorOf(postJson(url, {}, { headers: { 'x-api-key': 'sk-very-secret' }, timeoutMs: 200, decision: allowed(url) }));
    expect(error.kind).toBe('timeout');
    expect(error.message).not.toContain('sk-very-secret');
    expect(error.message).not.toContain('query-secret');
  });

  it('refuses a URL whose host:port is not the one the decision was for', async () => {
    const decision = allowed(`${base}/echo`);
    const before = received.length;
    const error = await egressErrorOf(postJson(`http://localhost:${port}/echo`, {}, { headers: {}, timeoutMs: 1000, decision }));
    expect(error.kind).toBe('refused_by_policy');
    expect(received.length).toBe(before);
  });

  it('refuses a forged decision at run time', async () => {
    const forged = { allowed: false, hostPort: `127.0.0.1:${port}` } as unknown as { allowed: true; hostPort: string };
    expect((await egressErrorOf(postJson(`${base}/echo`, {}, { headers: {}, timeoutMs: 1000, decision: forged }))).kind).toBe('refused_by_policy');
  });

  it('reports a refused connection as EgressError(connect)', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const url = `http://127.0.0.1:${closedPort}/x`;
    const error = await egressErrorOf(postJson(url, {}, { headers: { authorization: 'Bearer sk-hidden' }, timeoutMs: 5000, decision: { allowed: true, hostPort: `127.0.0.1:${closedPort}` } }));
    expect(error.kind).toBe('connect');
    expect(error.message).toContain('ECONNREFUSED');
    expect(error.message).not.toContain('sk-hidden');
  });

  it('refuses a reply above the size limit', async () => {
    const url = `${base}/big`;
    expect((await egressErrorOf(postJson(url, {}, { headers: {}, timeoutMs: 5000, decision: allowed(url), maxResponseBytes: 1000 }))).kind).toBe('response_too_large');
  });
});
