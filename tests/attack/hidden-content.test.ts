/**
 * Code and secrets a change hides where a reader by file name would not look: a script with no
 * extension (its `#!` line names the interpreter), a key in binary content (a NUL byte, or UTF-16
 * text), a key in a lock file or a source map's embedded sources. Each is found, never "clean".
 */
import { describe, expect, it } from 'vitest';
import { hostileChangeReviewer } from './helpers.js';

const review = hostileChangeReviewer();
// Built at run time so no scanner of jscr's own repository mistakes the fixture for a leak.
const TOKEN = ['ghp', '_R8n3kLmQ2vX9pT4wY7zB1cD5fG6hJ0aS2eU3'].join('');
const SECRET_RULE = 'jscr/hardcoded-secret';

/** `text` as UTF-16 with a byte-order mark, the way Windows tools save a "Unicode" file. */
function utf16(text: string, order: 'le' | 'be'): Buffer {
  const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
  return order === 'le' ? le : le.swap16();
}

describe('attack: code and secrets hidden by name or encoding', () => {
  it('scripts without an extension are read in the language their #! line names', async () => {
    const result = await review({
      'bin/wipe': '#!/usr/bin/env python3\nimport os\n\ndef wipe(y):\n    os.system("rm -rf " + y)\n',
      'bin/wipe-js': '#!/usr/bin/env -S node --no-warnings\nconst cp = require("child_process");\nfunction wipe(y) {\n  cp.exec("rm -rf " + y);\n}\nmodule.exports = wipe;\n',
    });
    expect(result.code).toBe(1);
    expect(result.where).toEqual(expect.arrayContaining(['jscr/python-os-system-non-literal bin/wipe:5', 'jscr/js-child-process-exec-dynamic bin/wipe-js:4']));
  });

  it('a key in binary content (a NUL byte, UTF-16 in either byte order) is found in its strings', async () => {
    const result = await review({
      'creds.dat': Buffer.concat([Buffer.from([0, 1, 2, 3]), Buffer.from(`token=${TOKEN}\n`)]),
      'settings.txt': utf16(`GITHUB_TOKEN=${TOKEN}\r\n`, 'le'),
      'settings-be.txt': utf16(`GITHUB_TOKEN=${TOKEN}\r\n`, 'be'),
    });
    expect(result.code).toBe(1);
    expect(result.where).toEqual(expect.arrayContaining([`${SECRET_RULE} creds.dat:1`, `${SECRET_RULE} settings.txt:1`, `${SECRET_RULE} settings-be.txt:1`]));
  });

  it('binary data over review.max_file_bytes is data with nothing to review, not a failed review, and says its strings were not searched', async () => {
    const image = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]), Buffer.alloc(2_200_000, 7)]);
    const result = await review({ 'assets/hero.png': image });
    expect(result.code).toBe(0);
    const file = result.skipped.find((f) => f.path === 'assets/hero.png');
    expect(file?.class).toBe('data');
    expect(file?.reason).toMatch(/not searched for secrets/);
  });

  it("a key in a source map's embedded sources is found, though the map is data", async () => {
    const map = JSON.stringify({ version: 3, sources: ['a.js'], sourcesContent: [`const k = "${TOKEN}";`], mappings: 'AAAA' });
    const result = await review({ 'public/app.js.map': `${map}\n` });
    expect(result.code).toBe(1);
    expect(result.where).toContain(`${SECRET_RULE} public/app.js.map:1`);
  });

  it('code after a line break git does not see (a lone CR, U+2028, a UTF-7 declaration) is never passed as a comment: exit 3', async () => {
    const hidden: [string, string][] = [
      ['wipe.py', 'import os\n\ndef wipe(y):\n    # tidy up\r    os.system("rm -rf " + y)\n'],
      ['wipe.js', 'const cp = require("child_process");\nfunction wipe(y) {\n  // tidy up\r  cp.exec("rm -rf " + y);\n}\nmodule.exports = wipe;\n'],
      ['wipe2.js', 'const cp = require("child_process");\nfunction wipe(y) {\n  // tidy up\u2028  cp.exec("rm -rf " + y);\n}\nmodule.exports = wipe;\n'],
      // Python decodes UTF-7 before it tokenises: `+AAo-` is a line feed, so the call is code to it.
      ['utf7.py', '# -*- coding: utf-7 -*-\nimport os\n\ndef wipe(y):\n    # tidy up +AAo-    os.system("rm -rf %s" % y)\n'],
    ];
    for (const [path, text] of hidden) {
      const result = await review({ [path]: text });
      expect(result.code, path).toBe(3);
    }
    // CRLF line endings and a Latin-1 declaration are ordinary and reviewed as usual.
    const crlf = await review({ 'wipe.py': '# -*- coding: latin-1 -*-\r\nimport os\r\n\r\ndef wipe(y):\r\n    os.system("rm -rf " + y)\r\n' });
    expect(crlf.where).toContain('jscr/python-os-system-non-literal wipe.py:5');
  });
});
