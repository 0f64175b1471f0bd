/**
 * What the Python, JavaScript/TypeScript, PHP and Go front ends share: finding every function and
 * class of a file (named exactly as the syntax IR names them), the per-function lowering context with
 * its depth bound, and constructors for the IR nodes.
 *
 * A front end only says how its grammar's statements and expressions map to the flow IR; this module
 * owns the walk over the whole tree, which is iterative (no recursion) so hostile nesting cannot
 * overflow the stack, and the bookkeeping that must agree across languages.
 */
import type { Language as TSLanguage, Node, TreeCursor } from 'web-tree-sitter';
import type { Language } from '../../syntax/languages.js';
import type { ParameterIR } from '../../syntax/ir-types.js';
import { DEFAULT_MAX_DEPTH, type TreeVisitor, type WalkRead } from '../../syntax/ir.js';
import { rulesFor } from '../../syntax/ir-rules/index.js';
import type { Binding, ClassFacts, FunctionFacts, LanguageRules, ReadContext } from '../../syntax/ir-rules/rules.js';
import type { FlowClass, FlowExpr, FlowFile, FlowFunction, FlowLiteral, FlowParameter, FlowStmt, FlowTarget, Position } from '../ir.js';

/** Expressions and statements nested deeper than this inside one function are not lowered (kept as `unknown`). */
export const MAX_LOWER_DEPTH = 200;
/** Source text kept in `unknown` nodes and `calleeText` is cut to this many characters. */
const TEXT_LIMIT = 200;
/** At most this many depth degradations are listed per file. */
const MAX_DEPTH_REPORTS = 10;
/** The synthetic function holding a file's top-level code. */
export const MODULE_FUNCTION = '<module>';
/** The name every front end gives constructors. */
export const CONSTRUCTOR = '<init>';

/** What one language tells the shared driver. */
export interface LanguageLowerer {
  /** The method name a class's constructor has (`__init__`, `constructor`, `__construct`), or null. */
  constructorName: string | null;
  /** Statements of a function's body (a lambda with an expression body gives one `return`). */
  lowerBody(fn: Node, cx: LowerContext): FlowStmt[];
  /** Top-level statements of the file (function and class declarations become bindings or are skipped). */
  lowerModule(root: Node, cx: LowerContext): FlowStmt[];
  /** The parameter nodes of a function, in the order and with the filtering of the syntax IR's rules. */
  parameterNodes(fn: Node): Node[];
  /** Default value and destructuring pattern of one parameter node. */
  parameterDetails(parameter: Node, cx: LowerContext): { defaultValue: FlowExpr | null; pattern: FlowTarget | null };
  /** Declared return type as written, or null. */
  returnType(fn: Node, cx: LowerContext): string | null;
  /** Field declarations of a class node. */
  classFields(cls: Node, cx: LowerContext): FlowClass['fields'];
  /** Import node types, and the names each such node binds to their module path. */
  importTypes: ReadonlySet<string>;
  readImports(node: Node, cx: LowerContext, into: Record<string, string>): void;
}

/** One function found by the scan, before its body is lowered. */
interface FoundFunction {
  node: Node;
  flow: FlowFunction;
  parameterFacts: ParameterIR[];
}

/** Per-file state the language lowerers read and write through. */
export class LowerContext {
  readonly degradations: string[] = [];
  /** Function node id → qualifiedName of the FlowFunction lowered from it. */
  readonly functionNames = new Map<number, string>();
  /** Class node ids the scan saw (their methods are functions of their own). */
  readonly classNodes = new Set<number>();
  /** Names of the classes declared in the file (a Python call of one constructs it). */
  readonly classNames = new Set<string>();
  private depth = 0;
  private depthReports = 0;
  /** qualifiedName of the function whose body is being lowered (for lambda names and degradations). */
  current = MODULE_FUNCTION;

  constructor(
    readonly source: string,
    readonly language: Language,
  ) {}

  text(node: Node): string {
    return this.source.slice(node.startIndex, node.endIndex);
  }

  clip(node: Node, max = TEXT_LIMIT): string {
    return this.source.slice(node.startIndex, Math.min(node.endIndex, node.startIndex + max));
  }

  /**
   * Runs `lower` one level deeper, or returns `fallback()` past the depth bound (recording the
   * degradation once per place), so every recursive lowering step is bounded.
   */
  nested<T>(node: Node, lower: () => T, fallback: () => T): T {
    if (this.depth >= MAX_LOWER_DEPTH) {
      this.depthReports++;
      if (this.depthReports <= MAX_DEPTH_REPORTS) {
        this.degradations.push(`depth_limit:${MAX_LOWER_DEPTH} at line ${node.startPosition.row + 1} in ${this.current}`);
      } else if (this.depthReports === MAX_DEPTH_REPORTS + 1) {
        this.degradations.push(`depth_limit:${MAX_LOWER_DEPTH} hit more often than listed`);
      }
      return fallback();
    }
    this.depth++;
    try {
      return lower();
    } finally {
      this.depth--;
    }
  }

  /** The reference to a lambda/closure/nested function lowered on its own, or null when the scan did not see it. */
  functionRef(node: Node): FlowExpr | null {
    const qualifiedName = this.functionNames.get(node.id);
    return qualifiedName === undefined ? null : { kind: 'function', qualifiedName, ...pos(node) };
  }
}

export function pos(node: Node): Position {
  return { line: node.startPosition.row + 1, column: node.startPosition.column };
}

/** Named children that are not comments. */
export function kids(node: Node): Node[] {
  const out: Node[] = [];
  for (const child of node.namedChildren) if (child && !child.type.endsWith('comment')) out.push(child);
  return out;
}

export function literal(node: Node, value: FlowLiteral, text: string): FlowExpr {
  return { kind: 'literal', value, text, ...pos(node) };
}

export function nameExpr(node: Node, name: string): FlowExpr {
  return { kind: 'name', name, ...pos(node) };
}

/** A construct not lowered: its source text and the sub-expressions that may carry data into its value. */
export function unknownExpr(node: Node, cx: LowerContext, children: FlowExpr[]): FlowExpr {
  return { kind: 'unknown', text: cx.clip(node), children, ...pos(node) };
}

export function unknownStmt(node: Node, cx: LowerContext, expressions: FlowExpr[]): FlowStmt {
  return { kind: 'unknown', text: cx.clip(node), expressions, ...pos(node) };
}

const PLAIN_DECIMAL = /^(0|[1-9][0-9]{0,14})$/;

/** A numeric literal's value; null when the text is not a number JavaScript can read. */
export function numberValue(text: string): number | null {
  // Most literals are plain decimals (and `0`): no separators, suffixes or octal prefix to read.
  if (PLAIN_DECIMAL.test(text)) return Number(text);
  const cleaned = text.replace(/_/g, '').replace(/[lLjJuUiI]+$/, '');
  const octal = /^0[oO]?([0-7]+)$/.exec(cleaned);
  const value = octal && cleaned !== '0' ? Number.parseInt(octal[1] ?? '', 8) : Number(cleaned);
  return Number.isFinite(value) ? value : null;
}

/** A number literal, or `unknown` without children when the value cannot be read exactly. */
export function numberLiteral(node: Node, cx: LowerContext): FlowExpr {
  const text = cx.text(node);
  const value = numberValue(text);
  return value === null ? unknownExpr(node, cx, []) : literal(node, value, text);
}

/** A call node. */
export function callExpr(
  node: Node,
  cx: LowerContext,
  parts: {
    callee: string;
    receiver: FlowExpr | null;
    calleeNode: Node | null;
    /** The callee as written when no single node holds it (`$db->query` without its arguments). */
    calleeText?: string;
    arguments: Array<{ value: FlowExpr; spread: boolean }>;
    named?: Array<{ name: string; value: FlowExpr }>;
    constructed?: string | null;
  },
): FlowExpr {
  const constructed = parts.constructed ?? null;
  return {
    kind: 'call',
    callee: parts.callee,
    receiver: parts.receiver,
    calleeText: parts.calleeText ?? (parts.calleeNode ? compact(cx.clip(parts.calleeNode)) : parts.callee),
    arguments: parts.arguments,
    named: parts.named ?? [],
    isNew: constructed !== null,
    constructed,
    ...pos(node),
  };
}

/** Callee text without line breaks and runs of blanks (`$db\n  ->query` reads as `$db->query`). */
function compact(text: string): string {
  if (!/\s/.test(text)) return text;
  return text.replace(/\s*\n\s*/g, '').replace(/\s+/g, ' ');
}

/** A type name without generic arguments or a leading namespace separator. */
export function bareType(text: string): string {
  const angle = text.search(/[<[]/);
  return (angle < 0 ? text : text.slice(0, angle)).trim().replace(/^\\/, '');
}

/**
 * Template parts from literal stretches of source between interpolation nodes: the text from `start`
 * to `end` (source offsets) with every interpolation lowered by `lowerPart`. Used where a grammar does
 * not give the literal stretches nodes of their own (JavaScript template strings).
 */
export function splitTemplate(
  node: Node,
  cx: LowerContext,
  start: number,
  end: number,
  holes: Node[],
  lowerPart: (hole: Node) => FlowExpr,
): FlowExpr[] {
  const parts: FlowExpr[] = [];
  let at = start;
  for (const hole of holes) {
    if (hole.startIndex > at) parts.push(literal(node, cx.source.slice(at, hole.startIndex), cx.source.slice(at, hole.startIndex)));
    parts.push(lowerPart(hole));
    at = hole.endIndex;
  }
  if (end > at) parts.push(literal(node, cx.source.slice(at, end), cx.source.slice(at, end)));
  return parts;
}

/** A template whose parts are all literals is the literal of their joined text. */
export function templateOrLiteral(node: Node, parts: FlowExpr[], tag: FlowExpr | null = null): FlowExpr {
  if (tag === null && parts.every((p) => p.kind === 'literal' && typeof p.value === 'string')) {
    const value = parts.map((p) => (p.kind === 'literal' ? String(p.value) : '')).join('');
    return literal(node, value, value);
  }
  return { kind: 'template', parts, tag, ...pos(node) };
}

/** `a = f` for a nested function or class-free declaration, so later reads of `a` find the function. */
export function bindFunction(node: Node, nameNode: Node | null, cx: LowerContext): FlowStmt[] {
  const ref = cx.functionRef(node);
  if (!ref || !nameNode) return [];
  return [{ kind: 'assign', targets: [{ kind: 'name', name: cx.text(nameNode), ...pos(nameNode) }], value: ref, operator: '=', ...pos(node) }];
}

/** Does a statement list end where control cannot fall into the next switch arm? */
export function endsControl(body: readonly FlowStmt[]): boolean {
  const last = body[body.length - 1];
  return last !== undefined && (last.kind === 'return' || last.kind === 'throw' || last.kind === 'break' || last.kind === 'continue');
}

/** A language's unbounded lowering steps, each calling the bounded ones for its children. */
export interface LoweringSteps {
  expr: (node: Node, cx: LowerContext) => FlowExpr;
  target: (node: Node, cx: LowerContext) => FlowTarget;
  statement: (node: Node, cx: LowerContext) => FlowStmt[];
  /** Node types whose named children are a statement list (`block`, `statement_block`). */
  blockTypes: ReadonlySet<string>;
}

/** The bounded entry points a front end lowers through: past the depth bound each gives an `unknown`. */
export interface BoundedLowering {
  expr: (node: Node, cx: LowerContext) => FlowExpr;
  target: (node: Node, cx: LowerContext) => FlowTarget;
  statement: (node: Node, cx: LowerContext) => FlowStmt[];
  statements: (nodes: readonly Node[], cx: LowerContext) => FlowStmt[];
  /** A body: a block's statements, or the single statement written without braces. */
  block: (node: Node | null, cx: LowerContext) => FlowStmt[];
}

/** A target the front end cannot read: its text keeps it from matching a real name. */
export function unknownTarget(node: Node, cx: LowerContext): FlowTarget {
  return { kind: 'name', name: cx.clip(node), ...pos(node) };
}

export function boundedLowering(steps: LoweringSteps): BoundedLowering {
  const expr = (node: Node, cx: LowerContext): FlowExpr => cx.nested(node, () => steps.expr(node, cx), () => unknownExpr(node, cx, []));
  const target = (node: Node, cx: LowerContext): FlowTarget => cx.nested(node, () => steps.target(node, cx), () => unknownTarget(node, cx));
  const statement = (node: Node, cx: LowerContext): FlowStmt[] => cx.nested(node, () => steps.statement(node, cx), () => [unknownStmt(node, cx, [])]);
  const statements = (nodes: readonly Node[], cx: LowerContext): FlowStmt[] => {
    const out: FlowStmt[] = [];
    for (const node of nodes) out.push(...statement(node, cx));
    return out;
  };
  const block = (node: Node | null, cx: LowerContext): FlowStmt[] => {
    if (!node) return [];
    return steps.blockTypes.has(node.type) ? statements(kids(node), cx) : statement(node, cx);
  };
  return { expr, target, statement, statements, block };
}

/** A node with `left`, `operator` and `right` fields as a binary; null when one is missing. */
export function binaryOf(node: Node, cx: LowerContext, lowering: BoundedLowering, operatorText: (text: string) => string = (text) => text): FlowExpr | null {
  const left = node.childForFieldName('left');
  const right = node.childForFieldName('right');
  const operator = node.childForFieldName('operator');
  if (!left || !right || !operator) return null;
  return { kind: 'binary', operator: operatorText(cx.text(operator)), left: lowering.expr(left, cx), right: lowering.expr(right, cx), ...pos(node) };
}

/** A node with an `operator` field and its operand in `operandField` as a unary; null when one is missing. */
export function unaryOf(node: Node, operandField: string, cx: LowerContext, lowering: BoundedLowering): FlowExpr | null {
  const operand = node.childForFieldName(operandField);
  const operator = node.childForFieldName('operator');
  if (!operand || !operator) return null;
  return { kind: 'unary', operator: cx.text(operator), operand: lowering.expr(operand, cx), ...pos(node) };
}

/** `a.b` or `a[i]` from the node's two fields (a value and a target alike); null when either is missing. */
export function access(node: Node, kind: 'field' | 'index', objectField: string, keyField: string, cx: LowerContext, lowering: BoundedLowering): Extract<FlowExpr, { kind: 'field' | 'index' }> | null {
  const object = node.childForFieldName(objectField);
  const key = node.childForFieldName(keyField);
  if (!object || !key) return null;
  return kind === 'field'
    ? { kind: 'field', object: lowering.expr(object, cx), field: cx.text(key), ...pos(node) }
    : { kind: 'index', object: lowering.expr(object, cx), index: lowering.expr(key, cx), ...pos(node) };
}

/**
 * `if` / `elif`... / `else` written as one node with `alternative` children (Python, PHP): nested ifs,
 * the later alternatives in the else arm of the earlier ones. `bodyField` names the arm bodies.
 */
export function ifChain(node: Node, bodyField: string, cx: LowerContext, lowering: BoundedLowering): FlowStmt {
  const arm = (at: Node, otherwise: FlowStmt[]): FlowStmt => {
    const condition = at.childForFieldName('condition');
    return { kind: 'if', condition: condition ? lowering.expr(condition, cx) : unknownExpr(at, cx, []), then: lowering.block(at.childForFieldName(bodyField), cx), otherwise, ...pos(at) };
  };
  const alternatives = node.childrenForFieldName('alternative').filter((n): n is Node => n !== null);
  let otherwise: FlowStmt[] = [];
  for (let i = alternatives.length - 1; i >= 0; i--) {
    const alt = alternatives[i];
    if (!alt) continue;
    otherwise = alt.type === 'else_clause' ? lowering.block(alt.childForFieldName('body'), cx) : [arm(alt, otherwise)];
  }
  return arm(node, otherwise);
}

/** Per grammar: node type names by id, which ids are named, and which the scan reads. */
interface ScanTable {
  names: string[];
  named: Uint8Array;
  wanted: Uint8Array;
}

const scanTables = new WeakMap<TSLanguage, Map<LanguageLowerer, ScanTable>>();

function scanTable(language: TSLanguage, rules: LanguageRules, lowerer: LanguageLowerer): ScanTable {
  let byLowerer = scanTables.get(language);
  if (!byLowerer) scanTables.set(language, (byLowerer = new Map<LanguageLowerer, ScanTable>()));
  const cached = byLowerer.get(lowerer);
  if (cached) return cached;
  const count = language.nodeTypeCount;
  const table: ScanTable = { names: [], named: new Uint8Array(count + 1), wanted: new Uint8Array(count + 1) };
  for (let id = 0; id < count; id++) {
    const name = language.nodeTypeForId(id) ?? '';
    table.names.push(name);
    if (!language.nodeTypeIsNamed(id)) continue;
    table.named[id] = 1;
    if (rules.namingTypes.has(name) || rules.functionTypes.has(name) || rules.classTypes.has(name) || lowerer.importTypes.has(name)) table.wanted[id] = 1;
  }
  byLowerer.set(lowerer, table);
  return table;
}

/** The walk frame of a class or function the scan is inside. */
type Frame = { depth: number; kind: 'class'; cls: FlowClass } | { depth: number; kind: 'function'; fn: FlowFunction };

/**
 * Lower a parsed file: find every function and class the way the syntax IR does (same names, same
 * qualified names, same decorators), then lower each body. Never throws for odd input: a body that
 * fails to lower is an `unknown` statement with a degradation.
 */
export function lowerFile(
  input: { path: string; language: Language; source: string; root: Node },
  lowerer: LanguageLowerer,
): FlowFile {
  const prepared = prepareLowering(input, lowerer);
  walkTree(input.root, prepared.visitor);
  return prepared.lower(input.root);
}

/**
 * The lowering of a file in two halves, so the function scan can ride along a walk someone else
 * makes (the syntax IR's, src/syntax/ir.ts): `visitor` sees every node of that walk, then `lower`
 * lowers the bodies the scan found, while the same tree is alive.
 */
export function prepareLowering(input: { path: string; language: Language; source: string }, lowerer: LanguageLowerer): PreparedLowering {
  const cx = new LowerContext(input.source, input.language);
  const rules = rulesFor(input.language);
  const scan = new FunctionScan(rules, lowerer, cx);
  const lower = (root: Node): FlowFile => {
    const { imports, classes, classNodes, found } = scan.finish();
    const moduleFunction = moduleFunctionOf(root);
    cx.current = MODULE_FUNCTION;
    moduleFunction.body = guarded(root, cx, () => lowerer.lowerModule(root, cx));

    for (const { node, cls } of classNodes) cls.fields = guarded(node, cx, () => lowerer.classFields(node, cx), []);
    for (const item of found) {
      cx.current = item.flow.qualifiedName;
      item.flow.parameters = guarded(item.node, cx, () => flowParameters(item, lowerer, cx), []);
      item.flow.returnType = lowerer.returnType(item.node, cx);
      item.flow.body = guarded(item.node, cx, () => lowerer.lowerBody(item.node, cx));
    }
    return { path: input.path, language: input.language, functions: [moduleFunction, ...found.map((f) => f.flow)], classes, imports, degradations: cx.degradations };
  };
  return { visitor: scan, lower };
}

/** The synthetic function holding a file's top-level code, its body still empty. */
export function moduleFunctionOf(root: Node): FlowFunction {
  return { name: MODULE_FUNCTION, qualifiedName: MODULE_FUNCTION, className: null, parameters: [], decorators: [], modifiers: [], returnType: null, body: [], line: 1, column: 0, endLine: root.endPosition.row + 1, enclosingFunction: null };
}

export interface PreparedLowering {
  visitor: TreeVisitor;
  lower(root: Node): FlowFile;
}

/** The same walk as the syntax IR's (every node, preorder, no deeper than DEFAULT_MAX_DEPTH), for a tree no one else walks. */
function walkTree(root: Node, visitor: TreeVisitor): void {
  const cursor: TreeCursor = root.walk();
  try {
    let depth = 0;
    for (;;) {
      visitor.visit(cursor, depth, cursor.nodeTypeId);
      if (depth < DEFAULT_MAX_DEPTH && cursor.gotoFirstChild()) {
        depth++;
        continue;
      }
      for (;;) {
        if (cursor.gotoNextSibling()) break;
        if (!cursor.gotoParent()) return;
        depth--;
      }
    }
  } finally {
    cursor.delete();
  }
}

/** Runs one lowering step; an unexpected failure becomes an `unknown` statement and a degradation, not a crash. */
function guarded<T>(node: Node, cx: LowerContext, lower: () => T, failed?: T): T {
  try {
    return lower();
  } catch (error) {
    cx.degradations.push(`lower_failed at line ${node.startPosition.row + 1} in ${cx.current}: ${error instanceof Error ? error.message : String(error)}`);
    return failed ?? ([unknownStmt(node, cx, [])] as T);
  }
}

function flowParameters(item: FoundFunction, lowerer: LanguageLowerer, cx: LowerContext): FlowParameter[] {
  const nodes = lowerer.parameterNodes(item.node);
  return item.parameterFacts.map((facts, index) => {
    const node = nodes.length === item.parameterFacts.length ? nodes[index] : undefined;
    const details = node ? lowerer.parameterDetails(node, cx) : { defaultValue: null, pattern: null };
    return { name: facts.name, index, type: facts.type, annotations: facts.annotations, ...details };
  });
}

interface ScanOutput {
  imports: Record<string, string>;
  classes: FlowClass[];
  classNodes: Array<{ node: Node; cls: FlowClass }>;
  found: FoundFunction[];
}

/**
 * The walk that finds functions, classes and imports, one node at a time (iterative: no recursion). It
 * mirrors the syntax IR's walk (src/syntax/ir.ts): the same rules read names and decorators, and the
 * same frames give qualified names, so the engine's functions line up with the ones the rest of jscr
 * reports on. A frame or pending decorator ends when the walk reaches a node at its depth or above.
 */
class FunctionScan implements TreeVisitor {
  private readonly out: ScanOutput = { imports: {}, classes: [], classNodes: [], found: [] };
  private readonly ctx: ReadContext;
  private readonly typePath: string[] = [];
  private currentDepth = 0;
  private readonly frames: Frame[] = [];
  private readonly bindings = new Map<number, Binding>();
  private readonly taken = new Set<string>([MODULE_FUNCTION]);
  private pending: { depth: number; texts: string[]; firstRow: number } | null = null;
  /** Go methods name their receiver type, which may be declared later in the file. */
  private readonly ownerMethods: Array<{ owner: string; qualifiedName: string }> = [];
  private table: ScanTable | null = null;

  constructor(
    private readonly rules: LanguageRules,
    private readonly lowerer: LanguageLowerer,
    private readonly cx: LowerContext,
  ) {
    this.ctx = {
      text: (node) => cx.text(node),
      clip: (node, max = TEXT_LIMIT) => cx.clip(node, max),
      parentType: () => this.typePath[this.currentDepth - 1] ?? null,
    };
  }

  /** `read` is the syntax IR walk's reads at this node (same rules, same context), reused rather than read again through wasm. */
  visit(cursor: TreeCursor, depth: number, id: number, read?: WalkRead): void {
    const { rules, lowerer, cx, frames } = this;
    // The grammar's table is read once, at the root.
    const table = (this.table ??= scanTable(cursor.currentNode.tree.language, rules, lowerer));
    while (frames.length > 0 && (frames[frames.length - 1]?.depth ?? -1) >= depth) frames.pop();
    if (this.pending && this.pending.depth > depth) this.pending = null;
    const type = table.names[id] ?? '';
    this.typePath[depth] = type;
    if (table.named[id] !== 1) return;
    this.currentDepth = depth;
    let decorators: typeof this.pending = null;
    if (this.pending && this.pending.depth === depth && type !== 'comment' && type !== rules.siblingDecoratorType) {
      decorators = this.pending;
      this.pending = null;
    }
    if (type === rules.siblingDecoratorType) {
      const node = read?.node ?? cursor.currentNode;
      this.pending ??= { depth, texts: [], firstRow: node.startPosition.row };
      this.pending.texts.push(cx.text(node).replace(/^@\s*/, '').trim());
    } else if (table.wanted[id] === 1) {
      const node = read?.node ?? cursor.currentNode;
      if (rules.namingTypes.has(type)) {
        const binding = read?.binding !== undefined ? read.binding : rules.readBinding(node, this.ctx);
        if (binding) this.bindings.set(binding.value.id, binding);
      }
      if (lowerer.importTypes.has(type)) lowerer.readImports(node, cx, this.out.imports);
      if (rules.classTypes.has(type)) this.addClass(node, depth, decorators?.texts ?? [], read?.cls);
      if (rules.functionTypes.has(type)) this.addFunction(node, depth, decorators?.texts ?? [], read?.function);
    }
  }

  /** What the scan found, once the walk is over. */
  finish(): ScanOutput {
    for (const { owner, qualifiedName } of this.ownerMethods) this.out.classes.find((c) => c.name === owner)?.methods.push(qualifiedName);
    this.ownerMethods.length = 0;
    return this.out;
  }

  private addClass(node: Node, depth: number, decoratorTexts: string[], read: ClassFacts | null | undefined): void {
    const { rules, cx, out, frames } = this;
    const facts = read !== undefined ? read : rules.readClass(node, this.ctx);
    if (!facts) return;
    const cls: FlowClass = {
      name: facts.name ?? this.bindings.get(node.id)?.name ?? `<anonymous@L${node.startPosition.row + 1}>`,
      superclass: facts.superclass,
      interfaces: facts.interfaces,
      fields: [],
      methods: [],
      decorators: [...decoratorTexts, ...facts.decorators],
    };
    cx.classNodes.add(node.id);
    cx.classNames.add(cls.name);
    out.classes.push(cls);
    out.classNodes.push({ node, cls });
    frames.push({ depth, kind: 'class', cls });
  }

  private addFunction(node: Node, depth: number, decoratorTexts: string[], read: FunctionFacts | null | undefined): void {
    const { rules, lowerer, cx, out, frames, bindings, taken } = this;
    const facts = read !== undefined ? read : rules.readFunction(node, this.ctx);
    if (!facts) return;
    const { line, column } = pos(node);
    const name = facts.name ?? bindings.get(node.id)?.name ?? `<lambda@L${line}:${column}>`;
    const top = frames[frames.length - 1];
    let className: string | null = top?.kind === 'class' ? top.cls.name : top?.kind === 'function' ? top.fn.className : null;
    let qualifiedName = name;
    let enclosingFunction: string | null = null;
    for (let i = frames.length - 1; i >= 0; i--) {
      const frame = frames[i];
      if (frame?.kind === 'function') {
        enclosingFunction = frame.fn.qualifiedName;
        break;
      }
    }
    if (facts.ownerClass !== undefined) {
      className = facts.ownerClass;
      qualifiedName = `${className}.${name}`;
    } else if (top?.kind === 'class') {
      qualifiedName = `${top.cls.name}.${name}`;
    } else if (top?.kind === 'function') {
      qualifiedName = `${top.fn.qualifiedName}.${name}`;
    }
    // Overloads and redefinitions share a name in the syntax IR; the flow IR needs each to be unique.
    if (taken.has(qualifiedName)) qualifiedName = `${qualifiedName}@L${line}:${column}`;
    taken.add(qualifiedName);
    if (facts.ownerClass !== undefined) this.ownerMethods.push({ owner: facts.ownerClass, qualifiedName });
    else if (top?.kind === 'class' && (!facts.isLambda || facts.name !== null || bindings.has(node.id))) top.cls.methods.push(qualifiedName);
    const modifiers = [...facts.modifiers];
    for (const text of decoratorTexts) {
      const implied = rules.decoratorModifiers?.(text);
      if (implied && !modifiers.includes(implied)) modifiers.push(implied);
    }
    const flow: FlowFunction = {
      // Constructors are named `<init>` in every front end (as in Java's), so the engine finds the one a
      // `new` runs; the qualified name stays the syntax IR's.
      name: className !== null && top?.kind === 'class' && name === lowerer.constructorName ? CONSTRUCTOR : name,
      qualifiedName,
      className,
      parameters: [],
      decorators: [...decoratorTexts, ...facts.decorators],
      modifiers,
      returnType: null,
      body: [],
      line,
      column,
      endLine: node.endPosition.row + 1,
      enclosingFunction,
    };
    cx.functionNames.set(node.id, qualifiedName);
    out.found.push({ node, flow, parameterFacts: facts.parameters });
    frames.push({ depth, kind: 'function', fn: flow });
  }
}
