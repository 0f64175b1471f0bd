/**
 * The redaction step of the review (seed step 7): everything assembled for the model passes the
 * secret detector. With `redaction.block_on_secret` a secret stops the send; otherwise values are
 * replaced by markers. With no model configured the step still runs and says what it would have done.
 */
import { plural } from '../report/summary.js';
import { redact, RedactionCounter, type Replacement } from './redact.js';
import type { SecretRuleSet } from './rules.js';

/** Input of the redaction step. */
export interface RedactionInput {
  /** The prompt material, file by file (context bundle texts). */
  material: { path: string; text: string }[];
  /** `redaction.block_on_secret`. */
  blockOnSecret: boolean;
  /** Whether a model provider is configured (otherwise nothing would be sent anyway). */
  modelConfigured: boolean;
}

/** Per-file outcome. */
export interface RedactionFileOutcome {
  path: string;
  /** Secret values detected in this file. */
  found: number;
  /** Markers written (a multi-line value gets one per line, so this can exceed `found`). */
  redacted: number;
  /** Secret rule ids that matched, sorted and unique. */
  rules: string[];
  replacements: Replacement[];
}

/** Output of the redaction step. */
export interface RedactionOutcome {
  files: RedactionFileOutcome[];
  /** Total secret values found across the material. */
  secretsFound: number;
  /** block_on_secret and at least one secret: nothing may be sent. */
  blocked: boolean;
  /** The redacted material; null when blocked, so blocked material cannot be sent by mistake. */
  material: { path: string; text: string }[] | null;
  /** True when some redaction joined lines (never, by construction; kept for the guard's check). */
  joinedLines: boolean;
  /** Set when the run is incomplete because of this step: a configured model could not be asked. */
  incompleteReason: string | null;
  /** One line for the report's step record. */
  detail: string;
}

/** Run the secret detector over the prompt material and decide block, redact or pass. */
export function redactionStep(input: RedactionInput, rules?: SecretRuleSet): RedactionOutcome {
  const counter = new RedactionCounter();
  const files: RedactionFileOutcome[] = [];
  const redactedMaterial: { path: string; text: string }[] = [];
  let secretsFound = 0;
  let joinedLines = false;
  for (const item of input.material) {
    const result = redact(item.text, counter, rules);
    const found = result.values;
    secretsFound += found;
    joinedLines ||= result.joinedLines;
    redactedMaterial.push({ path: item.path, text: result.text });
    if (found > 0) {
      files.push({
        path: item.path,
        found,
        redacted: result.replacements.length,
        rules: [...new Set(result.replacements.map((r) => r.rule))].sort(),
        replacements: result.replacements,
      });
    }
  }
  const blocked = input.blockOnSecret && secretsFound > 0;
  const what = `${plural(secretsFound, 'secret')} in ${plural(files.length, 'file')}`;
  let detail: string;
  if (!input.modelConfigured) {
    detail =
      secretsFound === 0
        ? `no model configured; no secrets found in ${plural(input.material.length, 'file')} of prompt material`
        : `no model configured; would have ${blocked ? 'blocked' : 'redacted'} ${what}`;
  } else if (secretsFound === 0) {
    detail = `no secrets found in ${plural(input.material.length, 'file')} of prompt material`;
  } else if (blocked) {
    detail = `blocked the send: ${what} (redaction.block_on_secret is true)`;
  } else {
    detail = `redacted ${what} before the send`;
  }
  return {
    files,
    secretsFound,
    blocked,
    material: blocked ? null : redactedMaterial,
    joinedLines,
    incompleteReason: blocked && input.modelConfigured ? `a secret blocked the send to the model (${what})` : null,
    detail,
  };
}
