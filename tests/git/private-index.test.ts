/**
 * `git diff` runs against a private copy of the index (src/policy/git.ts). git decides whether a file's
 * cached stat data can be trusted by comparing it with the index file's own mtime (the racy-git
 * check), so the copy must keep that mtime: a file rewritten in the index's second, at the same size,
 * is a change, not a clean file.
 */
import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readChange } from '../../src/git/change.js';
import { reposRemovedAfterEach } from '../helpers/repo.js';

const repo = reposRemovedAfterEach();

describe('the private index copy', () => {
  it('keeps racy entries racy: a same-size rewrite in the index second is in the working-tree diff', async () => {
    const r = repo({ 'README.md': 'x\n' });
    // ctime cannot be set back, so it is left out of git's comparison for this repository.
    r.git('config', 'core.trustctime', 'false');
    const file = join(r.root, 'app.py');
    const second = new Date('2020-01-01T00:00:00Z');
    writeFileSync(file, 'mode = "old"\n');
    utimesSync(file, second, second);
    r.git('add', 'app.py');
    r.git('commit', '-q', '-m', 'add app.py');
    // The index written in the same second as the file: its entry for app.py is racy.
    utimesSync(join(r.root, '.git', 'index'), second, second);
    writeFileSync(file, 'mode = "new"\n');
    utimesSync(file, second, second);

    const change = await readChange(r.root, { kind: 'working-tree' });
    expect(change.diffText).toContain('+mode = "new"');
  });
});
