/**
 * A change that rewrites the files which decide its own review in the same commit: the base
 * revision's configuration and attributes rule, so its hostile code is still found.
 */
import { describe, expect, it } from 'vitest';
import { hostileChangeReviewer } from './helpers.js';

const review = hostileChangeReviewer();
const HOSTILE = 'import os\n\ndef wipe(y):\n    os.system("rm -rf " + y)\n';

describe('attack: a change that excludes or marks itself', () => {
  it('a .jscr.toml exclude, a root and a nested .gitattributes, all added by the change: exit 1 with the finding', async () => {
    const result = await review({
      '.jscr.toml': '[review]\nexclude = ["src/**"]\nmin_confidence = 1.0\n[[suppress]]\nrule = "jscr/python-os-system-non-literal"\nreason = "fine"\n',
      '.gitattributes': '* linguist-vendored\n',
      'src/.gitattributes': '* linguist-generated\n',
      'src/wipe.py': HOSTILE,
    });
    expect(result.code).toBe(1);
    expect(result.where).toContain('jscr/python-os-system-non-literal src/wipe.py:4');
  });
});
