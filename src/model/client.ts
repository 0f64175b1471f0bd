/**
 * One model call over src/egress/http.ts: a per-call timeout bounded by the review's deadline, and one
 * retry on 429 or 5xx after the wait the server asks for (bounded). Transport failures are values, and
 * no message built here contains a header value, so the API key cannot leak through an error.
 */
import { EgressError, postJson } from '../egress/http.js';
import { redactUrl, type EgressAllowed } from '../policy/egress.js';
import { WIDEST_REQUEST, shortText, type PromptParts, type Provider, type ProviderReply, type RequestAdjustments } from './providers.js';

/** The longest wait honoured from a Retry-After header. */
export const MAX_RETRY_WAIT_MS = 10_000;
/** The wait before the retry when the server does not say. */
const DEFAULT_RETRY_WAIT_MS = 500;

export interface CallTarget {
  provider: Provider;
  url: string;
  decision: EgressAllowed;
  apiKey: string | null;
  /** `model.timeout_s` in milliseconds. */
  timeoutMs: number;
  /** Epoch milliseconds of the review deadline. */
  deadlineAt: number;
  /** Injected for tests of the wait; defaults to a timer. */
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

/** A call that got a 2xx reply (whose payload may still be unusable), or one that did not. */
export type CallOutcome =
  | { delivered: true; reply: ProviderReply; requests: number }
  | { delivered: false; reason: string; requests: number };

const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** How many times one call may change its request shape after a 400 naming a field (max_tokens, temperature). */
const MAX_SHAPE_ADJUSTMENTS = 2;

/**
 * The request shape each target last succeeded or was told to use, so a review's later calls do not
 * repeat the 400 that taught it. Keyed by the target object the caller reuses across its calls.
 */
const learntShapes = new WeakMap<CallTarget, RequestAdjustments>();

/**
 * Milliseconds to wait before the retry, capped; null when the server does not say. OpenAI and Azure
 * also send `retry-after-ms`, which is more precise and wins; Retry-After is seconds or an HTTP date.
 */
export function retryWaitMs(headers: Record<string, string>, now: number): number | null {
  const precise = headers['retry-after-ms']?.trim();
  if (precise !== undefined && /^\d+(\.\d+)?$/.test(precise)) return Math.min(MAX_RETRY_WAIT_MS, Number(precise));
  return retryAfterMs(headers['retry-after'], now);
}

/** Milliseconds asked for by a Retry-After header (seconds or an HTTP date), capped; null when absent or unreadable. */
export function retryAfterMs(header: string | undefined, now: number): number | null {
  if (header === undefined || header.trim() === '') return null;
  const trimmed = header.trim();
  let ms: number;
  if (/^\d+(\.\d+)?$/.test(trimmed)) ms = Number(trimmed) * 1000;
  else {
    const at = Date.parse(trimmed);
    if (Number.isNaN(at)) return null;
    ms = at - now;
  }
  return Math.min(MAX_RETRY_WAIT_MS, Math.max(0, ms));
}

function retryable(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599);
}

/**
 * Send one prompt; retry once on 429/5xx; never throw for network or HTTP trouble. A 400 that names a
 * field the model does not accept in the form sent (`max_tokens`, `temperature`) is answered by
 * resending in the form it asks for, at most MAX_SHAPE_ADJUSTMENTS times; that is not the retry.
 */
export async function callModel(target: CallTarget, prompt: PromptParts): Promise<CallOutcome> {
  const now = target.now ?? Date.now;
  const sleep = target.sleep ?? defaultSleep;
  const shown = redactUrl(target.url);
  const headers = target.provider.headers(target.apiKey, target.url);
  let shape = learntShapes.get(target) ?? WIDEST_REQUEST;
  let adjustments = 0;
  let retried = false;
  let requests = 0;
  for (;;) {
    const left = target.deadlineAt - now();
    if (left <= 0) return { delivered: false, reason: `the review deadline passed before a reply from ${shown}`, requests };
    const timeoutMs = Math.max(1, Math.min(target.timeoutMs, left));
    let status: number;
    let text: string;
    let responseHeaders: Record<string, string>;
    try {
      requests += 1;
      const response = await postJson(target.url, target.provider.body(prompt, shape), { headers, timeoutMs, decision: target.decision });
      ({ status, text, headers: responseHeaders } = response);
    } catch (error) {
      if (error instanceof EgressError) {
        const why = error.kind === 'timeout' ? `no reply from ${shown} within ${timeoutMs} ms` : error.message;
        return { delivered: false, reason: why, requests };
      }
      throw error;
    }
    if (status >= 200 && status <= 299) {
      learntShapes.set(target, shape);
      let parsed: unknown;
      try {
        parsed = JSON.parse(text) as unknown;
      } catch {
        return { delivered: true, reply: { ok: false, problem: 'the reply body is not JSON', usage: { input_tokens: 0, output_tokens: 0 } }, requests };
      }
      return { delivered: true, reply: target.provider.read(prompt.kind, parsed), requests };
    }
    const reshaped = status === 400 && adjustments < MAX_SHAPE_ADJUSTMENTS ? target.provider.adjust(text, shape) : null;
    if (reshaped !== null) {
      shape = reshaped;
      learntShapes.set(target, shape);
      adjustments += 1;
      continue;
    }
    const failure = `HTTP ${status} from ${shown}${providerMessage(text)}`;
    if (!retryable(status) || retried) {
      return { delivered: false, reason: retried ? `${failure} (after one retry)` : failure, requests };
    }
    retried = true;
    const wait = retryWaitMs(responseHeaders, now()) ?? DEFAULT_RETRY_WAIT_MS;
    if (now() + wait >= target.deadlineAt) return { delivered: false, reason: `${failure}; no time left before the review deadline to retry`, requests };
    await sleep(wait);
  }
}

/** The provider's own error message, when its body has one (bounded; the caller scrubs the key anyway). */
function providerMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const message = typeof body.error === 'string' ? body.error : typeof body.error?.message === 'string' ? body.error.message : typeof body.message === 'string' ? body.message : null;
    return message ? `: ${shortText(message, 200)}` : '';
  } catch {
    return '';
  }
}
