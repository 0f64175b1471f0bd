/**
 * Build the language-neutral IR of a file from its tree-sitter parse.
 *
 * The walk uses a TreeCursor with an explicit depth counter (no recursion), so deeply nested input
 * cannot overflow the JS stack; below `maxDepth` it stops descending and records a degradation.
 * Only nodes whose type a language's rules name are materialised, which keeps the walk linear.
 */
import type { Language as TSLanguage, Node, Tree, TreeCursor } from 'web-tree-sitter';
import type { Language } from './languages.js';
import { parse, ParseStopped } from './parser.js';
import type { ClassIR, FileIR, FunctionIR, ImportIR } from './ir-types.js';
import type { Binding, ClassFacts, FunctionFacts, LanguageRules, ReadContext } from './ir-rules/rules.js';
import { rulesFor } from './ir-rules/index.js';

export type { ClassIR, FileIR, FunctionIR } from './ir-types.js';

/** Nodes deeper than this are not visited (the subtree is skipped and a degradation recorded). */
export const DEFAULT_MAX_DEPTH = 2000;
/** Call text is cut to this many characters. */
const CALL_TEXT_LIMIT = 200;
/** Receivers of long call chains are cut too, so chains stay linear. */
const RECEIVER_TEXT_LIMIT = 200;
/** At most this many depth-limit degradations are listed per file; the rest are counted. */
const MAX_DEPTH_REPORTS = 10;

/** Options of an IR build. */
export interface BuildOptions {
  /** Depth limit of the walk (default DEFAULT_MAX_DEPTH). */
  maxDepth?: number;
  /**
   * Epoch ms at which parsing is cancelled: the IR is then empty, with a `parse_stopped` degradation.
   * Never later than MAX_FILE_PARSE_MS from the start, whatever is asked.
   */
  stopAt?: number;
  /** Called with the parse tree's root while it is alive (the flow front ends lower from it; the tree is deleted after). */
  withTree?: (root: Node) => void;
  /** Sees every node the walk visits, in the same order, so a second reader of the tree need not walk it again. */
  visitor?: TreeVisitor;
}

/**
 * A reader of the IR walk's nodes: `cursor` is on a node at `depth` of type `typeId`; it must not move
 * the cursor. `read`, when given, is what the walk itself read at that node, so the visitor need not
 * cross into wasm again for it; it is overwritten at the next node.
 */
export interface TreeVisitor {
  visit(cursor: TreeCursor, depth: number, typeId: number, read?: WalkRead): void;
}

/** What the IR walk read at one node with the language's rules; `undefined` where it did not read. */
export interface WalkRead {
  /** The node, where the walk materialised it (`cursor.currentNode`). */
  node: Node | undefined;
  /** The rules' `readBinding` of a naming node. */
  binding: Binding | null | undefined;
  /** The rules' `readFunction` of a function node. */
  function: FunctionFacts | null | undefined;
  /** The rules' `readClass` of a class node. */
  cls: ClassFacts | null | undefined;
}

/** No file's parse and walk take longer than this (a crafted 2 MB file can take minutes). */
export const MAX_FILE_PARSE_MS = 20_000;

const PARSE_STOPPED = 'parse_stopped';
/** Nodes walked between two looks at the clock. */
const WALK_CLOCK_EVERY = 4096;

/** Whether `ir` is empty because its parse was cancelled at its time limit (not a fact about the file). */
export function parseWasStopped(ir: FileIR): boolean {
  return ir.degradations.some((d) => d.startsWith(`${PARSE_STOPPED}:`));
}

/**
 * Parse `text` and build its IR. Never throws for bad input: a failed parse gives an empty IR with
 * `hasErrors` and a `parse_failed` degradation. The tree is always deleted.
 */
export async function buildIR(path: string, language: Language, text: string, options: BuildOptions = {}): Promise<FileIR> {
  const stopAt = Math.min(options.stopAt ?? Infinity, Date.now() + MAX_FILE_PARSE_MS);
  options = { ...options, stopAt };
  let tree: Tree;
  try {
    tree = await parse(language, text, { stopAt });
  } catch (error) {
    const ir = emptyIR(path, language);
    ir.hasErrors = true;
    ir.degradations.push(`${error instanceof ParseStopped ? PARSE_STOPPED : 'parse_failed'}: ${error instanceof Error ? error.message : String(error)}`);
    return ir;
  }
  try {
    const ir = buildIRFromTree(path, language, text, tree, options);
    if (!parseWasStopped(ir)) options.withTree?.(tree.rootNode);
    return ir;
  } finally {
    tree.delete();
  }
}

/** Build the IR from a tree the caller owns (and deletes). `text` must be the text that was parsed. */
function buildIRFromTree(path: string, language: Language, text: string, tree: Tree, options: BuildOptions = {}): FileIR {
  const ir = emptyIR(path, language);
  ir.hasErrors = tree.rootNode.hasError;
  const cursor = tree.walk();
  try {
    const rules = rulesFor(language);
    const stopAt = options.stopAt ?? Infinity;
    if (!new Walk(typeTable(tree.language, rules), rules, text, ir, options.maxDepth ?? DEFAULT_MAX_DEPTH, options.visitor ?? null).run(cursor, stopAt)) {
      const stopped = emptyIR(path, language);
      stopped.degradations.push(`${PARSE_STOPPED}: reading the parse tree stopped at its time limit`);
      return stopped;
    }
  } finally {
    cursor.delete();
  }
  return ir;
}

/** The innermost function whose lines contain `line`, or null. */
export function enclosingFunction(ir: FileIR, line: number): FunctionIR | null {
  return innermost(ir.functions, line);
}

/** The innermost class whose lines contain `line`, or null. */
export function enclosingClass(ir: FileIR, line: number): ClassIR | null {
  return innermost(ir.classes, line);
}

function innermost<T extends { startLine: number; endLine: number }>(items: readonly T[], line: number): T | null {
  let best: T | null = null;
  for (const item of items) {
    if (item.startLine > line || item.endLine < line) continue;
    if (!best || item.startLine > best.startLine || (item.startLine === best.startLine && item.endLine < best.endLine)) {
      best = item;
    }
  }
  return best;
}

/** Per grammar: type names by id, and which ids are named nodes the rules care about. */
interface TypeTable {
  names: string[];
  interesting: Uint8Array;
}

const typeTables = new WeakMap<TSLanguage, Map<LanguageRules, TypeTable>>();

function typeTable(language: TSLanguage, rules: LanguageRules): TypeTable {
  let byRules = typeTables.get(language);
  if (!byRules) typeTables.set(language, (byRules = new Map<LanguageRules, TypeTable>()));
  const cached = byRules.get(rules);
  if (cached) return cached;
  const count = language.nodeTypeCount;
  const names: string[] = [];
  const interesting = new Uint8Array(count + 1);
  for (let id = 0; id < count; id++) {
    const name = language.nodeTypeForId(id) ?? '';
    names.push(name);
    const wanted =
      rules.functionTypes.has(name) ||
      rules.classTypes.has(name) ||
      rules.callTypes.has(name) ||
      rules.importTypes.has(name) ||
      rules.namingTypes.has(name) ||
      name === rules.siblingDecoratorType ||
      name === 'comment';
    if (wanted && language.nodeTypeIsNamed(id)) interesting[id] = 1;
  }
  const table = { names, interesting };
  byRules.set(rules, table);
  return table;
}

function emptyIR(path: string, language: Language): FileIR {
  return { path, language, functions: [], classes: [], calls: [], imports: [], hasErrors: false, degradations: [] };
}

/** A class or function the walk is inside, and the cursor depth of its node. */
type Frame = { depth: number; kind: 'class'; cls: ClassIR } | { depth: number; kind: 'function'; fn: FunctionIR };

/** Decorators seen as siblings, waiting for the declaration that follows them. */
interface PendingDecorators {
  depth: number;
  texts: string[];
  firstRow: number;
}

class Walk {
  private readonly frames: Frame[] = [];
  /** Value node id → the names an assignment binds it to (names lambdas, classes, require calls). */
  private readonly bindings = new Map<number, Binding>();
  private pending: PendingDecorators | null = null;
  private depthLimitHits = 0;
  /** Node type at each depth of the current path, so rules can ask for a parent's type cheaply. */
  private readonly typePath: string[] = [];
  private currentDepth = 0;
  private readonly ctx: ReadContext;
  /** Go methods: receiver type → method names, attached to classes after the walk. */
  private readonly ownerMethods: { owner: string; name: string }[] = [];
  /** What this node's visit read, handed to the visitor (one object, reset at each node). */
  private readonly read: WalkRead = { node: undefined, binding: undefined, function: undefined, cls: undefined };

  constructor(
    private readonly table: TypeTable,
    private readonly rules: LanguageRules,
    private readonly source: string,
    private readonly ir: FileIR,
    private readonly maxDepth: number,
    private readonly visitor: TreeVisitor | null,
  ) {
    this.ctx = {
      text: (node) => source.slice(node.startIndex, node.endIndex),
      clip: (node, max = CALL_TEXT_LIMIT) => source.slice(node.startIndex, Math.min(node.endIndex, node.startIndex + max)),
      parentType: () => this.typePath[this.currentDepth - 1] ?? null,
    };
  }

  /** Walks the tree; false when `stopAt` passed first (the IR is then only part of the file). */
  run(cursor: TreeCursor, stopAt: number): boolean {
    let depth = 0;
    for (let visited = 1; ; visited++) {
      if (visited % WALK_CLOCK_EVERY === 0 && Date.now() >= stopAt) return false;
      // One wasm call per node: everything else about the type comes from the per-grammar table.
      const id = cursor.nodeTypeId;
      this.visit(cursor, depth, id);
      this.visitor?.visit(cursor, depth, id, this.read);
      if (depth < this.maxDepth) {
        if (cursor.gotoFirstChild()) {
          depth++;
          continue;
        }
      } else if (cursor.gotoFirstChild()) {
        cursor.gotoParent();
        this.recordDepthLimit(cursor.startPosition.row + 1);
      }
      // Leave this node; climb until a sibling exists.
      for (;;) {
        this.leave(depth);
        if (cursor.gotoNextSibling()) break;
        if (!cursor.gotoParent()) {
          this.finish();
          return true;
        }
        depth--;
      }
    }
  }

  private recordDepthLimit(line: number): void {
    this.depthLimitHits++;
    if (this.depthLimitHits <= MAX_DEPTH_REPORTS) this.ir.degradations.push(`depth_limit:${this.maxDepth} at line ${line}`);
  }

  private leave(depth: number): void {
    const frames = this.frames;
    while (frames.length > 0 && frames[frames.length - 1]!.depth >= depth) frames.pop(); // length checked
    if (this.pending && this.pending.depth > depth) this.pending = null;
  }

  private finish(): void {
    if (this.depthLimitHits > MAX_DEPTH_REPORTS) {
      this.ir.degradations.push(`depth_limit:${this.maxDepth} hit ${this.depthLimitHits - MAX_DEPTH_REPORTS} more times`);
    }
    if (this.ownerMethods.length > 0) {
      const byName = new Map<string, ClassIR>();
      for (const cls of this.ir.classes) if (!byName.has(cls.name)) byName.set(cls.name, cls);
      for (const { owner, name } of this.ownerMethods) byName.get(owner)?.methods.push(name);
    }
    // A class declaring an abstract method is abstract (Python's @abstractmethod, PHP/Java keywords).
    const withAbstractMethods = new Set<string>();
    for (const fn of this.ir.functions) {
      if (fn.className !== null && fn.modifiers.includes('abstract')) withAbstractMethods.add(fn.className);
    }
    for (const cls of this.ir.classes) {
      if (cls.kind === 'class' && withAbstractMethods.has(cls.name)) cls.isAbstract = true;
    }
  }

  private visit(cursor: TreeCursor, depth: number, id: number): void {
    const read = this.read;
    read.node = read.binding = read.function = read.cls = undefined;
    const type = this.table.names[id] ?? '';
    this.typePath[depth] = type;
    // Anonymous tokens can share a type name with a node (the `lambda` keyword inside a lambda).
    if (this.table.interesting[id] !== 1) return;
    this.currentDepth = depth;
    const rules = this.rules;

    let decorators: PendingDecorators | null = null;
    if (this.pending && this.pending.depth === depth && type !== 'comment') {
      if (type !== rules.siblingDecoratorType) {
        decorators = this.pending;
        this.pending = null;
      }
    }
    if (type === rules.siblingDecoratorType) {
      const node = (read.node = cursor.currentNode);
      this.pending ??= { depth, texts: [], firstRow: node.startPosition.row };
      this.pending.texts.push(decoratorText(this.ctx.text(node)));
      return; // calls inside decorators are still found when the walk descends
    }

    const isCall = rules.callTypes.has(type);
    const isClass = rules.classTypes.has(type);
    const isFunction = rules.functionTypes.has(type);
    const isImport = rules.importTypes.has(type);
    const isNaming = rules.namingTypes.has(type);
    if (!isCall && !isClass && !isFunction && !isImport && !isNaming) return;

    const node = (read.node = cursor.currentNode);
    if (isNaming) {
      const binding = (read.binding = rules.readBinding(node, this.ctx));
      if (binding) this.bindings.set(binding.value.id, binding);
    }
    if (isImport) {
      for (const facts of rules.readImports(node, this.ctx)) {
        const names = facts.names.length === 0 ? (this.bindings.get(node.id)?.names ?? []) : facts.names;
        const item: ImportIR = { ...facts, names, line: node.startPosition.row + 1 };
        this.ir.imports.push(item);
      }
    }
    if (isCall) this.addCall(node);
    if (isClass) this.addClass(node, depth, decorators);
    if (isFunction) this.addFunction(node, depth, decorators);
  }

  private innermostClass(): ClassIR | null {
    for (let i = this.frames.length - 1; i >= 0; i--) {
      const frame = this.frames[i]!; // i in range
      if (frame.kind === 'class') return frame.cls;
    }
    return null;
  }

  private innermostFunction(): FunctionIR | null {
    for (let i = this.frames.length - 1; i >= 0; i--) {
      const frame = this.frames[i]!; // i in range
      if (frame.kind === 'function') return frame.fn;
    }
    return null;
  }

  private addCall(node: Node): void {
    const facts = this.rules.readCall(node, this.ctx);
    if (!facts) return;
    const receiver = facts.receiver === null ? null : facts.receiver.slice(0, RECEIVER_TEXT_LIMIT);
    this.ir.calls.push({
      callee: facts.callee.slice(0, CALL_TEXT_LIMIT),
      receiver,
      arity: facts.arity,
      line: node.startPosition.row + 1,
      enclosingFunction: this.innermostFunction()?.qualifiedName ?? null,
      text: this.ctx.clip(node, CALL_TEXT_LIMIT),
      kind: facts.kind,
    });
  }

  private addClass(node: Node, depth: number, decorators: PendingDecorators | null): void {
    const facts = (this.read.cls = this.rules.readClass(node, this.ctx));
    if (!facts) return;
    const startRow = Math.min(node.startPosition.row, decorators?.firstRow ?? Infinity);
    const cls: ClassIR = {
      name: facts.name ?? this.bindings.get(node.id)?.name ?? `<anonymous@L${node.startPosition.row + 1}>`,
      superclass: facts.superclass,
      interfaces: facts.interfaces,
      isAbstract: facts.isAbstract,
      kind: facts.kind,
      startLine: startRow + 1,
      endLine: node.endPosition.row + 1,
      methods: [],
      decorators: [...(decorators?.texts ?? []), ...facts.decorators],
      enclosingClass: this.innermostClass()?.name ?? null,
    };
    this.ir.classes.push(cls);
    this.frames.push({ depth, kind: 'class', cls });
  }

  private addFunction(node: Node, depth: number, decorators: PendingDecorators | null): void {
    const facts = (this.read.function = this.rules.readFunction(node, this.ctx));
    if (!facts) return;
    const line = node.startPosition.row + 1;
    const name = facts.name ?? this.bindings.get(node.id)?.name ?? `<lambda@L${line}>`;
    const top = this.frames[this.frames.length - 1];
    // Closures inherit the class of the function they sit in (Go methods have no class frame).
    let className: string | null = top?.kind === 'class' ? top.cls.name : top?.kind === 'function' ? top.fn.className : null;
    let qualifiedName = name;
    if (facts.ownerClass !== undefined) {
      className = facts.ownerClass;
      qualifiedName = `${className}.${name}`;
      this.ownerMethods.push({ owner: className, name });
    } else if (top?.kind === 'class') {
      qualifiedName = `${top.cls.name}.${name}`;
      // Unnamed lambdas in a class body (Ruby blocks, callbacks) are not methods.
      if (!facts.isLambda || facts.name !== null || this.bindings.has(node.id)) top.cls.methods.push(name);
    } else if (top?.kind === 'function') {
      qualifiedName = `${top.fn.qualifiedName}.${name}`;
    }
    const startRow = Math.min(node.startPosition.row, decorators?.firstRow ?? Infinity);
    // A copy: the facts go to the walk's visitor too.
    const modifiers = [...facts.modifiers];
    if (decorators && this.rules.decoratorModifiers) {
      for (const text of decorators.texts) {
        const implied = this.rules.decoratorModifiers(text);
        if (implied && !modifiers.includes(implied)) modifiers.push(implied);
      }
    }
    const fn: FunctionIR = {
      name,
      qualifiedName,
      className,
      startLine: startRow + 1,
      endLine: node.endPosition.row + 1,
      parameters: facts.parameters,
      decorators: [...(decorators?.texts ?? []), ...facts.decorators],
      modifiers,
      isLambda: facts.isLambda,
      bodyStartLine: facts.body ? facts.body.startPosition.row + 1 : line,
    };
    this.ir.functions.push(fn);
    this.frames.push({ depth, kind: 'function', fn });
  }
}

/** Decorator source without the leading `@` and surrounding blanks. */
function decoratorText(text: string): string {
  return text.replace(/^@\s*/, '').trim();
}
