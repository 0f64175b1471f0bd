/**
 * The registry of external scanners, in `scanners.enabled` order of the config schema. Scanners the
 * config accepts but this version cannot run are listed too, and say so as `not_run`: an enabled
 * scanner is never silently skipped or reported clean.
 */
import { bandit } from './bandit.js';
import { eslint } from './eslint.js';
import { notRun } from './common.js';
import { secretlint } from './secretlint.js';
import { shellcheck } from './shellcheck.js';
import type { ScannerAdapter } from './types.js';

export type { ScannerAdapter, ScannerInput, ScannerOutcome } from './types.js';

function withoutAdapter(name: string): ScannerAdapter {
  return {
    name,
    filesFor: (paths) => [...paths],
    run: () => Promise.resolve(notRun(`${name} is enabled but jscr has no adapter for it in this version`)),
  };
}

export const SCANNERS: readonly ScannerAdapter[] = [bandit, shellcheck, secretlint, eslint, withoutAdapter('semgrep'), withoutAdapter('gitleaks')];
