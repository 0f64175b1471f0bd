/**
 * A Git LFS pointer in place of code: the repository holds three lines naming an object on an LFS
 * server, and a checkout with LFS (actions/checkout `lfs: true`, a developer's `git lfs pull`) puts
 * whatever was uploaded there on disk. jscr reads only the repository, so such a file was not
 * reviewed; it must never pass as a clean review.
 */
import { describe, expect, it } from 'vitest';
import { hostileChangeReviewer } from './helpers.js';

const review = hostileChangeReviewer();

/** A pointer as git-lfs writes it (spec v1): version, oid, size. */
const POINTER = ['version https://git-lfs.github.com/spec/v1', `oid sha256:${'4d7a2146'.repeat(8)}`, 'size 4096', ''].join('\n');
const LFS_ATTRIBUTES = '*.py filter=lfs diff=lfs merge=lfs -text\n*.png filter=lfs diff=lfs merge=lfs -text\n';

describe('Git LFS pointers', () => {
  it('a pointer under a code name is not reviewed (exit 3), never clean', async () => {
    const run = await review({ '.gitattributes': LFS_ATTRIBUTES, 'app.py': POINTER });
    expect(run.code).toBe(3);
    expect(run.skipped).toContainEqual(expect.objectContaining({ path: 'app.py', class: 'not_reviewed', reason: expect.stringContaining('lfs_pointer') }));
  });

  it('a pointer is recognised by its content, whatever .gitattributes says', async () => {
    const run = await review({ 'deploy.sh': POINTER });
    expect(run.code).toBe(3);
    expect(run.skipped).toContainEqual(expect.objectContaining({ path: 'deploy.sh', class: 'not_reviewed' }));
  });

  it('a pointer under a data name (an image) is data with nothing to review, and says where its content is', async () => {
    const run = await review({ '.gitattributes': LFS_ATTRIBUTES, 'logo.png': POINTER });
    expect(run.code).toBe(0);
    expect(run.skipped).toContainEqual(expect.objectContaining({ path: 'logo.png', class: 'data', reason: expect.stringContaining('Git LFS') }));
  });

  it('a code file that only quotes the pointer format later on is reviewed as code', async () => {
    const run = await review({ 'app.py': `import os\nSPEC = "${POINTER.split('\n')[0]}"\nos.system(input())\n` });
    expect(run.skipped.filter((s) => s.path === 'app.py')).toEqual([]);
  });
});
