/** Table of change-profile cases: each names the rule it pins. Shared by the table test. */
import type { ChangeInput } from '../../src/profile/profile.js';

export interface ProfileCase {
  name: string;
  input: ChangeInput;
  expect: Partial<{ known: boolean; language: string | null; touchesPublicSurface: boolean; touchesData: boolean; trivial: boolean }>;
}

const cases: ProfileCase[] = [];

/** An Edit of `file` replacing `oldString` by `newString`, checked against the file. */
function edit(name: string, path: string, file: string | null, oldString: string, newString: string, expect: ProfileCase['expect'], replaceAll = false): void {
  cases.push({ name, input: { kind: 'edit', path, fileText: file, edits: [{ oldString, newString, replaceAll }] }, expect });
}
function write(name: string, path: string, content: string, expect: ProfileCase['expect']): void {
  cases.push({ name, input: { kind: 'write', path, content }, expect });
}
/** A comment edit that must be trivial: the file holds `old` in context. */
function trivial(name: string, path: string, file: string, oldString: string, newString: string): void {
  edit(`trivial: ${name}`, path, file, oldString, newString, { known: true, trivial: true });
}
function notTrivial(name: string, path: string, file: string, oldString: string, newString: string): void {
  edit(`not trivial: ${name}`, path, file, oldString, newString, { trivial: false });
}

// ---- unknown profile and its bounds ----
edit('unknown: Ruby is unsupported', 'app/models/user.rb', 'x = 1\n', 'x = 1', 'x = 2', { known: false, trivial: false, touchesPublicSurface: true, touchesData: true });
edit('unknown: Makefile', 'Makefile', 'all:\n', 'all:', 'build:', { known: false });
edit('unknown: Swift', 'a.swift', 'let a = 1\n', 'a', 'b', { known: false });
edit('unknown: fish', 'conf.fish', 'set x 1\n', 'x', 'y', { known: false });
edit('unknown: PowerShell data file', 'mod.psd1', '@{}\n', '@{}', '@{ }', { known: false });
edit('unknown: no extension', 'bin/tool', 'echo\n', 'echo', 'echo hi', { known: false });
cases.push({ name: 'unknown: no entries', input: { kind: 'edit', path: 'a.ts', fileText: null, edits: [] }, expect: { known: false } });
cases.push({
  name: 'bound: 64 entries is still known',
  input: { kind: 'edit', path: 'a.ts', fileText: null, edits: Array.from({ length: 64 }, (_, i) => ({ oldString: `a${i}`, newString: `b${i}` })) },
  expect: { known: true },
});
cases.push({
  name: 'bound: 65 entries is unknown',
  input: { kind: 'edit', path: 'a.ts', fileText: null, edits: Array.from({ length: 65 }, (_, i) => ({ oldString: `a${i}`, newString: `b${i}` })) },
  expect: { known: false },
});
edit('bound: a side of exactly 64 KiB is known', 'a.ts', null, 'x'.repeat(64 * 1024), 'y', { known: true });
edit('bound: a side one byte over 64 KiB is unknown', 'a.ts', null, 'x'.repeat(64 * 1024 + 1), 'y', { known: false });
edit('bound: a side over 64 KiB in UTF-8 bytes (not characters) is unknown', 'a.ts', null, 'é'.repeat(32 * 1024 + 1), 'y', { known: false });
cases.push({
  name: 'bound: 256 KiB in all is known',
  input: { kind: 'edit', path: 'a.ts', fileText: null, edits: Array.from({ length: 4 }, () => ({ oldString: 'a'.repeat(32 * 1024), newString: 'b'.repeat(32 * 1024) })) },
  expect: { known: true },
});
cases.push({
  name: 'bound: over 256 KiB in all is unknown',
  input: { kind: 'edit', path: 'a.ts', fileText: null, edits: Array.from({ length: 5 }, () => ({ oldString: 'a'.repeat(32 * 1024), newString: 'b'.repeat(32 * 1024) })) },
  expect: { known: false },
});
cases.push({
  name: 'unknown: a non-string side',
  input: { kind: 'edit', path: 'a.ts', fileText: null, edits: [{ oldString: 'a', newString: 3 as unknown as string }] },
  expect: { known: false },
});
write('bound: Write content over 64 KiB is unknown', 'a.py', 'x'.repeat(64 * 1024 + 1), { known: false });

// ---- languages by extension ----
for (const [ext, language] of [
  ['.js', 'javascript'], ['.mjs', 'javascript'], ['.cjs', 'javascript'], ['.jsx', 'javascript'], ['.ts', 'typescript'],
  ['.tsx', 'typescript'], ['.mts', 'typescript'], ['.cts', 'typescript'], ['.py', 'python'], ['.pyi', 'python'],
  ['.go', 'go'], ['.rs', 'rust'], ['.java', 'java'], ['.kt', 'kotlin'], ['.kts', 'kotlin'], ['.cs', 'csharp'],
  ['.c', 'c'], ['.h', 'c'], ['.cc', 'c'], ['.cpp', 'c'], ['.cxx', 'c'], ['.hpp', 'c'], ['.hh', 'c'], ['.hxx', 'c'],
  ['.sh', 'shell'], ['.bash', 'shell'], ['.zsh', 'shell'], ['.ps1', 'powershell'], ['.psm1', 'powershell'],
  ['.bat', 'batch'], ['.CMD', 'batch'],
] as const) {
  edit(`language: ${ext} reads as ${language}`, `src/file${ext}`, null, 'a', 'b', { known: true, language });
}

// ---- Write ----
write('write: always public surface', 'src/a.py', 'x = 1\n', { known: true, touchesPublicSurface: true, trivial: false });
write('write: data word json', 'src/a.py', 'import json\n', { touchesData: true });
write('write: a comment-only Write is never trivial', 'src/a.py', '# only a comment\n', { trivial: false });

// ---- public surface: JS/TS ----
const noFile = null;
edit('surface js: export line', 'a.ts', noFile, 'export function a() {}', 'export function b() {}', { touchesPublicSurface: true });
edit('surface js: module.exports', 'a.js', noFile, 'module.exports = a;', 'module.exports = b;', { touchesPublicSurface: true });
edit('surface js: exports.x', 'a.js', noFile, 'exports.run = run;', 'exports.go = run;', { touchesPublicSurface: true });
edit('surface js: declare', 'a.ts', noFile, 'declare const x: number;', 'declare const x: string;', { touchesPublicSurface: true });
edit('surface js: public member', 'a.ts', noFile, '  public run() {}', '  public go() {}', { touchesPublicSurface: true });
edit('surface js: body line is not surface', 'a.ts', noFile, '  return a + b;', '  return a - b;', { touchesPublicSurface: false });
edit('surface js: exported word inside identifier does not count', 'a.ts', noFile, 'const exporter = 1;', 'const exporter = 2;', { touchesPublicSurface: false });
edit('surface js: .d.ts is all surface', 'types/a.d.ts', noFile, '  x: number;', '  x: string;', { touchesPublicSurface: true });
edit('surface js: .d.mts is all surface', 'types/a.d.mts', noFile, '  x: number;', '  x: string;', { touchesPublicSurface: true });
const iface = 'export interface User {\n  name: string;\n  age: number;\n}\n';
edit('opener js: member of an exported interface', 'a.ts', iface, 'age: number;', 'age: string;', { touchesPublicSurface: true });
const enumFile = 'export enum Colour {\n  Red,\n  Green,\n}\n';
edit('opener js: variant of an exported enum', 'a.ts', enumFile, 'Green,', 'Blue,', { touchesPublicSurface: true });
const exportList = 'export {\n  alpha,\n  beta,\n};\n';
edit('opener js: name in an export list', 'a.ts', exportList, 'beta,', 'gamma,', { touchesPublicSurface: true });
const exportedConst = 'export const LIMITS = {\n  max: 3,\n};\n';
edit('opener js: exported const object', 'a.ts', exportedConst, 'max: 3,', 'max: 4,', { touchesPublicSurface: true });
const arrowConst = 'export const run = () => {\n  const x = 1;\n};\n';
edit('opener js: exported arrow function is a body', 'a.ts', arrowConst, 'const x = 1;', 'const x = 2;', { touchesPublicSurface: false });
const exportedFn = 'export function run() {\n  const x = 1;\n}\n';
edit('opener js: exported function is a body', 'a.ts', exportedFn, 'const x = 1;', 'const x = 2;', { touchesPublicSurface: false });
const moduleExportsObject = 'module.exports = {\n  alpha,\n  beta,\n};\n';
edit('opener js: module.exports object', 'a.js', moduleExportsObject, 'beta,', 'gamma,', { touchesPublicSurface: true });
const exportedClass = 'export class Store {\n  size = 1;\n  get() {\n    return this.size;\n  }\n}\n';
edit('opener js: class member at member indentation', 'a.ts', exportedClass, 'size = 1;', 'size = 2;', { touchesPublicSurface: true });
edit('opener js: method body of an exported class is not surface', 'a.ts', exportedClass, 'return this.size;', 'return this.size + 1;', { touchesPublicSurface: false });
const topLevelAfterClose = 'export interface A {\n  x: number;\n}\nfunction local() {\n  return 1;\n}\n';
edit('opener js: closing brace above means top level', 'a.ts', topLevelAfterClose, 'return 1;', 'return 2;', { touchesPublicSurface: false });
const privateClass = 'class Hidden {\n  size = 1;\n}\n';
edit('opener js: a non-exported class is not a public opener', 'a.ts', privateClass, 'size = 1;', 'size = 2;', { touchesPublicSurface: false });
const decorated = 'export interface A {\n  // a comment line\n  @dec\n  x: number;\n}\n';
edit('opener js: comments and decorators are skipped on the way up', 'a.ts', decorated, 'x: number;', 'x: string;', { touchesPublicSurface: true });

// ---- a comment-only entry on a line that declares a public name: the edit's own text decides (#13) ----
const exportWithComment = 'export const LIMIT = 3; // per user\nexport function run() {\n  return LIMIT;\n}\n';
edit('comment on a public line: comment-only edit is not surface', 'a.ts', exportWithComment, '// per user', '// per account', { touchesPublicSurface: false, trivial: true });
edit('comment on a public line: whole line in the snippet, comment-only, is not surface', 'a.ts', exportWithComment, 'export const LIMIT = 3; // per user', 'export const LIMIT = 3; // per account', { touchesPublicSurface: false, trivial: true });
edit('comment on a public line: changing the value is surface', 'a.ts', exportWithComment, 'LIMIT = 3; // per user', 'LIMIT = 4; // per user', { touchesPublicSurface: true, trivial: false });
edit('comment on a public line: without the file the snippet decides', 'a.ts', null, 'export const LIMIT = 3; // per user', 'export const LIMIT = 3; // per account', { touchesPublicSurface: true });
const pyConstWithComment = 'API_URL = "https://example.test"  # the staging host\n\ndef call():\n    return API_URL\n';
edit('comment on a public line: python comment-only edit is not surface', 'a.py', pyConstWithComment, '# the staging host', '# the test host', { touchesPublicSurface: false, trivial: true });
edit('comment on a public line: python value change is surface', 'a.py', pyConstWithComment, '"https://example.test"  # the staging host', '"https://other.test"  # the staging host', { touchesPublicSurface: true, trivial: false });
const shWithComment = 'export PATH_PREFIX=/opt/app # install root\nrun() {\n  echo "$PATH_PREFIX"\n}\n';
edit('comment on a public line: shell comment-only edit is not surface', 'run.sh', shWithComment, '# install root', '# where it is installed', { touchesPublicSurface: false, trivial: true });
edit('comment on a public line: shell value change is surface', 'run.sh', shWithComment, '/opt/app # install root', '/srv/app # install root', { touchesPublicSurface: true, trivial: false });
cases.push({
  name: 'comment on a public line: a comment entry beside a body change leaves the body change to decide',
  input: { kind: 'edit', path: 'a.ts', fileText: exportWithComment, edits: [{ oldString: '// per user', newString: '// per account', replaceAll: false }, { oldString: 'return LIMIT;', newString: 'return LIMIT + 1;', replaceAll: false }] },
  expect: { touchesPublicSurface: false, trivial: false },
});

// ---- public surface: Python ----
edit('surface py: public def', 'a.py', noFile, 'def load(path):', 'def load(p):', { touchesPublicSurface: true });
edit('surface py: private def is not surface', 'a.py', noFile, 'def _load(path):', 'def _load(p):', { touchesPublicSurface: false });
edit('surface py: dunder is public', 'a.py', noFile, '    def __init__(self):', '    def __init__(self, x):', { touchesPublicSurface: true });
edit('surface py: async def', 'a.py', noFile, 'async def fetch():', 'async def fetch_all():', { touchesPublicSurface: true });
edit('surface py: public class', 'a.py', noFile, 'class Store:', 'class Store(Base):', { touchesPublicSurface: true });
edit('surface py: __all__', 'a.py', noFile, "__all__ = ['a']", "__all__ = ['a', 'b']", { touchesPublicSurface: true });
edit('surface py: column-0 assignment of a public name (second line)', 'a.py', noFile, 'x = 1\nlimit = 3', 'x = 1\nlimit = 4', { touchesPublicSurface: true });
edit('surface py: column-0 annotation', 'a.py', noFile, 'pass\nlimit: int = 3', 'pass\nlimit: int = 4', { touchesPublicSurface: true });
edit('surface py: private module name is not surface', 'a.py', noFile, 'pass\n_cache = {}', 'pass\n_cache = []', { touchesPublicSurface: false });
edit('surface py: first line lowercase assignment may be indented local', 'a.py', noFile, 'count = 1', 'count = 2', { touchesPublicSurface: false });
edit('surface py: first line uppercase constant counts', 'a.py', noFile, 'MAX_SIZE = 1', 'MAX_SIZE = 2', { touchesPublicSurface: true });
edit('surface py: comparison is not an assignment', 'a.py', noFile, 'pass\nif x == 1: pass', 'pass\nif x == 2: pass', { touchesPublicSurface: false });
edit('surface py: else: is not an annotation', 'a.py', noFile, 'pass\nelse:', 'pass\nelse :', { touchesPublicSurface: false });
edit('surface py: __init__.py is all surface', 'pkg/__init__.py', noFile, '    x = 1', '    x = 2', { touchesPublicSurface: true });
const pyAll = '__all__ = [\n    "alpha",\n    "beta",\n]\n';
edit('opener py: inside __all__', 'a.py', pyAll, '"beta",', '"gamma",', { touchesPublicSurface: true });
const pyClass = 'class Config:\n    timeout: int = 3\n\n    def run(self):\n        local = 1\n';
edit('opener py: class attribute of a public class', 'a.py', pyClass, 'timeout: int = 3', 'timeout: int = 4', { touchesPublicSurface: true });
edit('opener py: method local is not surface', 'a.py', pyClass, 'local = 1', 'local = 2', { touchesPublicSurface: false });
const pyPrivateClass = 'class _Config:\n    timeout = 3\n';
edit('opener py: private class attribute is not surface', 'a.py', pyPrivateClass, 'timeout = 3', 'timeout = 4', { touchesPublicSurface: false });

// ---- public surface: Go, Rust, shells ----
edit('surface go: exported func', 'a.go', noFile, 'func Load() error {', 'func Load(ctx Context) error {', { touchesPublicSurface: true });
edit('surface go: method with receiver', 'a.go', noFile, 'func (s *Store) Get() {', 'func (s *Store) Get(k string) {', { touchesPublicSurface: true });
edit('surface go: unexported func', 'a.go', noFile, 'func load() error {', 'func load(x int) error {', { touchesPublicSurface: false });
edit('surface go: type', 'a.go', noFile, 'type Store struct {', 'type Store struct { // x', { touchesPublicSurface: true });
edit('surface go: package line', 'a.go', noFile, 'package store', 'package stores', { touchesPublicSurface: true });
edit('surface go: capitalised field line', 'a.go', noFile, '\tName string', '\tName []string', { touchesPublicSurface: true });
edit('surface go: lowercase body line', 'a.go', noFile, '\tx := 1', '\tx := 2', { touchesPublicSurface: false });
edit('surface rust: pub fn', 'a.rs', noFile, 'pub fn run() {', 'pub fn run(x: u8) {', { touchesPublicSurface: true });
edit('surface rust: pub(crate)', 'a.rs', noFile, 'pub(crate) fn run() {', 'pub(crate) fn go() {', { touchesPublicSurface: true });
edit('surface rust: impl', 'a.rs', noFile, 'impl Store {', 'impl Store<T> {', { touchesPublicSurface: true });
edit('surface rust: derive attribute', 'a.rs', noFile, '#[derive(Debug)]', '#[derive(Debug, Clone)]', { touchesPublicSurface: true });
edit('surface rust: unsafe(no_mangle) attribute', 'a.rs', noFile, '#[unsafe(no_mangle)]', '#[unsafe(no_mangle)] ', { touchesPublicSurface: true });
edit('surface rust: private fn body', 'a.rs', noFile, '    let x = 1;', '    let x = 2;', { touchesPublicSurface: false });
const rustEnum = 'pub enum Mode {\n    Fast,\n    Slow,\n}\n';
edit('opener rust: variant of a pub enum', 'a.rs', rustEnum, 'Slow,', 'Careful,', { touchesPublicSurface: true });
edit('surface sh: function definition', 'a.sh', noFile, 'deploy() {', 'deploy () {', { touchesPublicSurface: true });
edit('surface sh: function keyword', 'a.sh', noFile, 'function deploy {', 'function deploy_all {', { touchesPublicSurface: true });
edit('surface sh: export', 'a.sh', noFile, '  export PATH=/bin', '  export PATH=/usr/bin', { touchesPublicSurface: true });
edit('surface sh: declare -x', 'a.sh', noFile, 'declare -rx MODE=a', 'declare -rx MODE=b', { touchesPublicSurface: true });
edit('surface sh: plain command', 'a.sh', noFile, 'echo hi', 'echo hello', { touchesPublicSurface: false });
edit('surface ps: function (case-insensitive)', 'a.ps1', noFile, 'FUNCTION Get-Thing {', 'FUNCTION Get-Things {', { touchesPublicSurface: true });
edit('surface ps: param block', 'a.ps1', noFile, 'param($a)', 'param($a, $b)', { touchesPublicSurface: true });
edit('surface ps: $global:', 'a.ps1', noFile, '$global:Mode = 1', '$global:Mode = 2', { touchesPublicSurface: true });
edit('surface ps: Export-ModuleMember', 'a.psm1', noFile, 'Export-ModuleMember -Function A', 'Export-ModuleMember -Function B', { touchesPublicSurface: true });
edit('surface ps: plain statement', 'a.ps1', noFile, '$x = 1', '$x = 2', { touchesPublicSurface: false });
for (const ext of ['.java', '.kt', '.cs', '.c', '.cpp', '.bat']) {
  edit(`surface: ${ext} is always surface`, `a${ext}`, noFile, 'x = 1;', 'x = 2;', { touchesPublicSurface: true });
}

// ---- data words ----
for (const [text, data] of [
  ['const raw = JSON.parse(body);', true],
  ['const rows = readCsv(path);', true],
  ['const when = new Date();', true],
  ['const t = row.createdAt.toISOString();', true],
  ['x = datetime.utcnow()', true],
  ['buf = base64.b64encode(b)', true],
  ['localStorage.setItem("k", v)', true],
  ['document.cookie = v', true],
  ['client = redis.Redis()', true],
  ['await prisma.user.findMany()', true],
  ['const fs = require("fs")', true],
  ['with open(path) as f:', true],
  ['const text = readFile(path)', true],
  ['let s = std::fs::read_to_string(p)?;', true],
  ['now := time.Now()', true],
  ['t, err := time.Parse(layout, s)', true],
  ['q = "SELECT id FROM users"', true],
  ['q = "insert into logs values (1)"', true],
  ['const valid = validate(input);', false],
  ['const updated = mark(x);', false],
  ['return a + b;', false],
  ['const mandate = 1;', false],
] as const) {
  edit(`data: ${text}`, 'a.ts', noFile, text, `${text} `, { touchesData: data });
}
edit('data sh: redirect to a file', 'a.sh', noFile, 'echo hi > out.txt', 'echo hi > out2.txt', { touchesData: true });
edit('data sh: append redirect', 'a.sh', noFile, 'echo hi >> log', 'echo ho >> log', { touchesData: true });
edit('data sh: &> redirect', 'a.sh', noFile, 'run &> all.log', 'run &> all2.log', { touchesData: true });
edit('data sh: input redirect', 'a.sh', noFile, 'sort < names', 'sort -r < names', { touchesData: true });
edit('data sh: /dev/null is not data', 'a.sh', noFile, 'run > /dev/null', 'run -q > /dev/null', { touchesData: false });
edit('data sh: 2>&1 is not data', 'a.sh', noFile, 'run 2>&1', 'run -q 2>&1', { touchesData: false });
edit('data sh: >&2 is not data', 'a.sh', noFile, 'echo oops >&2', 'echo oh >&2', { touchesData: false });
edit('data sh: heredoc is not a redirection', 'a.sh', noFile, 'cat <<EOF', 'cat <<END', { touchesData: false });
edit('data sh: process substitution is not a redirection', 'a.sh', noFile, 'diff <(a) <(b)', 'diff <(b) <(a)', { touchesData: false });
edit('data sh: curl', 'a.sh', noFile, 'curl -s "$u"', 'curl -sS "$u"', { touchesData: true });
edit('data sh: jq', 'a.sh', noFile, 'jq .a', 'jq .b', { touchesData: true });
edit('data sh: tee', 'a.sh', noFile, 'run | tee', 'run | tee -a', { touchesData: true });
edit('data sh: a > inside quotes still counts', 'a.sh', noFile, 'echo "a > b"', 'echo "a > c"', { touchesData: true });
edit('data ps: Out-File', 'a.ps1', noFile, '$x | Out-File a.txt', '$y | Out-File a.txt', { touchesData: true });
edit('data ps: Invoke-RestMethod', 'a.ps1', noFile, 'Invoke-RestMethod $u', 'Invoke-RestMethod $v', { touchesData: true });
edit('data ps: Import-Csv', 'a.ps1', noFile, 'Import-Csv a', 'Import-Csv b', { touchesData: true });
edit('data ps: $null redirect is not data', 'a.ps1', noFile, 'run > $null', 'run -q > $null', { touchesData: false });
edit('data bat: nul redirect is not data', 'a.bat', noFile, 'run > nul', 'run /q > nul', { touchesData: false });

// ---- trivial edits: what passes ----
const jsFile = 'function total(a, b) {\n  // add them\n  return a + b;\n}\n';
trivial('js line comment text', 'a.js', jsFile, '// add them', '// add the two numbers');
trivial('js comment removed', 'a.js', jsFile, '  // add them\n', '');
trivial('js comment added', 'a.js', jsFile, '  return a + b;', '  // sum\n  return a + b;');
trivial('js trailing comment', 'a.js', jsFile, 'return a + b;', 'return a + b; // sum');
trivial('js blanks between tokens folded', 'a.js', jsFile, 'return a + b;', 'return  a  +  b;');
trivial('js blank line added', 'a.js', jsFile, '  return a + b;\n', '\n  return a + b;\n');
trivial('js block comment', 'a.js', 'const a = 1; /* old */\n', '/* old */', '/* new */');
trivial('js multi-line block comment added', 'a.ts', 'const a = 1;\nconst b = 2;\n', 'const b = 2;', '/*\n * about b\n */\nconst b = 2;');
trivial('ts comment in .ts', 'a.ts', 'let a: number = 1; // one\n', '// one', '// uno');
const pyFile = 'def total(a, b):\n    # add them\n    return a + b\n';
trivial('py comment text', 'a.py', pyFile, '# add them', '# add both');
trivial('py trailing comment', 'a.py', pyFile, 'return a + b', 'return a + b  # sum');
trivial('py comment-only line carries no indentation', 'a.py', pyFile, '    # add them', '# add them');
trivial('py string with # inside unchanged', 'a.py', 'x = "a # b"  # c\n', '# c', '# d');
trivial('go comment', 'a.go', 'package a\n\nfunc f() int {\n\t// one\n\treturn 1\n}\n', '// one', '// uno');
trivial('rust line comment', 'a.rs', 'fn f() -> u8 {\n    // one\n    1\n}\n', '// one', '// uno');
trivial('rust lifetime is not a char', 'a.rs', "fn f<'a>(x: &'a str) {} // c\n", '// c', '// d');
trivial('java comment', 'A.java', 'class A {\n  // one\n  int x = 1;\n}\n', '// one', '// uno');
trivial('c preprocessor stays code, comment changes', 'a.c', '#include <stdio.h>\n// one\nint x;\n', '// one', '// uno');
trivial('kotlin comment', 'a.kt', 'val x = 1 // one\n', '// one', '// uno');
trivial('csharp comment', 'a.cs', 'int x = 1; // one\n', '// one', '// uno');
trivial('sh comment', 'a.sh', 'echo hi\n# one\necho ho\n', '# one', '# uno');
trivial('sh comment after ;', 'a.sh', 'echo hi ;# one\n', '# one', '# uno');
trivial('ps comment', 'a.ps1', '$x = 1\n# one\n', '# one', '# uno');
trivial('ps block comment', 'a.ps1', '$x = 1\n<# one #>\n', '<# one #>', '<# uno #>');
trivial('bat REM', 'a.bat', '@echo off\nREM one\necho hi\n', 'REM one', 'REM uno');
trivial('bat @rem', 'a.bat', '@echo off\n@rem one\necho hi\n', '@rem one', '@rem uno');
trivial('directive unchanged next to edited comment', 'a.ts', '// eslint-disable-next-line no-eval\n// plain note\neval(x);\n', '// plain note', '// a plainer note');

// ---- trivial edits: the traps ----
notTrivial('code change', 'a.js', jsFile, 'return a + b;', 'return a - b;');
notTrivial('a+b to a + b (presence of blanks is code)', 'a.py', 'x = a+b\n', 'a+b', 'a + b');
notTrivial('whitespace inside a string', 'a.py', 'x = "a b"\n', '"a b"', '"a  b"');
notTrivial('python indentation is code', 'a.py', 'if x:\n    y = 1\n', '    y = 1', '        y = 1');
notTrivial('line structure is code', 'a.js', 'const a = 1; const b = 2;\n', 'const a = 1; const b = 2;', 'const a = 1;\nconst b = 2;');
notTrivial('js template literal', 'a.js', 'const s = `a`; // c\n', '// c', '// d');
notTrivial('go backtick', 'a.go', 'var s = `a` // c\n', '// c', '// d');
notTrivial('python triple quote', 'a.py', 'x = """a""" # c\n', '# c', '# d');
notTrivial('python f-string', 'a.py', 'x = f"{a}" # c\n', '# c', '# d');
notTrivial('java text block', 'A.java', 'String s = """a"""; // c\n', '// c', '// d');
notTrivial('kotlin string with $', 'a.kt', 'val s = "$a" // c\n', '// c', '// d');
notTrivial('csharp triple quote', 'a.cs', 'var s = """a"""; // c\n', '// c', '// d');
notTrivial('csharp verbatim string', 'a.cs', 'var s = @"a"; // c\n', '// c', '// d');
notTrivial('csharp interpolated string', 'a.cs', 'var s = $"a"; // c\n', '// c', '// d');
notTrivial('rust raw string', 'a.rs', 'let s = r"a"; // c\n', '// c', '// d');
notTrivial('rust raw string with hashes', 'a.rs', 'let s = r#"a"#; // c\n', '// c', '// d');
notTrivial('c++ raw string', 'a.cpp', 'auto s = R"(a)"; // c\n', '// c', '// d');
notTrivial('string running to the end of the line', 'a.c', 'char *s = "abc\n', 'abc', 'abd');
notTrivial('js slash (division or regex)', 'a.js', 'const r = a / b; // c\n', '// c', '// d');
notTrivial('jsx-like <x', 'a.tsx', 'const e = <div/>; // c\n', '// c', '// d');
notTrivial('jsx fragment <>', 'a.jsx', 'const e = <>a</>; // c\n', '// c', '// d');
notTrivial('html-like -->', 'a.js', 'x --> 0; // c\n', '// c', '// d');
notTrivial('line comment ending in backslash', 'a.c', 'int a; // c\nint b;\n', '// c', '// c \\');
notTrivial('trigraph ??/', 'a.c', 'int a; // c ??/\nint b;\n', 'int b;', 'int b; ');
notTrivial('nested /* inside a block comment', 'a.c', 'int a; /* x */\n', '/* x */', '/* x /* y */');
notTrivial('unterminated block comment', 'a.c', 'int a; // x\n', '// x', '/* x');
notTrivial('U+2028 in the text', 'a.js', 'const a = 1; // c\n', '// c', '// c\u2028x()');
notTrivial('U+0085 in the text', 'a.cs', 'int a; // c\n', '// c', '// c\u0085x');
notTrivial('code line ending in a continuation', 'a.c', '#define A 1 \\\n// c\n', '// c', '// d');
notTrivial('python explicit continuation', 'a.py', 'x = 1 + \\\n    2\n', '    2', '    2 # two');
notTrivial('directive changed: eslint-disable', 'a.js', 'eval(x); // eslint-disable-line\n', '// eslint-disable-line', '// fine');
notTrivial('directive removed: nosec', 'a.py', 'run(x)  # nosec\n', '  # nosec', '');
notTrivial('directive added: jscr-ignore', 'a.py', 'os.system(cmd)  # ok\n', '  # ok', '  # jscr-ignore: jscr/python-os-system-non-literal fine');
notTrivial('directive added: noqa', 'a.py', 'import os\n', 'import os', 'import os  # noqa');
notTrivial('directive: gitleaks:allow', 'a.go', 'var k = "x" // gitleaks:allow\n', '// gitleaks:allow', '// ok');
notTrivial('directive: pragma allowlist secret', 'a.py', 'k = "x"  # pragma: allowlist secret\n', '# pragma: allowlist secret', '# fine');
notTrivial('directive: NOSONAR', 'A.java', 'int x; // NOSONAR\n', '// NOSONAR', '// ok');
notTrivial('directive: shebang', 'a.sh', '#!/bin/sh\necho hi\n', '#!/bin/sh', '#!/bin/bash');
notTrivial('directive: triple-slash reference', 'a.ts', '/// <reference types="node" />\nlet a = 1;\n', '/// <reference types="node" />', '// <reference types="node" />');
notTrivial('directive: go:build', 'a.go', '//go:build linux\npackage a\n', '//go:build linux', '//go:build darwin');
notTrivial('directive: // +build', 'a.go', '// +build linux\npackage a\n', '// +build linux', '// +build darwin');
notTrivial('directive: cgo export', 'a.go', '//export Run\nfunc Run() {}\n', '//export Run', '//export Go');
notTrivial('directive: JSDoc type', 'a.js', 'var a = 1; /** @type {number} */\n', '/** @type {number} */', '/** @type {string} */');
notTrivial('directive: python type comment', 'a.py', 'x = []  # type: List[int]\n', '# type: List[int]', '# type: List[str]');
notTrivial('directive: coding line', 'a.py', '# -*- coding: utf-8 -*-\nx = 1\n', '# -*- coding: utf-8 -*-', '# -*- coding: latin-1 -*-');
notTrivial('directive: ts-ignore', 'a.ts', '// @ts-ignore\nlet a: number = "x";\n', '// @ts-ignore', '// ignore');
notTrivial('directive: istanbul ignore', 'a.js', 'if (x) { /* istanbul ignore next */ }\n', '/* istanbul ignore next */', '/* skip */');
notTrivial('directive: __PURE__', 'a.js', 'const a = /* #__PURE__ */ f();\n', '/* #__PURE__ */', '/* call */');
notTrivial('directive: shellcheck', 'a.sh', '# shellcheck disable=SC2086\necho $x\n', '# shellcheck disable=SC2086', '# quote later');
notTrivial('directive: PowerShell #Requires', 'a.ps1', '#Requires -Version 7\n$x = 1\n', '#Requires -Version 7', '#Requires -Version 5');
notTrivial('directive: eslint globals', 'a.js', '/* global jQuery */\njQuery();\n', '/* global jQuery */', '/* uses jQuery */');
notTrivial('directive: rust doc comment', 'a.rs', '/// Adds one.\nfn f() {}\n', '/// Adds one.', '/// Adds two.');
notTrivial('directive: rust inner doc', 'a.rs', '//! Crate docs.\nfn f() {}\n', '//! Crate docs.', '//! Crate notes.');
notTrivial('directive: Go example Output', 'a_test.go', 'func ExampleA() {\n\t// Output: 1\n}\n', '// Output: 1', '// Output: 2');
notTrivial('directive: DO NOT EDIT', 'a.go', '// Code generated by x. DO NOT EDIT.\npackage a\n', '// Code generated by x. DO NOT EDIT.', '// Code generated.');
notTrivial('sh: # after a letter is a word', 'a.sh', 'echo a#b\n', 'a#b', 'a# b');
notTrivial('sh: $# is not a comment', 'a.sh', 'echo $#n\n', '$#n', '$#m');
notTrivial('sh: ${#x} is not a comment', 'a.sh', 'echo ${#x}\n', '${#x}', '${#y}');
notTrivial('sh: # after ( (zsh glob flag)', 'a.sh', 'ls (#i)a # n\n', '# n', '# m');
notTrivial("sh: $'...' string", 'a.sh', "echo $'a' # n\n", '# n', '# m');
notTrivial('sh: $( inside double quotes', 'a.sh', 'echo "$(date)" # n\n', '# n', '# m');
notTrivial('sh: backtick', 'a.sh', 'echo `date` # n\n', '# n', '# m');
notTrivial('sh: heredoc', 'a.sh', 'cat <<EOF # n\nx\nEOF\n', '# n', '# m');
notTrivial('sh: lone carriage return', 'a.sh', 'echo a # n\n', '# n', '# m\rx');
notTrivial('sh: escapes stay code', 'a.sh', 'echo a\\ b\n', 'a\\ b', 'a\\  b');
notTrivial('sh: unclosed single quote', 'a.sh', "echo 'a # n\n", '# n', '# m');
notTrivial('ps: # after a word char', 'a.ps1', '$a#b = 1\n', '$a#b', '$a#c');
notTrivial('ps: here-string', 'a.ps1', "$s = @'\nx\n'@ # n\n", '# n', '# m');
notTrivial('ps: typographic quote', 'a.ps1', '$s = \u201cx\u201d # n\n', '# n', '# m');
notTrivial('ps: $( in a double-quoted string', 'a.ps1', '$s = "$(x)" # n\n', '# n', '# m');
notTrivial('ps: backtick before a line break', 'a.ps1', 'Get-Thing `\n  -A # n\n', '# n', '# m');
notTrivial('ps: nested <#', 'a.ps1', '<# a #>\n$x = 1\n', '<# a #>', '<# a <# b #>');
notTrivial('bat: :: label is code', 'a.bat', ':: one\necho hi\n', ':: one', ':: uno');
notTrivial('bat: REM holding %', 'a.bat', 'REM one\necho hi\n', 'REM one', 'REM %one%');
notTrivial('bat: REM holding >', 'a.bat', 'REM one\necho hi\n', 'REM one', 'REM a > b');
notTrivial('bat: line ending in ^', 'a.bat', 'echo a ^\nREM one\n', 'REM one', 'REM uno');
notTrivial('bat: echo keeps its spacing', 'a.bat', 'echo a b\n', 'echo a b', 'echo a  b');

// ---- file context ----
edit('context: no file text means not trivial', 'a.js', null, '// a', '// b', { known: true, trivial: false });
notTrivial('context: old_string missing from the file', 'a.js', 'let a = 1;\n', '// gone', '// new');
notTrivial('context: old_string ambiguous without replace_all', 'a.js', '// x\nlet a;\n// x\n', '// x', '// y');
edit('context: replace_all of a repeated comment is trivial', 'a.js', '// x\nlet a;\n// x\n', '// x', '// y', { trivial: true }, true);
notTrivial('context: empty old_string', 'a.js', 'let a;\n', '', '// y');
notTrivial('context: $& pattern in new_string', 'a.js', 'let a; // x\n', '// x', '// $& y');
notTrivial('context: $1 pattern in new_string', 'a.js', 'let a; // x\n', '// x', '// $1');
notTrivial('context: $$ pattern in new_string', 'a.js', 'let a; // x\n', '// x', '// $$');
trivial('context: a lone $ is not a pattern', 'a.js', 'let a; // x\n', '// x', '// costs $ 5');
notTrivial('context: comment-looking line inside a template literal above', 'a.js', 'const s = `\n// not a comment\n`;\n', '// not a comment', '// changed');
notTrivial('context: comment-looking line inside a python docstring above', 'a.py', 'def f():\n    """\n    # inside\n    """\n', '# inside', '# changed');
notTrivial('context: inside a block comment that opens above', 'a.c', '/* start\n x\n // inner\n*/\n', '// inner', '// changed');
notTrivial('context: inside a shell heredoc above', 'a.sh', 'cat <<EOF\nline\n# not a comment\nEOF\n', '# not a comment', '# changed');
notTrivial('context: heredoc whose terminator never comes', 'a.sh', 'cat <<EOF\nx\ny\n# c\n', '# c', '# d');
notTrivial('context: inside a Go raw string above', 'a.go', 'var s = `\nz\n// not a comment\n`\n', '// not a comment', '// changed');
notTrivial('context: inside a rust raw string above', 'a.rs', 'let s = r#"\nz\n// not\n"#;\n', '// not', '// changed');
notTrivial('context: inside a Java text block above', 'A.java', 'String s = """\nz\n// not\n""";\n', '// not', '// changed');
notTrivial('context: inside a C# verbatim string above', 'a.cs', 'var s = @"\nz\n// not\n";\n', '// not', '// changed');
notTrivial('context: inside a PowerShell here-string above', 'a.ps1', '$s = @"\nz\n# not\n"@\n', '# not', '# changed');
notTrivial('context: after a C continuation line', 'a.c', '#define A \\\n  1\n// c\n', '// c', '// d');
notTrivial('context: after a batch ^ continuation', 'a.bat', 'echo a ^\nb\nREM c\n', 'REM c', 'REM d');
notTrivial('context: JSX above in a .jsx file', 'a.jsx', 'const e = <div>\n</div>;\nx();\n\n// c\n', '// c', '// d');
trivial('context: generics allowed above in a .ts file', 'a.ts', 'const m = new Map<string, number>();\nx();\n\n// c\n', '// c', '// d');
notTrivial('context: regex after } with another / later', 'a.js', 'if (a) {}\n/x/.test(y) / 2;\nz();\n\n// c\n', '// c', '// d');
trivial('context: regex literal above is followed', 'a.js', 'const r = /a\\/b"/;\nz();\n\n// c\n', '// c', '// d');
trivial('context: division above is followed', 'a.js', "const r = a / b / c;\nconst q = '//';\nz();\n\n// c\n", '// c', '// d');
notTrivial('context: <!-- above in JS', 'a.js', 'x <!-- y;\nz();\n\n// c\n', '// c', '// d');
notTrivial('context: f-string field holding its own quote', 'a.py', 'x = f"{d["k"]}"\ny = 1\n\n# c\n', '# c', '# d');
trivial('context: plain f-string above is followed', 'a.py', 'x = f"{a} and {b}"\ny = 1\n\n# c\n', '# c', '# d');
notTrivial('context: Kotlin ${ inside a string above', 'a.kt', 'val s = "${a}"\nval t = 1\n\n// c\n', '// c', '// d');
notTrivial('context: shell $( holding a comment above', 'a.sh', 'x=$(\n  # c\n  date)\ny=1\n\n# d\n', '# d', '# e');
notTrivial('context: shell $( holding case above', 'a.sh', 'x=$(case a in a) echo;; esac)\ny=1\n\n# d\n', '# d', '# e');
notTrivial('context: nesting deeper than eight levels', 'a.js', `const s = ${'`${'.repeat(9)}x${'}`'.repeat(9)};\nz();\n\n// c\n`, '// c', '// d');
trivial('context: nesting of eight levels is followed', 'a.js', `const s = ${'`${'.repeat(7)}x${'}`'.repeat(7)};\nz();\n\n// c\n`, '// c', '// d');
notTrivial('context: Go file importing "C"', 'a.go', 'package a\n\n// #include <stdio.h>\nimport "C"\n\n// c\nfunc f() {}\n', '// c', '// d');
notTrivial('context: a line that loses its break joins the next (window compares joined)', 'a.js', 'let a = 1; // c\nlet b = 2;\n', '// c\n', '// c ');
trivial('context: file text at exactly 1 MiB is read', 'a.js', `${'x;\n'.repeat((1024 * 1024 - 12) / 3)}// c\nz();\n`.slice(0, 1024 * 1024), '// c', '// d');
notTrivial('context: file text over 1 MiB is not read', 'a.js', `${'x;\n'.repeat(349526)}// c\n`, '// c', '// d');
notTrivial('context: text over 1 MiB after the edit', 'a.js', `${'x;\n'.repeat(349524)}// c\n`, '// c', `// ${'d'.repeat(20)}`);
notTrivial('context: edit window over 128 KiB', 'a.js', `// c\n${'x;'.repeat(70 * 1024)}\n`, '// c\n', '// d\n');
trivial('context: edit window just under 128 KiB', 'a.js', `// c\n${'x;'.repeat(60 * 1024)}\n`, '// c\n', '// d\n');
cases.push({
  name: 'context: more than 8 MiB of scanning for one call',
  input: {
    kind: 'edit',
    path: 'a.js',
    fileText: `${'x;\n'.repeat(300000)}// c1\n// c2\n// c3\n// c4\n// c5\n`,
    edits: [1, 2, 3, 4, 5].map((n) => ({ oldString: `// c${n}`, newString: `// d${n}` })),
  },
  expect: { trivial: false },
});
cases.push({
  name: 'context: the same entries on a smaller file stay within the scanning budget',
  input: {
    kind: 'edit',
    path: 'a.js',
    fileText: `${'x;\n'.repeat(100000)}// c1\n// c2\n// c3\n// c4\n// c5\n`,
    edits: [1, 2, 3, 4, 5].map((n) => ({ oldString: `// c${n}`, newString: `// d${n}` })),
  },
  expect: { trivial: true },
});
cases.push({
  name: 'context: MultiEdit entries apply in order to the evolving text',
  input: { kind: 'edit', path: 'a.js', fileText: 'let a; // one\n', edits: [{ oldString: '// one', newString: '// two' }, { oldString: '// two', newString: '// three' }] },
  expect: { trivial: true },
});
cases.push({
  name: 'context: one non-trivial entry makes the MultiEdit not trivial',
  input: { kind: 'edit', path: 'a.js', fileText: 'let a; // one\nlet b = 1;\n', edits: [{ oldString: '// one', newString: '// two' }, { oldString: 'b = 1', newString: 'b = 2' }] },
  expect: { trivial: false },
});
cases.push({
  name: 'context: CRLF file text (folded by the reader) is trivial for a comment edit',
  input: { kind: 'edit', path: 'a.js', fileText: 'let a; // one\nlet b;\n', edits: [{ oldString: '// one', newString: '// two' }] },
  expect: { trivial: true },
});

// ---- QA: scanner, coverage, formatter and compiler markers found missing; each must keep the edit gated ----
notTrivial('marker: removing a v8 coverage ignore', 'a.ts', 'a();\n/* v8 ignore next */\nb();\n', '/* v8 ignore next */\n', '');
notTrivial('marker: removing an isort skip', 'a.py', 'import b  # isort: skip\n', '  # isort: skip', '');
notTrivial('marker: removing a yapf disable', 'a.py', '# yapf: disable\nx=1\n', '# yapf: disable\n', '');
notTrivial('marker: removing an LGTM suppression', 'a.js', 'eval(x); // lgtm[js/code-injection]\n', ' // lgtm[js/code-injection]', '');
notTrivial('marker: removing a Snyk deepcode ignore', 'a.js', '// deepcode ignore XSS: reason\nf();\n', '// deepcode ignore XSS: reason\n', '');
notTrivial('marker: removing a Coverity annotation', 'a.c', '// coverity[overrun]\nf();\n', '// coverity[overrun]\n', '');
notTrivial('marker: removing a PMD NOPMD', 'A.java', 'f(); // NOPMD\n', ' // NOPMD', '');
notTrivial('marker: removing CHECKSTYLE:OFF', 'A.java', '// CHECKSTYLE:OFF\nf();\n', '// CHECKSTYLE:OFF\n', '');
notTrivial('marker: removing a DeepSource skipcq', 'a.py', 'f()  # skipcq: BAN-B101\n', '  # skipcq: BAN-B101', '');
notTrivial('marker: removing a Flow $FlowFixMe', 'a.js', '// $FlowFixMe\nf();\n', '// $FlowFixMe\n', '');
notTrivial('marker: changing a Cython compiler directive', 'a.py', '# cython: language_level=3\nx=1\n', '# cython: language_level=3', '# cython: language_level=2');
notTrivial('marker: removing a pytype disable', 'a.py', 'f()  # pytype: disable=attribute-error\n', '  # pytype: disable=attribute-error', '');
notTrivial('marker: changing a vi modeline', 'a.py', '# vi: set ts=2:\nx=1\n', '# vi: set ts=2:', '# vi: set ts=4:');
notTrivial('marker: removing a checkov skip', 'a.sh', '# checkov:skip=CKV_1\necho\n', '# checkov:skip=CKV_1\n', '');
notTrivial('marker: removing a spotless:off', 'A.java', '// spotless:off\nf();\n', '// spotless:off\n', '');
notTrivial('marker: removing a CPD-OFF', 'A.java', '// CPD-OFF\nf();\n', '// CPD-OFF\n', '');
// ---- QA: adversarial look-alikes that must stay code ----
notTrivial('adversarial: a //-comment inside a JS template literal', 'a.ts', 'const t = `\n// not a comment\n`;\n', '// not a comment', '// changed');
notTrivial('adversarial: text that looks like a comment inside JSX', 'a.tsx', 'const x = (\n  <p>\n    // shown text\n  </p>\n);\n', '    // shown text', '    // other text');
notTrivial('adversarial: a #-comment inside a Python docstring', 'a.py', 'def f():\n    """\n    # doc\n    """\n    return 1\n', '    # doc', '    # dox');
notTrivial('adversarial: a #-line inside a shell heredoc', 'a.sh', 'cat <<EOF\n# not a comment\nEOF\n', '# not a comment', '# changed');
notTrivial('adversarial: moving code out of a PowerShell block comment', 'a.ps1', '<# a #>\nRemove-Item x\n', '<# a #>\nRemove-Item x', '<# a \nRemove-Item x #>');
notTrivial('adversarial: a //go:generate command changed', 'a.go', 'package a\n//go:generate stringer -type=X\n', '//go:generate stringer -type=X', '//go:generate rm -rf /');
notTrivial('adversarial: a cgo preamble comment changed', 'a.go', 'package a\n// int x = 1;\nimport "C"\n', '// int x = 1;', '// int x = 2;');
notTrivial('adversarial: U+2028 after // in JS ends the comment', 'a.js', '// a\nx();\n', '// a', '// a\u2028alert(1)');
notTrivial('adversarial: PHP is not read, so ?> in a comment is never trivial', 'a.php', '<?php // a ?> b\n', '// a', '// c');
notTrivial('adversarial: markdown <!-- --> is not read as a comment', 'a.md', '<!-- a -->\n', '<!-- a -->', '<!-- b -->');
notTrivial('adversarial: a C# #region line is a directive', 'a.cs', '#region A\nint x;\n#endregion\n', '#region A', '#region B');
notTrivial('adversarial: uncommenting a line', 'a.ts', '// foo();\nbar();\n', '// foo();', 'foo();');

notTrivial('java: a \\u000a escape in a // comment is a line break, so the text after it is code', 'A.java', 'class A {\n  // \\u000a int x = 1;\n}\n', '// \\u000a int x = 1;', '// \\u000a int x = 2;');
notTrivial('java: adding a \\u000a escape to a comment turns its tail into code', 'A.java', 'class A {\n  // note\n}\n', '// note', '// \\u000a System.exit(1);');
notTrivial('java: a unicode escape above the window makes the prefix unreadable', 'A.java', 'class A {\n  String s = "\\u0022";\n  // note\n}\n', '// note', '// remark');
notTrivial('adversarial: a multi-line block comment after return is a line break for ASI', 'a.ts', 'function f() {\n  return /*\n  */ 1;\n}\n', 'return /*\n  */ 1;', 'return /* */ 1;');
notTrivial('adversarial: Go semicolon insertion after a multi-line block comment', 'a.go', 'package a\nfunc f() int {\n\treturn /*\n\t*/ 1\n}\n', 'return /*\n\t*/ 1', 'return /* */ 1');

notTrivial('zsh: the #compdef line of a completion function is read by compinit', 'a.zsh', '#compdef foo\n_foo() { }\n', '#compdef foo', '#compdef bar');
notTrivial('zsh: the #autoload line of a completion function is read by compinit', 'a.zsh', '#autoload\n_foo() { }\n', '#autoload', '#autoload -U');

// ---- one lexer core per family (issue 12): where the old scanners disagreed, or missed a form ----
notTrivial('core: a Kotlin backtick name holding // is a name, not a comment', 'a.kt', 'val `a // b` = 1\n', '// b', '// c');
notTrivial('core: a Rust raw C string (cr#"...#) holding // is a string', 'a.rs', 'let s = cr#"a " // x"#;\n', '// x', '// y');
notTrivial('core: U+2028 ends a JS line comment above, so a backtick after it opens a template', 'a.js', '// a\u2028`\nx\ny\n// c\n`;\n', '// c', '// d');
notTrivial('core: U+0085 ends a C# line comment above, so a verbatim string after it runs on', 'a.cs', '// a\u0085var s = @"\nx\ny\n// c\n";\n', '// c', '// d');
notTrivial('core: PowerShell typographic quotes above open a string', 'a.ps1', '$s = \u201c\nx\ny\n# c\n\u201d\n', '# c', '# d');
trivial('core: a / after a postfix ++ above is a division', 'a.js', 'let x = 0;\nconst y = x++ / 2;\nz();\n\n// c\n', '// c', '// d');
trivial('core: a / after a template literal above is a division', 'a.js', 'const y = `a` / 2;\nz();\n\n// c\n', '// c', '// d');
trivial('core: a / after return and a string above is a division', 'a.js', "function f() {\n  return 'a' / 2;\n}\nz();\n\n// c\n", '// c', '// d');
trivial('core: a keyword right before a quote is no string prefix', 'a.py', 'if"{a}" == x: pass  # c\n', '# c', '# d');
notTrivial('core: an f-string prefix in capitals is still an f-string', 'a.py', 'x = F"{a}" # c\n', '# c', '# d');
notTrivial('core: a t-string is a template string', 'a.py', 'x = t"{a}" # c\n', '# c', '# d');
notTrivial('core: a comment in a Python file declaring utf-7 (+AAo- is a line feed to Python)', 'a.py', '# -*- coding: utf-7 -*-\nimport os\n# note\n', '# note', '# note +AAo-os.system(x)');
trivial('core: a comment in a Python file declaring latin-1', 'a.py', '# -*- coding: latin-1 -*-\nimport os\n# note\n', '# note', '# later');

export const PROFILE_CASES: readonly ProfileCase[] = cases;
