/**
 * The language-neutral intermediate representation (IR) of one source file: what later steps
 * (prover, recognisers, anchoring) read instead of walking tree-sitter trees themselves.
 * All line numbers are 1-based.
 */
import type { Language } from './languages.js';

/** One parameter of a function. */
export interface ParameterIR {
  /** As written, without type; PHP keeps the `$` (`$user`), splats lose their `*`/`...`. */
  name: string;
  /** The declared type as written, or null when none is given. */
  type: string | null;
  /** Parameter annotations/attributes/decorators without `@` or `#[ ]`, e.g. `QueryParameter`. */
  annotations: string[];
}

/** A function, method, constructor, closure or lambda. */
export interface FunctionIR {
  /** Declared name; a lambda takes the name it is assigned to, else a synthetic `<lambda@L12>`. */
  name: string;
  /** `Class.method` for methods, `outer.inner` for nested functions, else `name`. Overloads share it. */
  qualifiedName: string;
  /** Innermost enclosing class (also for closures inside methods), or null. */
  className: string | null;
  /** First line, including decorators/annotations/attributes written above it. */
  startLine: number;
  endLine: number;
  parameters: ParameterIR[];
  /** Decorator/annotation/attribute source text without `@` or `#[ ]`, e.g. `Route("/x")`. */
  decorators: string[];
  /** Keywords such as public private protected static abstract async final. */
  modifiers: string[];
  /** Arrow functions, lambdas, closures and blocks. */
  isLambda: boolean;
  /** Line where the body starts (equals startLine for a declaration without a body). */
  bodyStartLine: number;
}

/** A class-like declaration. Ruby modules appear as kind 'trait' (mixins). */
export interface ClassIR {
  /** Declared name, or a synthetic `<anonymous@L12>`. */
  name: string;
  /** The extended class as written (`Bar<T>` is given as `Bar`), or null. */
  superclass: string | null;
  /** Implemented interfaces (for an interface: the ones it extends; Python: bases after the first). */
  interfaces: string[];
  isAbstract: boolean;
  kind: 'class' | 'interface' | 'trait' | 'enum' | 'anonymous';
  startLine: number;
  endLine: number;
  /** Names of the methods declared directly in this class, in source order (overloads repeat). */
  methods: string[];
  decorators: string[];
  /** Name of the class this one is nested in, or null. */
  enclosingClass: string | null;
}

/** A call site (including `new X(...)`, which has kind 'new'). */
export interface CallIR {
  /** The called name, e.g. `checkPermission`; for unusual callees (`f()()`) the callee's text. */
  callee: string;
  /** Source text of the receiver (`Jenkins.get()`, `this`, `$this->auth`, `Route`), null for bare calls. */
  receiver: string | null;
  arity: number;
  line: number;
  /** qualifiedName of the innermost enclosing function, or null at top level. */
  enclosingFunction: string | null;
  /** The call's source text, cut to 200 characters. */
  text: string;
  kind: 'call' | 'new';
}

/** An import, require, use or include. */
export interface ImportIR {
  /** Module as written: `os`, `./util`, `java.util.List`, `App\Models\User`; the expression text when not a literal. */
  module: string;
  /** The local names the import binds (aliases applied); `*` for a wildcard; empty when nothing is bound. */
  names: string[];
  line: number;
  kind: 'import' | 'require' | 'dynamic' | 'use' | 'include';
}

/** Everything the IR knows about one file. */
export interface FileIR {
  path: string;
  language: Language;
  functions: FunctionIR[];
  classes: ClassIR[];
  calls: CallIR[];
  imports: ImportIR[];
  /** True when the parse contained any ERROR or MISSING node (or failed). */
  hasErrors: boolean;
  /** What the IR could not cover, e.g. `depth_limit:2000 at line 17`, `parse_failed: ...`. */
  degradations: string[];
}
