import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

describe('jscr rules list from the bundle', () => {
  // dist/ is built before any test runs (npm test, or tests/global-setup.ts).
  it('finds rules/ from dist/jscr.mjs, whatever the working directory', () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'jscr-rules-cwd-'));
    try {
      const result = spawnSync(process.execPath, [join(repoRoot, 'bin', 'jscr'), 'rules', 'list'], { cwd: elsewhere, encoding: 'utf8' });
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
      expect(result.stdout).toMatch(/^jscr\/trojan-source-bidi\s+high\s+CWE-451\s/m);
      expect(result.stdout.trimEnd().split('\n').length).toBeGreaterThanOrEqual(45);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('--format json from the bundle includes the built-in checks; an unknown format is exit 2', () => {
    const json = spawnSync(process.execPath, [join(repoRoot, 'bin', 'jscr'), 'rules', 'list', '--format', 'json'], { cwd: tmpdir(), encoding: 'utf8' });
    expect(json.status).toBe(0);
    const ids = (JSON.parse(json.stdout) as { rules: { id: string }[] }).rules.map((r) => r.id);
    expect(ids).toContain('jscr/trojan-source-bidi');
    expect(ids).toContain('jscr/hardcoded-secret');
    const bad = spawnSync(process.execPath, [join(repoRoot, 'bin', 'jscr'), 'rules', 'list', '--format', 'yaml'], { cwd: tmpdir(), encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^jscr: option '--format <format>' argument 'yaml' is invalid/);
  });
});
