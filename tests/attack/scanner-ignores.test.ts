/**
 * A change that carries a scanner's own ignore file, or puts its secret where a scanner skips paths
 * of its own accord, must not get "ran, nothing found" from that scanner. Real repositories, the real
 * secretlint from jscr's node_modules, reviewed as CI would review the pull request.
 */
import { describe, expect } from 'vitest';
import { testsNeeding } from '../helpers/programs.js';
import { reposRemovedAfterEach, runJscr, type FileMap } from '../helpers/repo.js';

const repo = reposRemovedAfterEach();
const needs = testsNeeding(['secretlint', 'shellcheck']);

interface Report {
  findings: { rule: string; path: string; merged?: { rule: string }[] }[];
  scanners: { name: string; status: string; detail: string; not_analysed?: { path: string }[] }[];
}

const TOKEN_LINE = `const token = "ghp_${'A1b2C3d4E5'.repeat(3)}abcdef";\n`;

async function reviewWith(scanner: string, change: FileMap): Promise<{ code: number; report: Report }> {
  const r = repo({ '.jscr.toml': `[scanners]\nenabled = ["${scanner}"]\n`, 'README.md': '# app\n' });
  r.commit(change);
  const run = await runJscr(['review', '--range', 'HEAD~1..HEAD', '--no-model', '--format', 'json'], { cwd: r.root });
  if (run.code === 2) throw new Error(`review could not run: ${run.stderr}`);
  return { code: run.code, report: JSON.parse(run.stdout) as Report };
}

const scannerOf = (report: Report, name = 'secretlint'): Report['scanners'][number] | undefined => report.scanners.find((s) => s.name === name);

describe('secretlint on a hostile change', () => {
  needs.secretlint('a .secretlintignore the change adds does not hide the change\'s secret from secretlint', async () => {
    const { code, report } = await reviewWith('secretlint', { '.secretlintignore': '*\n**/*\n', 'src/client.js': TOKEN_LINE });
    expect(code).toBe(1);
    expect(scannerOf(report)).toMatchObject({ status: 'ran' });
    // secretlint's finding is folded into jscr's own at the same line, and named there.
    const bySecretlint = report.findings.filter((f) => f.path === 'src/client.js' && [f, ...(f.merged ?? [])].some((m) => m.rule.startsWith('secretlint/')));
    expect(bySecretlint).toHaveLength(1);
  });

  needs.secretlint('secretlint-disable comments the change writes do not hide its secret from secretlint', async () => {
    const hidden = `// secretlint-disable\n${TOKEN_LINE.replace('\n', ' // secretlint-disable-line\n')}/* secretlint-enable */\n`;
    const { code, report } = await reviewWith('secretlint', { 'src/client.js': hidden });
    expect(code).toBe(1);
    const bySecretlint = report.findings.filter((f) => f.path === 'src/client.js' && [f, ...(f.merged ?? [])].some((m) => m.rule.startsWith('secretlint/')));
    expect(bySecretlint).toHaveLength(1);
  });

  needs.secretlint('a file under node_modules/ that secretlint skips by itself is not analysed by it: partial, exit 3', async () => {
    const { code, report } = await reviewWith('secretlint', { 'lib/node_modules/pad/index.js': TOKEN_LINE, 'src/ok.js': 'export const a = 1;\n' });
    expect(code).toBe(3);
    expect(scannerOf(report)).toMatchObject({ status: 'partial', not_analysed: [{ path: 'lib/node_modules/pad/index.js' }] });
    // jscr's own detector still reads it.
    expect(report.findings.some((f) => f.path === 'lib/node_modules/pad/index.js')).toBe(true);
  });

  needs.secretlint('a change secretlint reads whole is still "ran" (exit 0 when clean)', async () => {
    const { code, report } = await reviewWith('secretlint', { 'src/ok.js': 'export const a = process.env.TOKEN;\n' });
    expect(code).toBe(0);
    expect(scannerOf(report)).toMatchObject({ status: 'ran' });
  });
});

describe('shellcheck on a hostile change', () => {
  const SCRIPT = '#!/bin/sh\nrm -rf $1/*\n';
  const shellcheckRules = (report: Report): string[] =>
    report.findings.flatMap((f) => [f, ...(f.merged ?? [])]).map((f) => f.rule).filter((rule) => rule.startsWith('shellcheck/')).sort();

  needs.shellcheck('`# shellcheck disable=...` comments the change writes do not silence shellcheck', async () => {
    const plain = await reviewWith('shellcheck', { 'bin/clean.sh': SCRIPT });
    const expected = shellcheckRules(plain.report);
    expect(expected).toContain('shellcheck/SC2086');
    for (const directive of ['# shellcheck disable=all', '# shellcheck disable=SC2086,SC2115', '#shellcheck disable=SC2086']) {
      const { code, report } = await reviewWith('shellcheck', { 'bin/clean.sh': SCRIPT.replace('\n', `\n${directive}\n`) });
      expect(code, directive).toBe(1);
      expect(scannerOf(report, 'shellcheck'), directive).toMatchObject({ status: 'ran' });
      expect(shellcheckRules(report), directive).toEqual(expected);
    }
  });
});
