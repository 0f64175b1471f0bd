import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { auditTree } from '../../tools/egress-audit.js';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const plantedTree = join(repoRoot, 'fixtures', 'egress-audit', 'planted-tree');

describe('egress audit', () => {
  it('finds nothing in the real src/', () => {
    expect(auditTree(join(repoRoot, 'src'))).toEqual([]);
  });

  it('reports exactly the planted violations, by module and line, and none of the look-alikes', () => {
    const found = auditTree(plantedTree).map((v) => `${v.module}:${v.line} ${v.rule}`);
    expect(found).toEqual([
      'model/planted-dynamic-undici.ts:3 network_module',
      'model/planted-dynamic-undici.ts:9 computed_specifier',
      'review/planted-https-import.ts:3 network_module',
      // git started around the hardened runner: imported, called, and reached through a namespace.
      'review/planted-raw-git.ts:1 process_module',
      'review/planted-raw-git.ts:5 process_module',
      'review/planted-raw-git.ts:8 process_module',
      'rules/planted-global-fetch.ts:2 network_global',
      'rules/planted-global-fetch.ts:7 network_global',
      'rules/planted-global-fetch.ts:11 network_global',
      'scanners/planted-child-process.ts:1 process_module',
      'scanners/planted-child-process.ts:7 network_module',
    ]);
  });

  it('fails the command line on the planted tree and passes it on a clean one', () => {
    const tsx = join(repoRoot, 'node_modules', '.bin', 'tsx');
    const audit = join(repoRoot, 'tools', 'egress-audit.ts');
    // The look-alike folder alone is clean (src/ itself is audited in-process above, faster).
    expect(execFileSync(tsx, [audit, join(plantedTree, 'report')], { cwd: repoRoot, encoding: 'utf8' })).toContain('clean');
    let status = 0;
    let stdout = '';
    try {
      execFileSync(tsx, [audit, plantedTree], { cwd: repoRoot, encoding: 'utf8' });
    } catch (error) {
      const failed = error as { status: number; stdout: string };
      status = failed.status;
      stdout = failed.stdout;
    }
    expect(status).toBe(1);
    expect(stdout).toContain('review/planted-https-import.ts:3: network_module: import of "node:https"');
  });
});
