/**
 * The end-to-end tests call `main` in-process; these few run the built program, `node bin/jscr`, to
 * show that what ships is what they tested: the same report from the bundle as from the source, a
 * report larger than a pipe's buffer delivered whole with the exit code, and the exit codes and
 * one-line errors of a real process.
 */
import { describe, expect, it } from 'vitest';
import { runJscr, runJscrBinary } from '../helpers/cli.js';
import { reposRemovedAfterEach } from '../helpers/repo.js';
import { VERSION } from '../../src/version.js';

const repo = reposRemovedAfterEach();

const withoutDurations = (text: string): string => text.replace(/"duration_ms": \d+/g, '"duration_ms": 0');

describe('node bin/jscr', () => {
  it('gives the same JSON and SARIF reports and exit code as main called in-process', async () => {
    const r = repo({ 'calc.py': 'def add(a, b):\n    return a + b\n' });
    r.commit({ 'app.js': 'const cp = require("child_process");\ncp.exec("ls " + req.query.dir);\n', 'run.py': 'import os\nos.system("rm -rf " + path)\n' });
    for (const format of ['json', 'sarif']) {
      const args = ['review', '--no-model', '--range', 'HEAD~1..HEAD', '--format', format];
      const [spawned, inProcess] = [await runJscrBinary(args, r.root), await runJscr(args, r.root)];
      expect(spawned.stderr).toBe('');
      expect(spawned.code).toBe(1);
      expect(inProcess.code).toBe(1);
      expect(withoutDurations(spawned.stdout)).toBe(withoutDurations(inProcess.stdout));
    }
  });

  it('delivers a report larger than a pipe holds, whole, with its exit code', async () => {
    // Enough findings for a JSON report far past the 64 KiB a pipe buffers.
    const lines = Array.from({ length: 220 }, (_, i) => `os.system("rm -rf " + path${i})`);
    const r = repo({ 'README.md': 'x\n' });
    r.commit({ 'run.py': `import os\n${lines.join('\n')}\n` });
    const run = await runJscrBinary(['review', '--no-model', '--range', 'HEAD~1..HEAD', '--format', 'json'], r.root);
    expect(Buffer.byteLength(run.stdout)).toBeGreaterThan(96 * 1024);
    const report = JSON.parse(run.stdout) as { exit_code: number; findings: unknown[] };
    expect(report.findings.length).toBeGreaterThanOrEqual(100);
    expect(run.code).toBe(report.exit_code);
    expect(run.code).toBe(1);
  });

  it('exits 2 with one line for a bad revision and for a usage error, and 0 for --version', async () => {
    const r = repo({ 'a.py': 'x = 1\n' });
    const badRevision = await runJscrBinary(['review', '--no-model', '--range', 'nowhere..HEAD'], r.root);
    expect(badRevision.code).toBe(2);
    expect(badRevision.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(badRevision.stderr).toMatch(/^jscr: .*nowhere/);
    const usage = await runJscrBinary(['review', '--format', 'yaml'], r.root);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/^jscr: [^\n]*yaml[^\n]*\n$/);
    const version = await runJscrBinary(['--version'], r.root);
    expect(version).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
  });
});
