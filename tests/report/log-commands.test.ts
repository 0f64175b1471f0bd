/**
 * Reviewed content (file names, evidence, rule messages, model text, step details) never forms a CI
 * runner command in anything jscr prints: every review format, prove's and fix's text, error lines.
 * `runnerCommands` reads output the way the GitHub Actions runner does (and more strictly: every
 * character some reader takes for a line break splits lines), so the test fails on any command the
 * runner would obey.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { InputError, reportError } from '../../src/errors.js';
import { renderFixText } from '../../src/commands/fix.js';
import type { FixOutcome } from '../../src/fix/fix.js';
import { proveJson, proveText } from '../../src/prover/render.js';
import type { ProveResult } from '../../src/prover/types.js';
import { defuseLogCommands, escapeJsonText, htmlInline, markdownFence, markdownInline } from '../../src/report/escape.js';
import type { ReviewReport } from '../../src/report/finding.js';
import { render } from '../../src/report/render.js';
import { runnerCommands } from '../helpers/runner-log.js';
import { cleanReport, finding } from './sample-reports.js';

/** Model text and file contents an attacker would write, one mechanism each. */
const HOSTILE_TEXTS: [string, string][] = [
  ['add-mask on a new line', 'ok\n::add-mask::x'],
  ['indented error with a space before ::', 'ok\n  ::error ::x'],
  ['tab-indented warning', 'ok\n\t::warning file=a::x'],
  ['no-break space before ::', 'ok\n\u00a0\u2003::notice::x'],
  ['lone CR', 'ok\r::error::x'],
  ['CRLF', 'ok\r\n::error::x'],
  ['vertical tab and form feed', 'ok\u000b::error::x\u000c::debug::y'],
  ['NEL and Unicode line and paragraph separators', 'ok\u0085::error::x\u2028::error::y\u2029::error::z'],
  ['stop-commands at the very start', '::stop-commands::token'],
  ['stop-commands on a later line, then the resume token', 'a\n::stop-commands::pause\nb\n::pause::'],
  ['legacy group mid-line', 'x = 1  # ##[group]hidden'],
  ['legacy error at line start', '##[error]fake'],
  ['three hashes', '###[warning]x'],
  ['Azure Pipelines', 'echo ##vso[task.setvariable variable=x]1'],
  ['upper-case Azure', 'echo ##VSO[task.complete]'],
];

function hostileReport(text: string): ReviewReport {
  const hostile = finding({
    rule: `jscr/rule${text}`,
    source: 'model',
    path: `src/${text}.py`,
    line: 3,
    title: `Title ${text}`,
    message: text,
    evidence: `code()\n${text}\nmore()`,
    cwe: 'CWE-78',
  });
  return {
    ...cleanReport(),
    findings: [hostile],
    steps: [{ name: 'model', status: 'failed', detail: `reply ${text}` }],
    scanners: [{ name: 'bandit', status: 'failed', detail: text }],
    limits_reached: [text],
    complete: false,
    incomplete_reasons: [text],
    skipped_files: [{ path: `${text}.py`, reason: 'not_regular' }],
    untracked_files: [`${text}.js`],
    exit_code: 3,
  };
}

describe('no review format lets reviewed content form a runner command', () => {
  for (const [name, text] of HOSTILE_TEXTS) {
    for (const format of ['text', 'json', 'sarif', 'markdown'] as const) {
      it(`${format}: ${name}`, () => {
        expect(runnerCommands(render(hostileReport(text), format, { color: false }))).toEqual([]);
      });
    }
    it(`github: ${name} (only our own annotations are commands)`, () => {
      const out = render(hostileReport(text), 'github', { color: false });
      // the incomplete notice and the one finding: two errors, nothing else
      expect(runnerCommands(out)).toEqual(['error', 'error']);
    });
  }
  it('the text stays readable: the defused command is shown, with a backslash', () => {
    const out = render(hostileReport('ok\n::add-mask::x'), 'text', { color: false });
    expect(out).toContain('\\::add-mask::x');
    expect(render(hostileReport('a ##[group]b'), 'text', { color: false })).toContain('a #\\#[group]b');
  });
  it('JSON and SARIF keep the exact value: only the bytes change', () => {
    const text = 'x ##[group]y ##vso[z] ::error::w';
    for (const format of ['json', 'sarif'] as const) {
      const out = render(hostileReport(text), format, { color: false });
      expect(out).not.toMatch(/##\[|##vso\[/i);
      expect(JSON.stringify(JSON.parse(out))).toContain(JSON.stringify(text).slice(1, -1));
    }
  });
  it('github annotations keep the runner escapes and carry the defused text', () => {
    const out = render(hostileReport('a%b\n::add-mask::x, y: z'), 'github', { color: false });
    const annotation = out.split('\n').find((line) => line.startsWith('::error file='));
    expect(annotation).toContain('file=src/a%25b%0A\\%3A%3Aadd-mask%3A%3Ax%2C y%3A z.py,');
    expect(annotation).toMatch(/::a%25b%0A\\::add-mask::x, y: z$/);
  });
});

describe('the escaping primitives', () => {
  it('defuseLogCommands breaks line-leading :: and every ##[, and leaves other colons and hashes', () => {
    expect(defuseLogCommands('::a::\n  ::b::\nc::d # e ##[f] ###[g] ##vso[h]')).toBe('\\::a::\n  \\::b::\nc::d # e #\\#[f] ##\\#[g] #\\#vso[h]');
  });
  it('escapeJsonText writes the second # of ##[ as \\u0023', () => {
    const json = escapeJsonText(JSON.stringify({ s: '##[group]' }));
    expect(json).toBe('{"s":"#\\u0023[group]"}');
    expect(JSON.parse(json)).toEqual({ s: '##[group]' });
  });
  it('Markdown inline and HTML text render the same and carry no command', () => {
    expect(markdownInline('::error::x ##[y]')).toBe('\\::error::x \\#\\#\\[y\\]');
    expect(htmlInline('::error::x ##[y] ##vso[z]')).toBe(':&#58;error:&#58;x ##&#91;y&#93; #&#35;vso&#91;z&#93;');
    expect(runnerCommands(markdownFence('a\n::error::x\n##[group]'))).toEqual([]);
  });
});

describe('prove, fix and error lines are defused too', () => {
  const text = 'ok\n::add-mask::x ##[group]y';
  it('jscr prove text and JSON', () => {
    const result = {
      findings: [
        {
          id: 'P1',
          rule: 'jscr/prover-unguarded-operation',
          label: text,
          path: `app/${text}.py`,
          line: 4,
          function: text,
          entry: { framework: 'flask', function: text, path: `app/${text}.py`, line: 1, evidence: text },
          hops: [],
          operation: { id: 'db.delete', kind: 'data_delete', call: text },
          missing: 'path_guard',
          weakerChecks: [text],
          severity: 'high',
          confidence: 0.9,
          cwe: 'CWE-862',
          evidence: text,
        },
      ],
      coverage: { filesByLanguage: {}, frameworksRecognised: {}, entryPoints: 1, reached: 1, unreached: 0, operationsChecked: 1, operationsDischarged: 0, uncheckedByReason: {} },
      degradations: [{ kind: 'exception', path: `app/${text}.py`, errorName: 'Error', message: text }],
    } as unknown as ProveResult;
    const run = { mode: 'repository', range: 'HEAD', exitCode: 1, notProven: null } as const;
    expect(runnerCommands(proveText(result, run))).toEqual([]);
    expect(runnerCommands(proveJson(result, run))).toEqual([]);
  });
  it('jscr fix text, diffs included', () => {
    const outcome = {
      rows: [
        {
          finding: finding({ rule: 'jscr/x', path: `src/${text}.py`, line: 2 }),
          outcome: 'needs_review',
          detail: text,
          diff: `--- a/x.py\n+++ b/x.py\n@@ -1,3 +1,3 @@\n ::error::context line\n-##[group]old\n+new\n`,
        },
      ],
      summary: { findings: 1, outcomes: { needs_review: 1 }, review_incomplete_reasons: [text] },
      runFolder: '/tmp/run',
    } as unknown as FixOutcome;
    expect(runnerCommands(renderFixText(outcome))).toEqual([]);
  });
  it('an error line that quotes hostile text', () => {
    const stderr = new PassThrough();
    reportError(new InputError(`cannot read ${text}\r::error::z`), stderr);
    const line = String(stderr.read());
    expect(runnerCommands(line)).toEqual([]);
    expect(line.trimEnd().split('\n')).toHaveLength(1);
  });
});

describe('Markdown: model text and paths become no link, image, HTML or mention', () => {
  const hostile = [
    'see https://evil.example/x and http://evil.example',
    'visit www.evil.example or WWW.Evil.example',
    'mail admin@evil.example',
    'ping @octocat and @org/team',
    'fixed in evil/repo#12 and #34',
    '[click](https://evil.example) ![img](https://evil.example/i.png) [ref][1]',
    '<https://evil.example> <img src=x onerror=alert(1)> <a href="https://evil.example">x</a>',
  ].join(' ');
  const report: ReviewReport = {
    ...cleanReport(),
    findings: [finding({ rule: 'model/x', source: 'model', path: 'www.evil.example/https://x.py', line: 1, title: hostile, message: `${hostile}\n${hostile}`, evidence: hostile })],
    steps: [{ name: 'model', status: 'failed', detail: hostile }],
    complete: false,
    incomplete_reasons: [hostile],
    exit_code: 3,
  };
  const out = render(report, 'markdown', { color: false });
  const outsideFences = out.replace(/^(`{3,})text\n[^]*?\n\1$/gm, '');

  it('no scheme URL, www. host, email or mention survives outside code', () => {
    expect(outsideFences).not.toMatch(/[a-z]:\/\//i);
    expect(outsideFences).not.toMatch(/www\./i);
    expect(outsideFences).not.toMatch(/@/);
    expect(outsideFences).not.toMatch(/&#64;(?!&#8203;)/);
    expect(outsideFences).not.toMatch(/(?<!&)#\d/);
  });
  it('no link, image or tag syntax survives outside code', () => {
    expect(outsideFences).not.toMatch(/(?<!\\)\[[^\]]*(?<!\\)\]\(/);
    expect(outsideFences).not.toMatch(/<(?!\/?(details|summary|strong|br)>)/);
  });
  it('evidence stays inside a fence whose content cannot end it', () => {
    const fences = out.match(/^(`{3,})text\n[^]*?\n\1$/gm) ?? [];
    expect(fences).toHaveLength(1);
    expect(fences[0]).toContain('[click](https://evil.example)');
  });
  it('the text still reads the same once rendered', () => {
    expect(markdownInline('see https://evil.example')).toBe('see https:&#8203;//evil.example');
    expect(htmlInline('mail a@b.example at www.x.example')).toBe('mail a&#64;&#8203;b.example at www&#8203;.x.example');
  });
});
