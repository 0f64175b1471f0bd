/**
 * The structural egress proof (SPEC 1, STYLE 2): parses every TypeScript module under a directory
 * (default src/) with the TypeScript compiler and reports, by module and line, every place that could
 * reach the network or start a process outside the modules allowed to:
 *   - network modules (net, http, https, http2, tls, dgram, dns, inspector, undici) anywhere but egress/http.ts;
 *   - the network globals fetch, WebSocket, XMLHttpRequest, EventSource (bare or through globalThis);
 *   - child_process anywhere but policy/, and simple-git anywhere;
 *   - the raw git starter `runGitExecutable` anywhere but policy/process.ts and policy/git.ts, so git
 *     starts only through the hardened runner (src/policy/process.ts refuses git at run time too);
 *   - import()/require() of a computed specifier, which no audit could check.
 * Type-only imports (`import type`, `export type ... from`) are erased at compile time and allowed.
 *
 * Usage: npx tsx tools/egress-audit.ts [dir]   exit 0 clean, 1 violations (printed), 2 bad usage
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** One place in one module that breaks the egress or process rule. */
export interface Violation {
  /** Module path relative to the audited directory, `/`-separated (e.g. `review/engine.ts`). */
  module: string;
  /** 1-based line. */
  line: number;
  rule: 'network_module' | 'network_global' | 'process_module' | 'computed_specifier';
  detail: string;
}

/** The function that starts git without the hardening, and the modules that may name it. */
const RAW_GIT_STARTER = 'runGitExecutable';
const MAY_START_GIT = new Set(['policy/process.ts', 'policy/git.ts']);

/** The one module allowed to reach the network, relative to the audited directory. */
const EGRESS_MODULE = 'egress/http.ts';
const NETWORK_MODULES = new Set(['net', 'http', 'https', 'http2', 'tls', 'dgram', 'dns', 'dns/promises', 'inspector', 'inspector/promises']);
const NETWORK_GLOBALS = new Set(['fetch', 'WebSocket', 'XMLHttpRequest', 'EventSource']);
/** Names under which the global object can be reached. */
const GLOBAL_OBJECTS = new Set(['globalThis', 'global', 'window', 'self']);
const MODULE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts'];

function isNetworkModule(specifier: string): boolean {
  const bare = specifier.startsWith('node:') ? specifier.slice(5) : specifier;
  return NETWORK_MODULES.has(bare) || bare === 'undici' || bare.startsWith('undici/');
}

function processModuleKind(specifier: string): 'child_process' | 'simple-git' | null {
  const bare = specifier.startsWith('node:') ? specifier.slice(5) : specifier;
  if (bare === 'child_process') return 'child_process';
  if (bare === 'simple-git' || bare.startsWith('simple-git/')) return 'simple-git';
  return null;
}

/** Audit every TypeScript module under `dir`. Violations are sorted by module, then line. */
export function auditTree(dir: string): Violation[] {
  const root = resolve(dir);
  const files = listModules(root);
  // A program without lib files or import resolution: any name that does not resolve to a declaration
  // in the audited module itself is a global (or an import, which the import checks cover).
  const program = ts.createProgram(files, { noLib: true, noResolve: true, types: [], allowJs: false, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, noEmit: true });
  const checker = program.getTypeChecker();
  const violations: Violation[] = [];
  for (const file of files) {
    const source = program.getSourceFile(file);
    if (source === undefined) continue;
    violations.push(...auditModule(source, toPosix(relative(root, file)), checker));
  }
  return violations.sort((a, b) => (a.module === b.module ? a.line - b.line : a.module < b.module ? -1 : 1));
}

function auditModule(source: ts.SourceFile, module: string, checker: ts.TypeChecker): Violation[] {
  const found: Violation[] = [];
  const mayReachNetwork = module === EGRESS_MODULE;
  const inPolicy = module.startsWith('policy/');
  const lineOf = (node: ts.Node): number => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;

  const checkSpecifier = (specifier: string, node: ts.Node, how: string): void => {
    if (isNetworkModule(specifier) && !mayReachNetwork) {
      found.push({ module, line: lineOf(node), rule: 'network_module', detail: `${how} of "${specifier}": only ${EGRESS_MODULE} may use the network` });
    }
    const kind = processModuleKind(specifier);
    if (kind === 'child_process' && !inPolicy) {
      found.push({ module, line: lineOf(node), rule: 'process_module', detail: `${how} of "${specifier}": processes start only through src/policy/process.ts` });
    }
    if (kind === 'simple-git') {
      found.push({ module, line: lineOf(node), rule: 'process_module', detail: `${how} of "${specifier}": git runs only through src/policy/git.ts (runGit)` });
    }
  };
  const checkLoaderCall = (call: ts.CallExpression, how: string): void => {
    const argument = call.arguments[0];
    if (argument !== undefined && ts.isStringLiteralLike(argument)) checkSpecifier(argument.text, call, how);
    else found.push({ module, line: lineOf(call), rule: 'computed_specifier', detail: `${how} with a computed module name cannot be audited` });
  };

  const visit = (node: ts.Node): void => {
    // Named as an identifier or a string (`m['runGitExecutable']`), imported, re-exported or called.
    if ((ts.isIdentifier(node) || ts.isStringLiteralLike(node)) && node.text === RAW_GIT_STARTER && !MAY_START_GIT.has(module)) {
      found.push({ module, line: lineOf(node), rule: 'process_module', detail: `${RAW_GIT_STARTER}: git runs only through src/policy/git.ts (runGit), which neutralises the repository's programs` });
    }
    if (ts.isImportDeclaration(node)) {
      ts.forEachChild(node, visit);
      if (!node.importClause?.isTypeOnly && ts.isStringLiteral(node.moduleSpecifier)) checkSpecifier(node.moduleSpecifier.text, node, 'import');
      return;
    }
    if (ts.isExportDeclaration(node)) {
      ts.forEachChild(node, visit);
      if (!node.isTypeOnly && node.moduleSpecifier !== undefined && ts.isStringLiteral(node.moduleSpecifier)) checkSpecifier(node.moduleSpecifier.text, node, 'export-from');
      return;
    }
    if (ts.isImportEqualsDeclaration(node)) {
      if (!node.isTypeOnly && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) {
        checkSpecifier(node.moduleReference.expression.text, node, 'import-require');
      }
      return;
    }
    // Types are erased: `typeof fetch` or `import('undici').Dispatcher` in a type cannot reach the network.
    if (ts.isTypeNode(node) && !ts.isExpressionWithTypeArguments(node)) return;
    if (ts.isCallExpression(node)) {
      if (node.expression.kind === ts.SyntaxKind.ImportKeyword) checkLoaderCall(node, 'dynamic import()');
      else if (ts.isIdentifier(node.expression) && node.expression.text === 'require' && refersToGlobal(node.expression, checker, source)) checkLoaderCall(node, 'require()');
    }
    if (!mayReachNetwork) checkNetworkGlobal(node);
    ts.forEachChild(node, visit);
  };
  const checkNetworkGlobal = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && NETWORK_GLOBALS.has(node.text) && isValueReference(node) && refersToGlobal(node, checker, source)) {
      found.push({ module, line: lineOf(node), rule: 'network_global', detail: `global ${node.text}: only ${EGRESS_MODULE} may use the network` });
    }
    if (ts.isPropertyAccessExpression(node) && NETWORK_GLOBALS.has(node.name.text) && isGlobalObject(node.expression, checker, source)) {
      found.push({ module, line: lineOf(node), rule: 'network_global', detail: `${node.expression.getText(source)}.${node.name.text}: only ${EGRESS_MODULE} may use the network` });
    }
    if (ts.isElementAccessExpression(node) && isGlobalObject(node.expression, checker, source)) {
      const key = node.argumentExpression;
      if (!ts.isStringLiteralLike(key) || NETWORK_GLOBALS.has(key.text)) {
        found.push({ module, line: lineOf(node), rule: 'network_global', detail: `${node.getText(source)}: a computed or network global cannot be allowed` });
      }
    }
  };
  visit(source);
  return found;
}

/** An identifier used as a value, not as a property name, a declared name or a label. */
function isValueReference(node: ts.Identifier): boolean {
  const parent = node.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.name === node) return false;
  if (ts.isQualifiedName(parent) && parent.right === node) return false;
  if ((ts.isPropertyAssignment(parent) || ts.isMethodDeclaration(parent) || ts.isPropertyDeclaration(parent) || ts.isPropertySignature(parent) || ts.isMethodSignature(parent) || ts.isGetAccessor(parent) || ts.isSetAccessor(parent) || ts.isEnumMember(parent)) && parent.name === node) return false;
  if ((ts.isFunctionDeclaration(parent) || ts.isFunctionExpression(parent) || ts.isClassDeclaration(parent) || ts.isClassExpression(parent) || ts.isVariableDeclaration(parent) || ts.isParameter(parent) || ts.isBindingElement(parent)) && parent.name === node) return false;
  if (ts.isBindingElement(parent) && parent.propertyName === node) return false;
  if (ts.isImportSpecifier(parent) || ts.isExportSpecifier(parent) || ts.isImportClause(parent) || ts.isNamespaceImport(parent)) return false;
  if (ts.isLabeledStatement(parent) || ts.isBreakOrContinueStatement(parent)) return false;
  return true;
}

/** The name resolves to nothing declared in this module: a global. */
function refersToGlobal(node: ts.Identifier, checker: ts.TypeChecker, source: ts.SourceFile): boolean {
  const symbol = ts.isShorthandPropertyAssignment(node.parent) && node.parent.name === node ? checker.getShorthandAssignmentValueSymbol(node.parent) : checker.getSymbolAtLocation(node);
  const declarations = symbol?.getDeclarations() ?? [];
  return !declarations.some((declaration) => declaration.getSourceFile() === source);
}

function isGlobalObject(node: ts.Expression, checker: ts.TypeChecker, source: ts.SourceFile): boolean {
  return ts.isIdentifier(node) && GLOBAL_OBJECTS.has(node.text) && refersToGlobal(node, checker, source);
}

function listModules(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') out.push(...listModules(path));
    } else if (entry.isFile() && MODULE_EXTENSIONS.some((ext) => entry.name.endsWith(ext))) {
      out.push(path);
    }
  }
  return out;
}

function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

/** CLI: print violations as `dir/module:line: detail`; exit 1 when there are any. */
function main(argv: readonly string[]): number {
  const dir = argv[0] ?? 'src';
  try {
    if (!statSync(dir).isDirectory()) throw new Error('not a directory');
  } catch {
    process.stderr.write(`egress-audit: ${dir} is not a directory\n`);
    return 2;
  }
  const violations = auditTree(dir);
  for (const v of violations) process.stdout.write(`${toPosix(join(dir, v.module))}:${v.line}: ${v.rule}: ${v.detail}\n`);
  if (violations.length === 0) process.stdout.write(`egress-audit: ${dir} is clean\n`);
  return violations.length === 0 ? 0 : 1;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
