/**
 * Pattern findings weighed by what data flow saw reach their sink (docs/adr/0022): in one review of a
 * real repository, a value the file writes out itself drops the pattern finding, parameters and fields
 * with no source in sight keep it at low with what to check, and outside data (the request, the
 * command line, the URL, the console) or data flow cannot see the origin of keeps it at full severity.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { makeRepo, runJscr, type TestRepo } from '../helpers/repo.js';

interface Report {
  findings: { rule: string; source: string; path: string; line: number; severity: string; message: string }[];
}

const FILES: Record<string, string> = {
  'src/exec-argv.js': [
      'import { execSync } from "child_process";',
      'export function main() {',
      '  const ref = process.argv[2];',
      '  return execSync(`git show ${ref}`).toString();',
      '}',
    ].join('\n'),
  'src/exec-callback.js': [
      'import { execSync } from "child_process";',
      'export function removeAll(names) {',
      '  names.forEach((name) => {',
      '    execSync(`rm -rf ${name}`);',
      '  });',
      '}',
    ].join('\n'),
  'src/exec-caller.js': [
      'import { execSync } from "child_process";',
      'function git(args) {',
      '  return execSync(`git ${args}`).toString();',
      '}',
      'export function status() {',
      '  return git("status --short");',
      '}',
      'export function show(commit) {',
      '  return git("show " + commit);',
      '}',
    ].join('\n'),
  'src/exec-own.js': [
      'import { execSync } from "child_process";',
      'const DEFAULT_BRANCH = "main";',
      'export function headOf() {',
      '  const ref = DEFAULT_BRANCH;',
      '  return execSync(`git rev-parse ${ref}`).toString();',
      '}',
    ].join('\n'),
  'src/exec-param.js': [
      'import { execSync } from "child_process";',
      'export function changedBetween(fromSha, toSha) {',
      '  return execSync(',
      '    `git diff --name-only ${fromSha} ${toSha}`,',
      '  ).toString();',
      '}',
    ].join('\n'),
  'src/exec-request.js': [
      'import { execSync } from "child_process";',
      'export function handler(req, res) {',
      '  const name = req.query.name;',
      '  res.send(execSync(`grep ${name} /var/log/app.log`).toString());',
      '}',
    ].join('\n'),
  'src/html-fetched.js': [
      'export async function showNews(el) {',
      '  const response = await fetch("/news.html");',
      '  const html = await response.text();',
      '  el.innerHTML = html;',
      '}',
    ].join('\n'),
  'src/html-hash.js': [
      'export function showAnchor(el) {',
      '  const part = location.hash.slice(1);',
      '  el.innerHTML = part;',
      '}',
    ].join('\n'),
  'src/html-own.js': [
      'export function paintBanner(el) {',
      '  const parts = ["<b>", "Welcome", "</b>"];',
      '  el.innerHTML = parts.join("");',
      '}',
    ].join('\n'),
  'src/html-module.js': [
      '// A top-level name can be rewritten elsewhere, so it is not provably the function\'s own data.',
      'var greeting = "<p>Welcome</p>";',
      'export function paintGreeting(el) {',
      '  el.innerHTML = greeting + "<hr>";',
      '}',
      'export function setGreeting(text) {',
      '  greeting = text;',
      '}',
    ].join('\n'),
  'src/icon-button.ts': [
      'export class IconButton {',
      '  protected definition: { label: string; icon: string };',
      '  constructor(definition: { label: string; icon: string }) {',
      '    this.definition = definition;',
      '  }',
      '  render(el: HTMLElement): void {',
      '    const icon = document.createElement("div");',
      '    icon.innerHTML = this.definition.icon || "";',
      '    el.appendChild(icon);',
      '  }',
      '}',
    ].join('\n'),
  'py/tools.py': [
      'import os',
      '',
      '',
      'def archive(directory):',
      '    os.system("tar czf backup.tgz " + directory)',
      '',
      '',
      'def ask():',
      '    answer = input("directory? ")',
      '    os.system("ls " + answer)',
      '',
      '',
      'def fixed():',
      '    target = "build"',
      '    os.system("rm -rf " + target)',
    ].join('\n'),
};

let repo: TestRepo;
let report: Report;

beforeAll(async () => {
  repo = makeRepo({ 'README.md': 'cases\n' });
  repo.commit(Object.fromEntries(Object.entries(FILES).map(([path, text]) => [path, `${text}\n`])));
  const out = await runJscr(['review', '--no-model', '--range', 'HEAD~1..HEAD', '--format', 'json'], { cwd: repo.root, timeoutMs: 120_000 });
  expect(out.code, out.stderr).toBe(1);
  report = JSON.parse(out.stdout) as Report;
  repo.cleanup();
}, 120_000);

function at(path: string): Array<[string, number, string]> {
  return report.findings.filter((f) => f.path === path).map((f) => [f.rule, f.line, f.severity]);
}

describe('pattern findings weighed by data flow', () => {
  it('drops the pattern finding where the value is the module\'s own data', () => {
    expect(at('src/exec-own.js')).toEqual([]);
    expect(at('src/html-own.js')).toEqual([]);
    expect(report.findings.filter((f) => f.path === 'py/tools.py' && f.line === 15)).toEqual([]);
  });

  it('keeps it at low, naming what to check, where parameters or fields reach it and no source is in sight', () => {
    expect(at('src/exec-param.js')).toEqual([['jscr/js-child-process-exec-dynamic', 4, 'low']]);
    expect(at('src/icon-button.ts')).toEqual([['jscr/js-inner-html-dynamic', 8, 'low']]);
    const param = report.findings.find((f) => f.path === 'src/exec-param.js');
    expect(param?.message).toMatch(/^Data flow saw no outside input reach this in the file\. The value comes from parameter `fromSha` of `changedBetween`, parameter `toSha` of `changedBetween`\. Check what the callers of the function pass/);
    expect(report.findings.find((f) => f.path === 'src/icon-button.ts')?.message).toContain('field `this.definition`. Check where the field is set');
    // A helper whose callers in the file pass a constant and an exported function's parameter.
    expect(at('src/exec-caller.js')).toEqual([['jscr/js-child-process-exec-dynamic', 3, 'low']]);
    expect(report.findings.find((f) => f.path === 'py/tools.py' && f.line === 5)?.severity).toBe('low');
  });

  it('keeps full severity for the command line, the console, a callback\'s argument and markup flow cannot see the origin of (fetched, or a top-level name)', () => {
    expect(at('src/exec-argv.js')).toEqual([['jscr/js-child-process-exec-dynamic', 4, 'high']]);
    expect(report.findings.filter((f) => f.path === 'py/tools.py' && f.line === 10).map((f) => [f.rule, f.severity])).toEqual([['jscr/python-os-system-non-literal', 'high']]);
    expect(at('src/exec-callback.js')).toEqual([['jscr/js-child-process-exec-dynamic', 4, 'high']]);
    expect(at('src/html-fetched.js')).toEqual([['jscr/js-inner-html-dynamic', 4, 'medium']]);
    expect(at('src/html-module.js')).toEqual([['jscr/js-inner-html-dynamic', 4, 'medium']]);
  });

  it('reports request and URL data as flow findings at the row\'s severity, with no pattern finding beside them', () => {
    expect(at('src/exec-request.js')).toEqual([
      ['jscr/js-command-imported', 4, 'high'],
      ['jscr/js-response-body', 4, 'high'],
    ]);
    expect(at('src/html-hash.js')).toEqual([['jscr/js-inner-html-store', 3, 'high']]);
  });
});
