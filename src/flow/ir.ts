/**
 * The flow IR: one function's statements and expressions, lowered from a tree-sitter tree by a
 * per-language front end (src/flow/lower/<language>.ts), read by the language-neutral data-flow engine.
 *
 * It keeps what decides where a value can go (assignments, calls, string building, collections,
 * fields, branches and their conditions, returns) and drops the rest. A construct a front end does not
 * understand becomes an `unknown` node holding its sub-expressions, so the engine stays conservative
 * (outside data in any child reaches the result) instead of silently losing a flow.
 *
 * Lines are 1-based; `column` is 0-based, in UTF-16 code units of the line.
 */
import type { Node } from 'web-tree-sitter';
import type { TreeVisitor } from '../syntax/ir.js';
import type { Language } from '../syntax/languages.js';

export interface Position {
  line: number;
  column: number;
}

/** Everything the engine needs of one file. */
export interface FlowFile {
  path: string;
  language: Language;
  /** Every function, method, constructor and lambda, plus one synthetic `<module>` for top-level code. */
  functions: FlowFunction[];
  classes: FlowClass[];
  /** Names bound by imports, to their module (`from os import path` gives `path` -> `os.path`). */
  imports: Record<string, string>;
  /** What the front end could not lower, e.g. `depth_limit at line 17`; shown as not fully analysed. */
  degradations: string[];
}

export interface FlowClass {
  name: string;
  superclass: string | null;
  interfaces: string[];
  /** Field declarations with their initialisers (`private String q = "x";`, Python class attributes). */
  fields: Array<{ name: string; type: string | null; init: FlowExpr | null; isStatic: boolean } & Position>;
  /** qualifiedNames of the methods declared in this class. */
  methods: string[];
  decorators: string[];
}

export interface FlowParameter {
  /** As written, without type; PHP keeps `$`; rest/splat parameters lose their `...`/`*`. */
  name: string;
  index: number;
  type: string | null;
  /** Annotations/attributes/decorators without `@`/`#[ ]`, with arguments: `RequestParam("id")`. */
  annotations: string[];
  /** Default value, when written. */
  defaultValue: FlowExpr | null;
  /** Destructured parameter (`({ query }) =>`, `def f((a, b))`): what it binds. */
  pattern: FlowTarget | null;
}

export interface FlowFunction extends Position {
  name: string;
  /** `Class.method`, `outer.inner`, `<lambda@L12:4>`, `<module>`. Unique within the file. */
  qualifiedName: string;
  className: string | null;
  parameters: FlowParameter[];
  decorators: string[];
  modifiers: string[];
  /** Declared return type as written, or null. */
  returnType: string | null;
  body: FlowStmt[];
  endLine: number;
  /** For a lambda or nested function: the qualifiedName of the function it is written in. */
  enclosingFunction: string | null;
}

/** Where a value is stored. */
export type FlowTarget =
  | ({ kind: 'name'; name: string } & Position)
  | ({ kind: 'field'; object: FlowExpr; field: string } & Position)
  | ({ kind: 'index'; object: FlowExpr; index: FlowExpr } & Position)
  /**
   * `[a, b] = x`, `{q, ...rest} = x`, `a, b = x`, `list($a, $b) = $x`: `elements` by position, `keys` by
   * name (object/dict patterns give `keys[i]` for `elements[i]`), `rest` takes what is left.
   */
  | ({ kind: 'destructure'; elements: Array<FlowTarget | null>; keys: Array<string | null> | null; rest: FlowTarget | null } & Position);

export type FlowStmt =
  /** `a = b`, `a = b = c` (two targets), `a += b` (operator `+=`), declarations with initialisers. */
  | ({ kind: 'assign'; targets: FlowTarget[]; value: FlowExpr; operator: string } & Position)
  /** A declaration without initialiser (`String s;`): the name is bound and holds nothing yet. */
  | ({ kind: 'declare'; name: string; type: string | null } & Position)
  /** An expression evaluated for its effect: calls, `x++`. */
  | ({ kind: 'expr'; expr: FlowExpr } & Position)
  | ({ kind: 'return'; value: FlowExpr | null } & Position)
  | ({ kind: 'throw'; value: FlowExpr | null } & Position)
  | ({ kind: 'if'; condition: FlowExpr; then: FlowStmt[]; otherwise: FlowStmt[] } & Position)
  /** `switch`/`match`: `values` empty for the default arm; `fallsThrough` when the arm does not end in break/return/throw. */
  | ({ kind: 'switch'; subject: FlowExpr; cases: Array<{ values: FlowExpr[]; body: FlowStmt[]; fallsThrough: boolean }> } & Position)
  /**
   * Every loop. A for-each binds `target` from each element of `iterable`; a C-style `for` gives its
   * initialiser and update as statements in `init`/`update`; `condition` is null for for-each.
   */
  | ({
      kind: 'loop';
      target: FlowTarget | null;
      iterable: FlowExpr | null;
      condition: FlowExpr | null;
      init: FlowStmt[];
      update: FlowStmt[];
      body: FlowStmt[];
    } & Position)
  | ({ kind: 'try'; body: FlowStmt[]; handlers: Array<{ parameter: string | null; types: string[]; body: FlowStmt[] }>; finally: FlowStmt[] } & Position)
  /** `with open(p) as f`, try-with-resources: each resource's value bound to its target before the body. */
  | ({ kind: 'with'; resources: Array<{ target: FlowTarget | null; value: FlowExpr }>; body: FlowStmt[] } & Position)
  | ({ kind: 'break' | 'continue' } & Position)
  /** Source text the front end did not lower; `expressions` are the sub-expressions it could still read. */
  | ({ kind: 'unknown'; text: string; expressions: FlowExpr[] } & Position);

export type FlowLiteral = string | number | boolean | null;

export type FlowExpr =
  | ({ kind: 'literal'; value: FlowLiteral; text: string } & Position)
  | ({ kind: 'name'; name: string } & Position)
  /** `a.b`, `$a->b`, `a?.b`, Python `a.b`; `this.x`/`self.x`/`$this->x` have object `{kind:'name', name:'this'|'self'|'$this'}`. */
  | ({ kind: 'field'; object: FlowExpr; field: string } & Position)
  /** `a[i]`, `$a['k']`, `a.get(k)` is a call, not an index. */
  | ({ kind: 'index'; object: FlowExpr; index: FlowExpr } & Position)
  /**
   * A call or `new`. `callee` is the called name (`getParameter`, `execute`, `eval`, `String.format` is
   * callee `format` with receiver `String`); `receiver` is null for a bare call. `calleeText` is the
   * callee as written (`cursor.execute`, `$db->query`, `Runtime.getRuntime().exec`), for rows that match
   * on the whole path. `named` holds keyword arguments (`shell=True`). `spread` marks `...args`/`*args`.
   */
  | ({
      kind: 'call';
      callee: string;
      receiver: FlowExpr | null;
      calleeText: string;
      arguments: Array<{ value: FlowExpr; spread: boolean }>;
      named: Array<{ name: string; value: FlowExpr }>;
      isNew: boolean;
      /** `new X(...)`: the class name as written, without type arguments. */
      constructed: string | null;
    } & Position)
  /** Arithmetic, comparison, logic and string concatenation (`+`, PHP `.`), `%` formatting, `in`, `instanceof`. */
  | ({ kind: 'binary'; operator: string; left: FlowExpr; right: FlowExpr } & Position)
  | ({ kind: 'unary'; operator: string; operand: FlowExpr } & Position)
  | ({ kind: 'conditional'; condition: FlowExpr; then: FlowExpr; otherwise: FlowExpr } & Position)
  /** f-strings, template literals, PHP `"a $b {$c->d}"`, Ruby `"#{x}"`: literal parts as `literal` nodes, in order. */
  | ({ kind: 'template'; parts: FlowExpr[]; tag: FlowExpr | null } & Position)
  /** List/array/tuple/set literals (`elements`) and map/dict/object literals (`entries`; spread entries have key null). */
  | ({
      kind: 'collection';
      shape: 'list' | 'tuple' | 'set' | 'map';
      elements: Array<{ value: FlowExpr; spread: boolean }>;
      entries: Array<{ key: FlowExpr | null; value: FlowExpr }>;
    } & Position)
  /** A lambda, arrow function, anonymous function or method reference: lowered as its own FlowFunction. */
  | ({ kind: 'function'; qualifiedName: string } & Position)
  /** `(int) x`, `x as T`, `(String) o`: `type` as written. Numeric casts are a sanitiser for most sinks. */
  | ({ kind: 'cast'; type: string; value: FlowExpr } & Position)
  /** `a = b` used as an expression (`while ((line = r.readLine()) != null)`, walrus). */
  | ({ kind: 'assignment'; target: FlowTarget; value: FlowExpr; operator: string } & Position)
  /** A construct not lowered: outside data in any of `children` reaches its value. */
  | ({ kind: 'unknown'; text: string; children: FlowExpr[] } & Position);

/** A front end: one per language, lowering a parsed file. `tree` is web-tree-sitter's root node. */
export interface FlowFrontEnd {
  languages: Language[];
  lower(input: { path: string; language: Language; source: string; root: Node }): FlowFile;
  /** Lowering in two halves: a visitor for a walk of the tree made anyway (the syntax IR's), then the bodies. */
  prepare?(input: { path: string; language: Language; source: string }): { visitor: TreeVisitor; lower(root: Node): FlowFile };
}
