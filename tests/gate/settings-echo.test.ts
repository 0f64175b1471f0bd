/**
 * The gate's warnings about a malformed `[gate]` table never echo the repository's text beyond a
 * setting's name or a short plain value: a token pasted into .jscr.toml must not reach the agent's log.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSettings } from '../../src/gate/settings.js';

const TOKEN = `ghp_${'A1b2C3d4E5'.repeat(3)}xyz123`;
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function warningsFor(toml: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'jscr-gate-echo-'));
  dirs.push(dir);
  writeFileSync(join(dir, '.jscr.toml'), toml);
  return loadSettings({ JSCR_GATE_STATE_DIR: join(dir, 'state-outside') }, dir).warnings;
}

describe('gate warnings about .jscr.toml', () => {
  it.each([
    ['a bare token line', `[gate]\n${TOKEN}\n`],
    ['a token as a key', `[gate]\n${TOKEN} = 1\n`],
    ['a token as a count', `[gate]\nfull_denials = "${TOKEN}"\n`],
    ['a token as the denial cap', `[gate]\nmax_denials = "${TOKEN}"\n`],
  ])('never print %s', (_name, toml) => {
    const warnings = warningsFor(toml);
    expect(warnings.length).toBeGreaterThan(0);
    for (const w of warnings) expect(w).not.toContain(TOKEN.slice(4, 14));
  });

  it('still name a misspelt setting and show a short malformed value', () => {
    expect(warningsFor('[gate]\nful_denials = 3\n').join('\n')).toContain('ful_denials');
    expect(warningsFor('[gate]\nfull_denials = "3x"\n').join('\n')).toContain('"3x"');
  });
});
