/**
 * Whether the configured model may be asked at all: a provider and a model name are configured, the
 * egress policy allows the destination, and the key is in the environment variable the configuration
 * names. One decision, shared by the review's model step and `jscr fix`, so both refuse for the same
 * reasons in the same words and neither can drift into a laxer rule.
 */
import type { JscrConfig } from '../config/index.js';
import { egressDecision, hostPortOf, keyDestinationRefusal } from '../policy/egress.js';
import type { CallTarget } from './client.js';
import { PROVIDERS } from './providers.js';
import { escapeOneLine } from '../report/escape.js';

/** A model that may be asked, or why none may. `scrub` removes the API key from any text. */
export type ModelAccess =
  | {
      ok: true;
      /** Where and how to call, with `deadlineAt` as given. */
      target: CallTarget;
      /** `model.name`. */
      modelName: string;
      /** `host:port (dialect, model)`, escaped for one-line diagnostics (the model name is configuration text). */
      where: string;
      scrub: (text: string) => string;
    }
  | {
      ok: false;
      /** One line saying why no connection is attempted. */
      reason: string;
      /** False only for `model.provider = "none"`: no model is wanted, which is not a failure. */
      configured: boolean;
      scrub: (text: string) => string;
    };

const identity = (text: string): string => text;

/** Decide whether the model may be asked; `deadlineAt` (epoch ms) bounds every call made with the target. */
export function modelAccess(config: JscrConfig, env: NodeJS.ProcessEnv, deadlineAt: number): ModelAccess {
  const provider = config.model.provider;
  if (provider === 'none') return { ok: false, configured: false, reason: 'no model configured (model.provider = "none")', scrub: identity };
  const refuse = (reason: string): ModelAccess => ({ ok: false, configured: true, reason, scrub: identity });
  const modelName = config.model.name;
  if (modelName === null) return refuse(`model.name is not set (model.provider is "${provider}")`);
  const dialect = PROVIDERS[provider];
  const url = dialect.endpoint(config.model.base_url ?? dialect.defaultBaseUrl);
  const decision = egressDecision(config, url);
  if (!decision.allowed) return refuse(`the model was not asked: ${decision.reason}`);
  let apiKey: string | null = null;
  if (config.model.api_key_env !== null) {
    const value = env[config.model.api_key_env];
    if (value === undefined || value === '') return refuse(`the environment variable ${config.model.api_key_env} (model.api_key_env) is not set`);
    const providerHost = hostPortOf(dialect.endpoint(dialect.defaultBaseUrl));
    const refusal = keyDestinationRefusal(decision.hostPort, 'hostPort' in providerHost ? providerHost.hostPort : '', env);
    if (refusal !== null) return refuse(`the model was not asked: ${refusal}`);
    apiKey = value;
  }
  // Defence in depth: no text that leaves a model step may carry the key, even if a server echoes it.
  const scrub = (text: string): string => (apiKey === null ? text : text.split(apiKey).join('[api key]'));
  const target: CallTarget = { provider: dialect, url, decision, apiKey, timeoutMs: config.model.timeout_s * 1000, deadlineAt };
  return { ok: true, target, modelName, where: escapeOneLine(`${decision.hostPort} (${dialect.name}, ${modelName})`), scrub };
}
