import { expect } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

/**
 * Prove a whole small program (path → text) and list its findings as `label:path:line`. It fails when
 * nothing was checked, so a fixture the prover no longer reads cannot pass as "no findings".
 */
export async function proverLabels(files: Record<string, string>): Promise<string[]> {
  const result = await proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
  expect(result.coverage.operationsChecked).toBeGreaterThan(0);
  return result.findings.map((f) => `${f.label}:${f.path}:${f.line}`);
}
