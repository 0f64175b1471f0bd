/**
 * Members that run a process, evaluate code or change files (`os.system`, `child_process.exec`,
 * `fs.writeFileSync`). Word 17 licenses a module by its name: `os.path.join(a, b)` in the replaced lines
 * lets the replacement read `os`, and without this `os.system(cmd)` would need nothing new. Such a
 * member is refused unless the replaced lines already reached it.
 */
import type { Node, Tree } from 'web-tree-sitter';
import type { GuardLanguage } from './languages.js';
import { importsInRows, jsLiteralValue, nodesInRows, resolvedName, type RowRange } from './syntax.js';

/** Member names that mean one of those capabilities whatever object holds them. */
const ANY_OBJECT: Record<'python' | 'javascript', ReadonlySet<string>> = {
  python: new Set([
    'popen', 'popen2', 'popen3', 'popen4', 'Popen', 'check_call', 'check_output', 'getoutput', 'getstatusoutput',
    'execl', 'execle', 'execlp', 'execlpe', 'execv', 'execve', 'execvp', 'execvpe',
    'spawnl', 'spawnle', 'spawnlp', 'spawnlpe', 'spawnv', 'spawnve', 'spawnvp', 'spawnvpe',
    'posix_spawn', 'posix_spawnp', 'startfile', 'forkpty', 'killpg', 'rmtree', 'removedirs', 'execfile', 'eval', 'exec',
  ]),
  javascript: new Set([
    'execSync', 'execFile', 'execFileSync', 'spawnSync', 'runInNewContext', 'runInThisContext', 'runInContext',
    'compileFunction', 'dlopen', 'writeFileSync', 'appendFileSync', 'unlinkSync', 'rmSync', 'rmdirSync',
    'chmodSync', 'chownSync', 'symlinkSync', 'renameSync', 'copyFileSync', 'cpSync',
  ]),
};

/** Member names that mean a capability only on these modules (`subprocess.run`, not `loop.run`). */
const ON_MODULES: Record<'python' | 'javascript', { modules: ReadonlySet<string>; names: ReadonlySet<string> }> = {
  python: {
    modules: new Set(['os', 'posix', 'nt', 'subprocess', 'pty', 'shutil', 'builtins', 'importlib', 'runpy', 'ctypes']),
    names: new Set(['system', 'run', 'call', 'spawn', 'fork', 'kill', 'remove', 'unlink', 'rmdir', 'rename', 'replace',
      'chmod', 'chown', 'symlink', 'link', 'open', 'write', 'truncate', 'move', 'copy', 'copyfile', 'run_path', 'run_module',
      'CDLL', 'cdll']),
  },
  javascript: {
    modules: new Set(['child_process', 'fs', 'fs/promises', 'vm', 'process', 'worker_threads', 'module', 'cluster']),
    names: new Set(['exec', 'spawn', 'fork', 'writeFile', 'appendFile', 'unlink', 'rm', 'rmdir', 'chmod', 'chown', 'symlink',
      'rename', 'copyFile', 'cp', 'createWriteStream', 'open', 'kill', 'binding', 'Script', 'Worker', 'createRequire']),
  },
};

/** One member reached in the rows (`os.system` → name `system`, root `os`). */
export interface MemberReach {
  name: string;
  /** The leftmost name of the object it is reached on, as the language resolves it, or null (`f().x`, `"".join`). */
  root: string | null;
  line: number;
}

const CHAIN_LINKS: Record<string, string> = {
  attribute: 'object',
  member_expression: 'object',
  call: 'function',
  call_expression: 'function',
  subscript: 'value',
  subscript_expression: 'object',
  non_null_expression: '',
  parenthesized_expression: '',
  await: '',
  await_expression: '',
};

/** The leftmost name of an object chain (`os.path` → `os`, `(await import_x).y` → none past a call's callee). */
function chainRoot(start: Node | null, language: GuardLanguage): string | null {
  let at: Node | null = start;
  for (let steps = 0; at && steps < 256; steps++) {
    if (at.type === 'identifier') return resolvedName(at.text, language);
    if (!(at.type in CHAIN_LINKS)) return null;
    const field = CHAIN_LINKS[at.type];
    at = field ? at.childForFieldName(field) : at.namedChildren[0] ?? null;
  }
  return null;
}

/** The members reached in the rows: attribute names and JavaScript properties, with the object's root name. */
export function memberReaches(tree: Tree, rows: RowRange, language: GuardLanguage): MemberReach[] {
  const found: MemberReach[] = [];
  for (const node of nodesInRows(tree, rows)) {
    const line = node.startPosition.row + 1;
    if (node.type === 'attribute' || node.type === 'member_expression') {
      const member = node.childForFieldName(node.type === 'attribute' ? 'attribute' : 'property');
      if (member) found.push({ name: resolvedName(member.text, language), root: chainRoot(node.childForFieldName('object'), language), line });
    } else if (node.type === 'subscript_expression') {
      // `cp['exec']` is `cp.exec` spelled as a string.
      const index = node.childForFieldName('index');
      const key = index ? jsLiteralValue(index) : null;
      if (key !== null) found.push({ name: key, root: chainRoot(node.childForFieldName('object'), language), line });
    }
  }
  return found;
}

/**
 * The names that stand for a module anywhere in the file: what its imports bind (`import subprocess as sp`,
 * `const cp = require('child_process')`, `import * as cp from 'node:child_process'`) and plain copies
 * of them (`run = sp.run` makes `run` stand for `subprocess`).
 */
export function moduleBindings(tree: Tree, language: GuardLanguage): Map<string, string> {
  const wholeFile = { first: 0, last: Number.MAX_SAFE_INTEGER };
  const bindings = new Map<string, string>();
  for (const found of importsInRows(tree, wholeFile, language)) for (const { name, module } of found.binds) bindings.set(name, module);
  const copies: Array<{ name: string; from: Node }> = [];
  for (const node of nodesInRows(tree, wholeFile)) {
    const [leftField, rightField] = COPY_FIELDS[node.type] ?? [];
    if (!leftField || !rightField) continue;
    const left = node.childForFieldName(leftField);
    const right = node.childForFieldName(rightField);
    if (left?.type === 'identifier' && right) copies.push({ name: resolvedName(left.text, language), from: right });
  }
  // Copies of copies: a few rounds reach any chain a person writes. A name an import binds keeps its module.
  for (let round = 0; round < 4; round++) {
    for (const { name, from } of copies) {
      const root = chainRoot(from, language);
      const module = root === null ? undefined : bindings.get(root);
      if (module !== undefined && !bindings.has(name)) bindings.set(name, module);
    }
  }
  return bindings;
}

/** The statements that copy a value into a name, and the fields that hold the name and the value. */
const COPY_FIELDS: Record<string, readonly [string, string]> = {
  assignment: ['left', 'right'],
  variable_declarator: ['name', 'value'],
  assignment_expression: ['left', 'right'],
};

/** Whether reaching this member reaches a process, code evaluation or a file change. */
export function isCapabilityMember(reach: MemberReach, bindings: ReadonlyMap<string, string>, language: GuardLanguage): boolean {
  const family = language === 'python' ? 'python' : 'javascript';
  if (ANY_OBJECT[family].has(reach.name)) return true;
  const on = ON_MODULES[family];
  if (!on.names.has(reach.name) || reach.root === null) return false;
  const module = bindings.get(reach.root) ?? reach.root;
  return on.modules.has(module);
}
