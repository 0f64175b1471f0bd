import { describe, expect, it } from 'vitest';
import { escapeControls, escapeJsonText, markdownFence, markdownInline } from '../../src/report/escape.js';
import type { ReviewReport } from '../../src/report/finding.js';
import { render } from '../../src/report/render.js';
import { cleanReport, finding } from './sample-reports.js';

/** Characters that can rewrite a terminal or hide/reorder text. */
const DANGEROUS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2028\u2029\u2060-\u2069\ufeff]|\udb40[\udc00-\udc7f]/u;

describe('escapeControls', () => {
  const cases: [string, string, string][] = [
    ['ESC sequences', 'a\u001b[2Jb', 'a\\x1b[2Jb'],
    ['C1 CSI', 'a\u009b31mb', 'a\\x9b31mb'],
    ['bell, backspace, DEL', '\u0007\u0008\u007f', '\\x07\\x08\\x7f'],
    ['lone CR (overwrites the line)', 'shown\rhidden', 'shown\\x0dhidden'],
    ['CRLF is a plain line end', 'a\r\nb', 'a\nb'],
    ['tab and newline stay', 'a\tb\nc', 'a\tb\nc'],
    ['Trojan Source bidi override and isolates', 'if (x \u202e} \u2066{ \u2069', 'if (x \\u202e} \\u2066{ \\u2069'],
    ['zero-width characters', 'ad\u200bmin', 'ad\\u200bmin'],
    ['Unicode tag characters (invisible text)', 'x\u{e0069}\u{e0067}', 'x\\u{e0069}\\u{e0067}'],
    ['ordinary non-ASCII stays', 'naïve café 日本', 'naïve café 日本'],
  ];
  for (const [name, input, expected] of cases) {
    it(name, () => expect(escapeControls(input)).toBe(expected));
  }
  it('JSON escaping keeps the value and hides nothing', () => {
    const value = { s: 'a\u001b\u202e\u009b\u{e0041}b' };
    const text = escapeJsonText(JSON.stringify(value));
    expect(text).not.toMatch(DANGEROUS);
    expect(JSON.parse(text)).toEqual(value);
  });
});

describe('markdown escaping', () => {
  it('table cells cannot be split by |, and HTML and mentions are neutralised', () => {
    expect(markdownInline('a | b')).toBe('a \\| b');
    expect(markdownInline('</details><img src=x onerror=alert(1)>')).toBe('&lt;/details&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(markdownInline('ping @octocat')).toBe('ping &#64;&#8203;octocat');
    expect(markdownInline('two\nlines')).toBe('two\\\\nlines');
  });
  it('evidence cannot close its fence, whatever backticks it holds', () => {
    for (const evidence of ['```', 'a ```` b', '`````\nx\n```', 'plain']) {
      const block = markdownFence(evidence);
      const lines = block.split('\n');
      const fence = /^`+/.exec(lines[0] ?? '')?.[0] ?? '';
      expect(fence.length).toBeGreaterThanOrEqual(3);
      // only the last line may be a closing fence of that length or longer
      const closers = lines.slice(1).filter((line) => new RegExp(`^\`{${fence.length},}\\s*$`).test(line));
      expect(closers).toEqual([lines[lines.length - 1]]);
    }
  });
});

describe('no format lets a finding write control characters to the output', () => {
  const hostile = finding({
    rule: 'jscr/evil\u001b[2J',
    path: 'src/\u202eevil.py',
    line: 4,
    title: 'Title \u001b]8;;http://x\u0007link\u001b]8;;\u0007',
    message: 'Message \u009b31m red \rOVERWRITE \u200b\u{e0041}',
    evidence: 'x = 1 \u2067 # \u2069 \u001b[1A',
    cwe: 'CWE-78',
  });
  const report: ReviewReport = {
    ...cleanReport(),
    findings: [hostile],
    steps: [{ name: 'model', status: 'failed', detail: 'bad \u001b[31m reply' }],
    limits_reached: ['limit \u202e'],
    complete: false,
    incomplete_reasons: ['reason \u001bc'],
    exit_code: 3,
  };
  for (const format of ['text', 'json', 'sarif', 'markdown', 'github'] as const) {
    it(format, () => {
      const out = render(report, format, { color: false });
      expect(out).not.toMatch(DANGEROUS);
    });
  }
  it('text with colour has only our own SGR colour sequences', () => {
    const out = render(report, 'text', { color: true });
    const sequences = out.match(/\u001b[^m]*m/g) ?? [];
    expect(sequences.length).toBeGreaterThan(0);
    for (const seq of sequences) expect(seq).toMatch(/^\u001b\[[0-9;]*m$/);
    expect(out.replace(/\u001b\[[0-9;]*m/g, '')).not.toMatch(DANGEROUS);
  });
  it('text without colour has no ANSI sequences at all', () => {
    expect(render(report, 'text', { color: false })).not.toContain('\u001b');
  });
});
