/**
 * The ONLY module of jscr that may reach the network (tools/egress-audit.ts proves it). A request needs
 * a positive egress decision (src/policy/egress.ts) for exactly the host:port it connects to; redirects
 * are never followed, so the destination cannot change after the decision.
 */
import { request } from 'undici';
import { JscrError } from '../errors.js';
import { timerDelay } from '../io.js';
import { hostPortOf, redactUrl, type EgressAllowed } from '../policy/egress.js';

/** How a request failed. */
export type EgressFailure = 'timeout' | 'connect' | 'refused_by_policy' | 'response_too_large';

/**
 * A request that did not complete. Messages name the URL without its query and never contain header
 * values (API keys travel in headers).
 */
export class EgressError extends JscrError {
  readonly exitCode = 3;
  constructor(
    readonly kind: EgressFailure,
    message: string,
  ) {
    super(message);
  }
}

export interface PostJsonOptions {
  headers: Record<string, string>;
  /** Whole-request deadline (connect, send, wait, read). */
  timeoutMs: number;
  /** The permission from egressDecision for this URL's host:port. */
  decision: EgressAllowed;
  /** Refuse replies larger than this (default 16 MiB). */
  maxResponseBytes?: number;
}

export interface HttpResponse {
  status: number;
  /** Lowercase header names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  text: string;
}

const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/** POST `body` as JSON and return the reply as text, whatever its status. */
export async function postJson(url: string, body: unknown, opts: PostJsonOptions): Promise<HttpResponse> {
  const shown = redactUrl(url);
  // The types already demand an allowed decision; check at run time too, and check it is for this host:port.
  const target = hostPortOf(url);
  if ((opts.decision as { allowed: unknown }).allowed !== true) {
    throw new EgressError('refused_by_policy', `POST ${shown}: no egress permission was given`);
  }
  if ('error' in target) throw new EgressError('refused_by_policy', `POST ${shown}: ${target.error}`);
  if (target.hostPort !== opts.decision.hostPort) {
    throw new EgressError('refused_by_policy', `POST ${shown}: permission was granted for ${opts.decision.hostPort}, not ${target.hostPort}`);
  }

  const limit = opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const timeoutMs = timerDelay(opts.timeoutMs);
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  try {
    const response = await request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...opts.headers },
      body: JSON.stringify(body),
      signal: controller.signal,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const chunks: Buffer[] = [];
    let received = 0;
    for await (const chunk of response.body) {
      const buffer = chunk as Buffer;
      received += buffer.length;
      if (received > limit) {
        response.body.destroy();
        throw new EgressError('response_too_large', `POST ${shown}: reply larger than ${limit} bytes`);
      }
      chunks.push(buffer);
    }
    return { status: response.statusCode, headers: flattenHeaders(response.headers), text: Buffer.concat(chunks).toString('utf8') };
  } catch (error) {
    if (error instanceof EgressError) throw error;
    if (timedOut || isTimeout(error)) throw new EgressError('timeout', `POST ${shown}: no complete reply within ${opts.timeoutMs} ms`);
    throw new EgressError('connect', `POST ${shown}: ${describeFailure(error)}`);
  } finally {
    clearTimeout(timer);
  }
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

function isTimeout(error: unknown): boolean {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' && TIMEOUT_CODES.has(error.code);
}

/** The error's code only: undici messages can echo request details, and headers must never reach a message. */
function describeFailure(error: unknown): string {
  if (error instanceof Error && 'code' in error && typeof error.code === 'string') return `connection failed (${error.code})`;
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  if (cause && typeof cause.code === 'string') return `connection failed (${cause.code})`;
  return 'connection failed';
}
