/** Opt-in decision metrics: one JSON line per decision, codes only (no paths, content or session ids). */
import { sha256Hex } from './hash.js';
import { closeSync, constants, fstatSync, lstatSync, openSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { ChangeProfile } from '../profile/profile.js';

const METRICS_MAX_BYTES = 1024 * 1024;

/** One decision, as codes. */
export interface DecisionRecord {
  tool: string;
  targetClass: string | null;
  decision: string;
  reason: string;
  questions: string[] | null;
  sensitive: boolean;
  profile: ChangeProfile | null;
}

function code(value: string | null): string | null {
  return value !== null && value.length <= 48 && /^[a-z][a-z0-9-]*(?::[a-z][a-z0-9-]*)?$/.test(value) ? value : null;
}

/** Append decision lines to `<stateDir>/metrics.jsonl`; rotates at 1 MiB; every error is ignored. */
export function appendMetrics(stateDir: string, sessionKey: string, records: readonly DecisionRecord[], now: number): void {
  if (records.length === 0) return;
  const session = sha256Hex(sessionKey).slice(0, 12);
  const text = records
    .map((r) =>
      JSON.stringify({
        v: 1,
        ts: new Date(now).toISOString(),
        session,
        tool: code(r.tool.toLowerCase()),
        class: code(r.targetClass),
        decision: code(r.decision),
        reason: code(r.reason),
        questions: r.questions === null ? null : r.questions.map(code),
        sensitive: r.sensitive,
        profile:
          r.profile === null
            ? null
            : {
                known: r.profile.known,
                language: code(r.profile.language),
                touchesPublicSurface: r.profile.touchesPublicSurface,
                touchesData: r.profile.touchesData,
                trivial: r.profile.trivial,
              },
      }),
    )
    .join('\n')
    .concat('\n');
  const file = join(stateDir, 'metrics.jsonl');
  try {
    try {
      const stat = lstatSync(file);
      if (!stat.isFile()) return;
      if (stat.size + Buffer.byteLength(text) > METRICS_MAX_BYTES) renameSync(file, `${file}.1`);
    } catch {
      // no file yet
    }
    const fd = openSync(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
    try {
      if (fstatSync(fd).isFile()) writeSync(fd, text);
    } finally {
      closeSync(fd);
    }
  } catch {
    // metrics never break the gate
  }
}
