/**
 * The import-layering check (SPEC 1, STYLE 2): libraries never import the review engine or the CLI, the
 * gate stays light, and the top-level folders of src/ form no cycle. Imports are read with the
 * TypeScript parser; the checker itself works on plain data so it can be tested on synthetic modules.
 */
import { builtinModules } from 'node:module';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import ts from 'typescript';

/** One import of one module. */
export interface ImportEdge {
  /** A module path relative to src/ (`review/engine.ts`), a built-in (`node:fs`) or a package name. */
  target: string;
  kind: 'internal' | 'builtin' | 'package' | 'outside';
  /** `import type` / `export type`: erased at compile time. */
  typeOnly: boolean;
  line: number;
}

export interface ModuleImports {
  /** Path relative to src/, `/`-separated. */
  module: string;
  imports: ImportEdge[];
}

const BUILTINS = new Set(builtinModules);

/** Parse every .ts module under `srcDir` and list its imports. */
export function collectImports(srcDir: string): ModuleImports[] {
  const modules: ModuleImports[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && entry.name.endsWith('.ts')) modules.push(importsOf(srcDir, path));
    }
  };
  walk(srcDir);
  return modules.sort((a, b) => (a.module < b.module ? -1 : 1));
}

function importsOf(srcDir: string, file: string): ModuleImports {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const module = toPosix(relative(srcDir, file));
  const imports: ImportEdge[] = [];
  const add = (specifier: string, node: ts.Node, typeOnly: boolean): void => {
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    imports.push({ ...classify(srcDir, file, specifier), typeOnly, line });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) add(node.moduleSpecifier.text, node, node.importClause?.isTypeOnly === true);
    else if (ts.isExportDeclaration(node) && node.moduleSpecifier !== undefined && ts.isStringLiteral(node.moduleSpecifier)) add(node.moduleSpecifier.text, node, node.isTypeOnly);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) add(node.argument.literal.text, node, true);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const argument = node.arguments[0];
      if (argument !== undefined && ts.isStringLiteralLike(argument)) add(argument.text, node, false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { module, imports };
}

function classify(srcDir: string, file: string, specifier: string): Pick<ImportEdge, 'target' | 'kind'> {
  if (specifier.startsWith('.')) {
    const resolved = normalize(join(dirname(file), specifier)).replace(/\.js$/, '.ts');
    const rel = relative(srcDir, resolved);
    if (rel.startsWith('..')) return { target: toPosix(rel), kind: 'outside' };
    return { target: toPosix(rel), kind: 'internal' };
  }
  if (specifier.startsWith('node:') || BUILTINS.has(specifier)) return { target: specifier, kind: 'builtin' };
  return { target: specifier, kind: 'package' };
}

/** The top-level part of src/ a module belongs to: its folder, or the file itself at the top. */
export function unitOf(module: string): string {
  const slash = module.indexOf('/');
  return slash === -1 ? module : module.slice(0, slash);
}

const REVIEW_IMPORTERS = new Set(['cli.ts', 'fix', 'review']);
const GATE_MAY_IMPORT = new Set(['gate', 'profile', 'errors.ts', 'io.ts']);

/** Every broken layering rule, one line each (empty when the layering holds). */
export function checkLayering(modules: readonly ModuleImports[]): string[] {
  const problems: string[] = [];
  for (const { module, imports } of modules) {
    const unit = unitOf(module);
    for (const edge of imports) {
      const where = `${module}:${edge.line}`;
      if (edge.kind === 'internal' && edge.target === 'cli.ts' && module !== 'bin.ts') problems.push(`${where}: imports src/cli.ts; only the entry point src/bin.ts may import the CLI`);
      if (edge.kind === 'internal' && unitOf(edge.target) === 'review' && !REVIEW_IMPORTERS.has(unit)) {
        problems.push(`${where}: imports ${edge.target}; only src/cli.ts and src/fix/ may import the review engine`);
      }
      if (unit === 'gate' && !edge.typeOnly) {
        const allowed = edge.kind === 'builtin' || (edge.kind === 'internal' && GATE_MAY_IMPORT.has(unitOf(edge.target)));
        if (!allowed) problems.push(`${where}: the gate imports ${edge.target}; it may import only src/gate, src/profile, src/errors.ts, src/io.ts and node built-ins`);
      }
    }
  }
  const cycle = findUnitCycle(modules);
  if (cycle !== null) problems.push(`import cycle between top-level parts of src/: ${cycle.join(' → ')}`);
  return problems;
}

/** A cycle in the graph of top-level units, as a path that ends where it starts, or null. */
export function findUnitCycle(modules: readonly ModuleImports[]): string[] | null {
  const graph = new Map<string, Set<string>>();
  for (const { module, imports } of modules) {
    const from = unitOf(module);
    const targets = graph.get(from) ?? new Set<string>();
    graph.set(from, targets);
    for (const edge of imports) {
      const to = unitOf(edge.target);
      if (edge.kind === 'internal' && to !== from) targets.add(to);
    }
  }
  const state = new Map<string, 'active' | 'done'>();
  const stack: string[] = [];
  const visit = (unit: string): string[] | null => {
    state.set(unit, 'active');
    stack.push(unit);
    for (const next of [...(graph.get(unit) ?? [])].sort()) {
      if (state.get(next) === 'active') return [...stack.slice(stack.indexOf(next)), next];
      if (state.get(next) === undefined) {
        const found = visit(next);
        if (found !== null) return found;
      }
    }
    stack.pop();
    state.set(unit, 'done');
    return null;
  };
  for (const unit of [...graph.keys()].sort()) {
    if (state.get(unit) === undefined) {
      const found = visit(unit);
      if (found !== null) return found;
    }
  }
  return null;
}

function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}
