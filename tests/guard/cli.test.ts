/** `jscr guard` end to end through the built bundle: 0 accepted, 1 refused, 2 bad input. */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { consult, fixture, propose, tempRepo } from './helpers.js';
import { testNeedingAll } from '../helpers/programs.js';

// The guard's compile check (word 13) starts python3; the README promises only Node and git.
const itPython = testNeedingAll(['python3'], 'the guard CLI cases on a Python file');

const MAIN = join(import.meta.dirname, '..', '..');

function jscr(args: string[]) {
  return spawnSync(process.execPath, [join(MAIN, 'bin', 'jscr'), ...args], { encoding: 'utf8' });
}

let root: string;

beforeAll(() => {
  root = tempRepo({ 'sql-lookup.py': fixture('sql-lookup.py') });
}, 120_000);

function files(replacement: string, consultationText?: string) {
  const asked = consult(root, 'sql-lookup.py', { start: 4, end: 7, line: 5, symbol: 'lookup' });
  const consultationFile = join(root, '..', `${root.split('/').at(-1)}-consultation.json`);
  const proposalFile = join(root, '..', `${root.split('/').at(-1)}-proposal.json`);
  writeFileSync(consultationFile, consultationText ?? JSON.stringify(asked));
  writeFileSync(proposalFile, JSON.stringify(propose(asked, 5, 6, replacement)));
  return ['guard', '--repo', root, '--consultation', consultationFile, '--proposal', proposalFile];
}

describe('jscr guard', () => {
  itPython('prints an accepted Checked and exits 0', () => {
    const run = jscr(files('    cursor.execute("SELECT * FROM users WHERE id = %s", (user_id,))\n'));
    expect(run.status, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout) as { refusal: string | null; result_sha256: string | null };
    expect(out.refusal).toBeNull();
    expect(out.result_sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  itPython('prints the refusal word and exits 1', () => {
    const run = jscr(files('    import os\n    os.system(user_id)\n'));
    expect(run.status).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ refusal: 'import_outside_the_target', result_sha256: null });
  });

  it('exits 2 on input that is not JSON or not the shape', () => {
    const notJson = jscr(files('x\n', '{ not json'));
    expect(notJson.status).toBe(2);
    expect(notJson.stderr).toContain('not JSON');
    const wrongShape = jscr(files('x\n', JSON.stringify({ context: { path: 'a.py' } })));
    expect(wrongShape.status).toBe(2);
    expect(wrongShape.stdout).toBe('');
  });
});
