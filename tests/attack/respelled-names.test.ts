/**
 * A dangerous call whose name is written the way the language reads it but jscr's checks do not:
 * JavaScript identifiers with Unicode escapes, Java's `\uXXXX` escapes (read before any token),
 * Python identifiers that NFKC folds to ASCII (fullwidth, mathematical letters). Each such file is
 * not reviewed (exit 3), never passed as clean; the same escapes in strings, regular expressions,
 * comments, and names that stay as written, are reviewed as usual.
 */
import { describe, expect, it } from 'vitest';
import { hostileChangeReviewer } from './helpers.js';

const review = hostileChangeReviewer();

const notReviewed = (result: Awaited<ReturnType<typeof review>>): string[] => result.skipped.filter((f) => f.class === 'not_reviewed').map((f) => f.path).sort();

describe('attack: a name the language reads as another', () => {
  it('an escaped JavaScript or Java name, or a Python name NFKC folds, is not reviewed: exit 3, never clean', async () => {
    const result = await review({
      'run.js': 'const cp = require("child_process");\nfunction run(y) {\n  cp.\\u0065xec("rm -rf " + y);\n}\nmodule.exports = run;\n',
      'calc.ts': 'export function calc(y: string): unknown {\n  return \\u{65}val(y);\n}\n',
      'src/Run.java': 'class Run {\n  void run(String c) throws Exception {\n    Runtime.getRuntime().\\u0065xec("sh -c " + c);\n  }\n}\n',
      'src/Hidden.java': 'class Hidden {\n  void run(String c) throws Exception {\n    // tidy up \\u000a Runtime.getRuntime().exec(c);\n  }\n}\n',
      'wipe.py': 'import os\n\ndef wipe(y):\n    ｏｓ.system("rm -rf " + y)\n',
      'calc.py': 'def calc(y):\n    return f"{𝐞𝐯𝐚𝐥(y)}"\n',
    });
    expect(result.code).toBe(3);
    expect(notReviewed(result)).toEqual(['calc.py', 'calc.ts', 'run.js', 'src/Hidden.java', 'src/Run.java', 'wipe.py']);
    expect(result.skipped.find((f) => f.path === 'run.js')?.reason).toMatch(/reads as "exec"/);
    expect(result.skipped.find((f) => f.path === 'wipe.py')?.reason).toMatch(/is "os" to Python/);
  });

  it('escapes in strings, regular expressions and comments, non-ASCII text and names that stay as written are reviewed', async () => {
    const result = await review({
      'text.js': 'const accents = /[\\u00C0-\\u024F]/u;\nconst e = "caf\\u00e9";\nconst t = `\\u0041${e}`;\n// \\u0065val in a comment\nmodule.exports = { accents, e, t };\n',
      'src/Text.java': 'class Text {\n  static final String E = "caf\\u00e9";\n  static final char NUL = \'\\u0000\';\n}\n',
      'text.py': '# ｏｓ.system in a comment\ngröße = "ＡＢＣ"\nlabel = f"{größe} ｓｙｓｔｅｍ"\nnote = \'it\\\'s ｅｖａｌ\'\n',
    });
    expect(notReviewed(result)).toEqual([]);
    expect(result.code).toBe(0);
  });
});
