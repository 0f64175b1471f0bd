/**
 * Members that run a process, evaluate code or change files (`os.system`, `child_process.exec`,
 * `fs.writeFileSync`). Word 17 licenses a module by its name: `os.path.join(a, b)` in the replaced lines
 * lets the replacement read `os`, and without this `os.system(cmd)` would need nothing new. Such a
 * member is refused unless the replaced lines already reached it.
 */
import type { Node, Tree } from 'web-tree-sitter';
import type { GuardLanguage } from './languages.js';
import { isField, isRequire, jsLiteralValue, literalModule, nodesInRows, resolvedName, type RowRange } from './syntax.js';

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

/** A module name without Node's `node:` scheme. */
function plainModule(module: string): string {
  return module.startsWith('node:') ? module.slice(5) : module;
}

/**
 * The names that stand for a module anywhere in the file: imports (`import subprocess as sp`,
 * `const cp = require('child_process')`, `import * as cp from 'node:child_process'`) and plain copies
 * of them (`run = sp.run` makes `run` stand for `subprocess`).
 */
export function moduleBindings(tree: Tree, language: GuardLanguage): Map<string, string> {
  const bindings = new Map<string, string>();
  const copies: Array<{ name: string; from: Node }> = [];
  const all = nodesInRows(tree, { first: 0, last: Number.MAX_SAFE_INTEGER });
  for (const node of all) {
    if (language === 'python') {
      if (node.type === 'aliased_import' && node.parent?.type === 'import_statement') {
        const name = node.childForFieldName('name');
        const alias = node.childForFieldName('alias');
        if (name && alias) bindings.set(resolvedName(alias.text, language), name.text);
      } else if (node.type === 'dotted_name' && node.parent?.type === 'import_statement') {
        const first = node.namedChildren[0];
        if (first) bindings.set(resolvedName(first.text, language), first.text);
      } else if (node.type === 'import_from_statement') {
        const module = node.childForFieldName('module_name');
        if (!module || module.type === 'relative_import') continue;
        for (const n of node.childrenForFieldName('name')) {
          if (!n) continue;
          const alias = n.type === 'aliased_import' ? n.childForFieldName('alias') : n;
          const name = n.type === 'aliased_import' ? n.childForFieldName('name') : n;
          // `from os import path` makes `path` stand for `os.path`, not for `os`.
          if (alias && name) bindings.set(resolvedName(alias.text, language), `${module.text}.${name.text}`);
        }
      } else if (node.type === 'assignment') {
        const left = node.childForFieldName('left');
        const right = node.childForFieldName('right');
        if (left?.type === 'identifier' && right) copies.push({ name: resolvedName(left.text, language), from: right });
      }
      continue;
    }
    if (node.type === 'import_statement') {
      const module = literalModule(node.childForFieldName('source'), language);
      if (module === null) continue;
      for (const inner of nodesInRows(tree, { first: node.startPosition.row, last: node.endPosition.row })) {
        if (inner.startIndex < node.startIndex || inner.endIndex > node.endIndex || inner.type !== 'identifier') continue;
        const parent = inner.parent;
        if (parent && ['import_clause', 'namespace_import', 'import_specifier'].includes(parent.type)) {
          if (parent.type === 'import_specifier' && parent.childForFieldName('alias') && !isField(parent, 'alias', inner)) continue;
          bindings.set(resolvedName(inner.text, language), plainModule(module));
        }
      }
    } else if (node.type === 'variable_declarator' || node.type === 'assignment_expression') {
      const left = node.childForFieldName(node.type === 'variable_declarator' ? 'name' : 'left');
      const right = node.childForFieldName(node.type === 'variable_declarator' ? 'value' : 'right');
      if (!right) continue;
      const required = right.type === 'call_expression' && right.childForFieldName('function') && isRequire(right.childForFieldName('function') as Node)
        ? literalModule(right.childForFieldName('arguments')?.namedChildren[0], language)
        : null;
      const names = left ? (left.type === 'identifier' ? [left] : left.descendantsOfType(['identifier', 'shorthand_property_identifier_pattern']).filter((n): n is Node => n !== null)) : [];
      for (const n of names) {
        if (required !== null) bindings.set(resolvedName(n.text, language), plainModule(required));
        else if (left?.type === 'identifier') copies.push({ name: resolvedName(n.text, language), from: right });
      }
    }
  }
  // Copies of copies: a few rounds reach any chain a person writes.
  for (let round = 0; round < 4; round++) {
    for (const { name, from } of copies) {
      const root = chainRoot(from, language);
      const module = root === null ? undefined : bindings.get(root);
      if (module !== undefined && !bindings.has(name)) bindings.set(name, module);
    }
  }
  return bindings;
}

/** Whether reaching this member reaches a process, code evaluation or a file change. */
export function isCapabilityMember(reach: MemberReach, bindings: ReadonlyMap<string, string>, language: GuardLanguage): boolean {
  const family = language === 'python' ? 'python' : 'javascript';
  if (ANY_OBJECT[family].has(reach.name)) return true;
  const on = ON_MODULES[family];
  if (!on.names.has(reach.name) || reach.root === null) return false;
  const module = bindings.get(reach.root) ?? reach.root;
  return on.modules.has(module);
}
