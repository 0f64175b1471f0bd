/**
 * The data-flow engine: per function, a flow-sensitive abstract interpretation over the structured
 * statements of the flow IR. Each variable holds a Value (taints with their paths, constant, type,
 * slots); branches whose condition folds to a constant are pruned, guards vet values in the arm where
 * they hold, loops run to a small fixpoint. Calls to functions of the same file use summaries (which
 * parameters and fields reach the return, which reach a sink inside, which fields they write), computed
 * once per function by the same interpretation with symbolic `param:<i>` / `field:<name>` taints.
 *
 * Every function has a budget of work units (FlowBudget), counted, never timed, so a function is
 * analysed to the end or not the same way on any machine and under any load; one that runs out is
 * named in `limits`, never passed off as fully analysed.
 */
import type { FlowClass, FlowExpr, FlowFile, FlowFunction, FlowLiteral, FlowStmt, FlowTarget } from './ir.js';
import { calledName, callMatches, nameKeyFor, rowIndex, type CallExpr, type FlowRowIndex, type NameKey } from './match.js';
import { renderExpr, renderTarget } from './render.js';
import type { CallSlot, CheckRow, FlowRows, SanitiserRow, SinkRow } from './rows.js';
import { kindsClearedByStrip } from './strip.js';
import {
  addTaints,
  allTaints,
  clearFor,
  CLEAN,
  constant,
  hasConstant,
  join,
  mapTaints,
  markWith,
  mix,
  newTaint,
  sameValue,
  simpleType,
  taintCounts,
  withStep,
  type PathStep,
  type Taint,
  type TrackedObject,
  type Value,
  REQUEST_OBJECT,
  simpleClassName,
  UNSEEN,
} from './value.js';

export interface FlowFinding {
  kind: 'taint' | 'check';
  rowId: string;
  cwe: string;
  /** The function whose analysis found it (where the source, or the call into a helper, is). */
  function: string;
  /** The sink (or checked call), which may be inside a same-file helper. */
  line: number;
  column: number;
  /** Source first, sink last. */
  path: PathStep[];
  /** Lines of calls into helpers on the way to a sink inside them, outermost first. */
  callSites: number[];
  sourceRow: string | null;
  via: string[];
}

/**
 * The work one function's analysis may do, in steps: one step is a statement or an expression
 * evaluated, or an inner sink or field write of a callee's summary carried over to a call, or
 * ENTRIES_PER_STEP variables or slots copied or merged where the state forks and joins (branches,
 * loops, slot writes). So a step costs about the same whatever the code, and no work that grows with
 * the function goes uncounted (a top level of 5,000 `$lang['k'] = ...` lines copies its map 5,000 times).
 */
export interface FlowBudget {
  steps: number;
}

export const DEFAULT_BUDGET: FlowBudget = { steps: 60_000 };
/** Copying or merging a variable or a slot costs a small part of evaluating an expression: this many make a step. */
const ENTRIES_PER_STEP = 32;

/** A function of another file a call may run, with the analyser of that file (src/flow/repository.ts). */
export interface ExternalDefinition {
  fn: FlowFunction;
  analyser: FileAnalyser;
  path: string;
}

/** Functions defined elsewhere in the repository, looked up before the analysis. */
export interface ExternalFunctions {
  /** `receiverClass`: the simple name of the receiver's class, where known (Java looks methods up by it). */
  definitionsFor(call: CallExpr, from: FlowFile, receiverClass?: string | null): readonly ExternalDefinition[];
  /**
   * A call no function of the file and no row explains was handed data (`viaReceiver`: only its receiver
   * carries any, which is worth a search only where methods are looked up by class): worth a search.
   */
  noteUnresolved(call: CallExpr, from: FlowFile, receiverClass?: string | null, viaReceiver?: boolean): void;
  /** Whether one more looked-up helper may be summarised now (false: too many under way); `leave` after. */
  enter(): boolean;
  leave(): void;
}

/**
 * What a helper does with its parameters, as other readers (the prover's argument provenance) see it.
 * Parameter indexes count the declared parameters, the receiver excluded.
 */
export interface HelperSummary {
  /** Parameters whose value reaches the return. */
  returnsFrom: number[];
  /** By parameter reaching the return: the sink kinds it is cleaned for on the way. */
  returnCleanedFor: Array<{ parameter: number; kinds: string[] }>;
  /** Parameters that reach a sink inside (the helper is itself a sink for that CWE). */
  parameterSinks: Array<{ parameter: number; cwe: string; rowId: string; line: number }>;
  /** Where it returns true, these parameters are clean for these kinds (a check). */
  vets: Array<{ parameter: number; kinds: string[] }>;
}

export interface AnalyseOptions {
  rows: FlowRows;
  /** Functions of other files, for calls this file does not define. */
  external?: ExternalFunctions;
  /**
   * Note calls handed this file's parameters for a search, not only those handed outside data: set for
   * a helper's own file, where a wrapper of a wrapper takes its parameter on to the sink.
   */
  lookUpParameters?: boolean;
  budget?: FlowBudget;
  /** A repository properties value by key, for `property` propagators. */
  property?: (key: string) => string | null;
  /** Packages the repository's manifests declare, for sinks with `requires_dependency`. */
  dependencies?: ReadonlySet<string>;
  /** Of the texts sink rows name in `requires_text`, those some file of the repository contains. */
  projectTexts?: ReadonlySet<string>;
}

/**
 * What reached one sink, weakest first: `own` (a constant or data the function writes out itself, or a
 * value sanitised or vetted for the sink), `symbolic` (a parameter of the function, a field of the
 * object or a name set outside the file, with no source in sight), `unseen` (part of it comes from a
 * call, an import or a top-level name flow cannot vouch for), `untracked` (input flow does not follow to the sink: the command line or the environment, which
 * the sink's row does not report; a callback's parameters or a closure's variables, filled by code it
 * does not follow), `outside` (outside data: flow reports it itself).
 */
export const SINK_ORIGINS = ['own', 'symbolic', 'unseen', 'untracked', 'outside'] as const;
export type SinkOrigin = (typeof SINK_ORIGINS)[number];

export interface SinkEvidence {
  /** The sink call's line and the lines of the values in its slots. */
  lines: number[];
  cwe: string;
  /** The strongest origin of every value that reached the sink, in its function and in the callers analysed. */
  origin: SinkOrigin;
  /** What a `symbolic` origin is: "parameter `cmd` of `run`", "field `this.html`". */
  names: string[];
}

/**
 * The mark a taint gets when it is handed as an argument to a call the engine knows nothing of (no row,
 * no summary): the result is what that function made of it (a lookup keyed by it, a URL built from it),
 * which a sink row may decline to count (`ignores_mark`).
 */
export const THROUGH_CALL_MARK = 'through-call';

/** The mark a guard puts on the value it vetted, whatever kinds it cleared it for (`vetted_for_any` sinks). */
const CHECKED_MARK = 'checked';
/**
 * Texts whose absence, checked (`if "../" in name: return`), makes a value clean for some sink kinds: a
 * name without a parent step cannot climb out of the folder it is put under; a value without a quote
 * cannot end the quoted literal of an XPath predicate (XPath has no escapes, so refusing it is the check).
 */
const REFUSED_TEXTS: ReadonlyArray<{ test: (text: string) => boolean; kinds: readonly string[] }> = [
  { test: (text) => text.includes('..'), kinds: ['path'] },
  { test: (text) => text === "'" || text === '"', kinds: ['xpath'] },
];
/** Calls that only turn a value into its text (`str(p)`): a check of the text is a check of the value. */
const TEXT_CONVERSIONS = new Set(['str', 'os.fspath', 'String', 'String.valueOf']);

/** `str(p)` -> `p`: what a guard vets when it checks a value's text (`str(p).startswith(base)`). */
function textOf(expr: FlowExpr): FlowExpr {
  const inner = expr.kind === 'call' && expr.arguments.length === 1 && TEXT_CONVERSIONS.has(expr.calleeText) ? expr.arguments[0]?.value : undefined;
  return inner ?? expr;
}
/** The mark a URL parser's propagator row puts on what it returns (`urlparse(next)`), see `hostChecked`. */
const PARSED_URL_MARK = 'parsed-url';
/** Fields of a parsed URL that name its host: checking one against a fixed list vets the URL for redirects. */
const HOST_FIELDS = new Set(['netloc', 'hostname', 'host']);

export interface FileAnalysis {
  findings: FlowFinding[];
  /** By sink (in functions analysed to the end, not top-level code): what reached it. */
  evidence: SinkEvidence[];
  /** Functions (of those asked for) analysed to the end, within their budget. */
  analysed: string[];
  /**
   * By function: the CWEs of sinks a value of unseen origin reaches there (a parameter, a field, a name
   * bound elsewhere). For the others, data flow knows where every value at those sinks comes from.
   */
  open: ReadonlyMap<string, ReadonlySet<string>>;
  /** By function: the CWEs of the sinks it calls (its helpers' included), whatever reaches them. */
  sinks: ReadonlyMap<string, ReadonlySet<string>>;
  /** `Class.method at line 12 (step budget)`: functions not fully analysed. */
  limits: string[];
}

/** A symbolic taint reaching a sink (or a weak-value check) inside a function, for its callers. */
interface InnerSink {
  row: SinkRow | null;
  check: CheckRow | null;
  symbolic: Taint;
  line: number;
  column: number;
  callSites: number[];
  /** The sink's evidence lines (its call and the values in its slots). */
  lines: number[];
}

interface Summary {
  returns: Value;
  /** The function is a check: where it returns true, parameter i is clean for these kinds. */
  vets: ReadonlyMap<number, ReadonlySet<string>>;
  innerSinks: InnerSink[];
  /** Fields of `this` written, with their values at the end. */
  thisWrites: Map<string, Value>;
  /** CWEs of the sinks this function calls, whatever reaches them (its helpers' sinks included). */
  sinkCwes: ReadonlySet<string>;
}

type State = Map<string, Value>;

class BudgetExceeded extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

const NUMERIC_TYPES = /^(int|long|short|byte|double|float|char|boolean|bool|Integer|Long|Short|Byte|Double|Float|Boolean|number|i32|i64|u32|u64|f32|f64|usize|uint|float64|int64|int32)$/;
const CLEAN_OPERATORS = new Set(['-', '*', '/', '<', '>', '<=', '>=', '==', '!=', '===', '!==', 'instanceof', 'in', 'not in', 'is', 'is not', '&&', '||', 'and', 'or', '&', '|', '^', '<<', '>>', '>>>', '**', '<=>']);
const ARITHMETIC = new Set(['-', '*', '/', '%', '**', '&', '|', '^', '<<', '>>', '>>>']);
/** Taints that stand for a value this function cannot see the origin of: a parameter, a field, a free name. */
const SYMBOLIC = /^(param|field|free):/;
/** Marks a source read on a parameter (`receiver:param:0`), for the caller to check what it hands in. */
const RECEIVER_MARK = 'receiver:';
/** Programs that run their arguments as a command line. */
const SHELL_PROGRAM = /^(.*[\\/])?((ba|da|z|k|c|tc|fi)?sh|cmd(\.exe)?|powershell(\.exe)?|pwsh)$/i;
const MAX_LOOP_ROUNDS = 3;
/** The label of the command line and the environment (`sys.argv`, `process.env`): input to a program run by hand. */
const LOCAL_INPUT = 'local';
/** Sink kinds a URL's start decides: what follows a prefix that fixes the authority cannot send the user elsewhere. */
const DECIDED_BY_PREFIX: ReadonlySet<string> = new Set(['redirect']);
/**
 * Constant starts of a URL that fix its authority: an absolute path (`/x`, not `//` or `/\\`), a
 * scheme and host followed by a path, query or fragment (`https://a.example/`), a query or fragment
 * of the current page, or a relative path with a separator before any colon; in a `Location:` header
 * line, the same after the header's name. A bare `/`, a bare scheme or a host with nothing after it
 * (`https://a.example` + `@evil`) does not.
 */
const FIXES_AUTHORITY = /^(?:\s*location\s*:\s*|redirect:)?(\u0001|\/[^/\\]|[a-z][a-z0-9+.-]*:\/\/[^/\\?#]+[/\\?#]|[?#]|[^/\\:?#]+[/\\?#])/i;
/** Top-level bindings worth evaluating for the functions that read them: options objects and folded settings. */
/** The names a method's own object goes by. */
const SELF_NAMES = new Set(['this', 'self', '$this']);
const MODULE_VALUE_KINDS = new Set<FlowExpr['kind']>(['collection', 'conditional', 'binary', 'unary', 'template', 'cast']);
/** The type of a map read from the repository's properties files (a `properties-file` builtin). */
const PROPERTIES_TYPE = 'Properties';
/** State keys of access paths a check vetted that have no slot of their own (`$a[$i]`), by their text. */
const VETTED_ACCESS = '@vetted ';
/** How many summaries may be under way at once (a helper calling a helper ...). */
const MAX_SUMMARY_DEPTH = 24;
/** What the front ends name constructors. */
const CONSTRUCTOR_NAMES = new Set(['<init>', '__init__', '__construct', 'constructor']);
/** Receiver parameters written out in the parameter list (Python). */
const SELF_PARAMETERS = new Set(['self', 'cls']);

/** 1 when the function's first parameter is its receiver (`def term(self)`), else 0. */
function selfOffset(fn: FlowFunction): number {
  return fn.className !== null && SELF_PARAMETERS.has(fn.parameters[0]?.name ?? '') ? 1 : 0;
}

function slotKey(value: FlowLiteral): string {
  return String(value);
}

/** What a number computed from these values still carries: not their text, but how predictable they were. */
function predictableOnly(values: readonly Value[]): Taint[] {
  return values.flatMap(allTaints).filter((t) => t.label !== 'input' && !SYMBOLIC.test(t.label));
}

/** `absent(name)`: what a name no state has bound holds (nothing for a local; outside data for `$_GET`). */
function joinStates(states: readonly (State | null)[], absent: (name: string) => Value = () => CLEAN): State | null {
  const live = states.filter((s): s is State => s !== null);
  if (live.length === 0) return null;
  const [first, ...rest] = live;
  const out = new Map(first);
  for (const state of rest) {
    for (const [name, value] of out) {
      if (state.has(name)) continue;
      // A vetted access path is vetted after the join only when every arm vetted it.
      if (name.startsWith(VETTED_ACCESS)) out.delete(name);
      else out.set(name, join(value, absent(name)));
    }
    for (const [name, value] of state) {
      const known = out.get(name);
      if (known !== undefined) out.set(name, join(known, value));
      else if (!name.startsWith(VETTED_ACCESS)) out.set(name, join(absent(name), value));
    }
  }
  return out;
}

function sameState(a: State, b: State): boolean {
  if (a.size !== b.size) return false;
  for (const [name, value] of a) {
    const other = b.get(name);
    if (other === undefined || !sameValue(value, other)) return false;
  }
  return true;
}

function truthy(value: FlowLiteral): boolean {
  return value !== null && value !== false && value !== 0 && value !== '';
}

function foldBinary(operator: string, a: FlowLiteral, b: FlowLiteral): FlowLiteral | undefined {
  const bothNumbers = typeof a === 'number' && typeof b === 'number';
  switch (operator) {
    case '+':
      if (bothNumbers) return a + b;
      if (typeof a === 'string' || typeof b === 'string') return `${String(a)}${String(b)}`;
      return undefined;
    case '.':
      return `${String(a)}${String(b)}`;
    case '-':
      return bothNumbers ? a - b : undefined;
    case '*':
      return bothNumbers ? a * b : undefined;
    case '/':
      return bothNumbers && b !== 0 ? (Number.isInteger(a) && Number.isInteger(b) ? Math.trunc(a / b) : a / b) : undefined;
    case '%':
      return bothNumbers && b !== 0 ? a % b : undefined;
    case '|':
      return bothNumbers && Number.isInteger(a) && Number.isInteger(b) ? a | b : undefined;
    case '&':
      return bothNumbers && Number.isInteger(a) && Number.isInteger(b) ? a & b : undefined;
    case '<':
      return bothNumbers ? a < b : undefined;
    case '>':
      return bothNumbers ? a > b : undefined;
    case '<=':
      return bothNumbers ? a <= b : undefined;
    case '>=':
      return bothNumbers ? a >= b : undefined;
    case '==':
    case '===':
    case 'is':
      return a === b;
    case '!=':
    case '!==':
    case 'is not':
      return a !== b;
    case '&&':
    case 'and':
      return truthy(a) ? b : a;
    case '||':
    case 'or':
      return truthy(a) ? a : b;
    case '??':
      return a ?? b;
    default:
      return undefined;
  }
}

/** String methods folded on constant receivers (their meaning is the same across the languages). */
function foldMethod(name: string, receiver: FlowLiteral, args: readonly (FlowLiteral | undefined)[]): FlowLiteral | undefined {
  if (typeof receiver !== 'string') return undefined;
  const [a, b] = args;
  switch (name) {
    case 'charAt':
      return typeof a === 'number' ? (receiver[a] ?? undefined) : undefined;
    case 'substring':
    case 'substr':
    case 'slice':
      return typeof a === 'number' && (b === undefined || typeof b === 'number') ? receiver.slice(a, b) : undefined;
    case 'toUpperCase':
    case 'upper':
      return receiver.toUpperCase();
    case 'toLowerCase':
    case 'lower':
      return receiver.toLowerCase();
    case 'trim':
    case 'strip':
      return receiver.trim();
    case 'length':
      return receiver.length;
    case 'equals':
      return a === undefined ? undefined : receiver === a;
    case 'equalsIgnoreCase':
      return typeof a === 'string' ? receiver.toLowerCase() === a.toLowerCase() : undefined;
    case 'concat':
      return typeof a === 'string' ? receiver + a : undefined;
    case 'toString':
    case 'intern':
      return receiver;
    case 'isEmpty':
      return receiver.length === 0;
    case 'contains':
    case 'includes':
      return typeof a === 'string' ? receiver.includes(a) : undefined;
    case 'startsWith':
      return typeof a === 'string' ? receiver.startsWith(a) : undefined;
    case 'indexOf':
      return typeof a === 'string' ? receiver.indexOf(a) : undefined;
    default:
      return undefined;
  }
}

/** Conversions of one constant argument, folded before any row sees the call (`parseBoolean("true")`). */
function foldConversion(name: string, args: readonly (FlowLiteral | undefined)[]): FlowLiteral | undefined {
  const [a] = args;
  if (a === undefined || args.length > 2) return undefined;
  switch (name) {
    case 'parseBoolean':
    case 'boolval':
      return String(a).toLowerCase() === 'true';
    case 'filter_var':
      // PHP's FILTER_VALIDATE_BOOLEAN (258): "1", "true", "on" and "yes" are true.
      return args[1] === 258 ? /^(1|true|on|yes)$/i.test(String(a).trim()) : undefined;
    case 'parseInt':
    case 'parseLong':
    case 'intval':
    case 'int': {
      const n = Number.parseInt(String(a), typeof args[1] === 'number' ? args[1] : 10);
      return Number.isNaN(n) ? undefined : n;
    }
    case 'parseFloat':
    case 'parseDouble':
    case 'float':
    case 'floatval': {
      const n = Number.parseFloat(String(a));
      return Number.isNaN(n) ? undefined : n;
    }
    case 'toString':
    case 'valueOf':
    case 'str':
    case 'String':
    case 'strval':
      return args.length === 1 ? String(a) : undefined;
    default:
      return undefined;
  }
}

/** A folded constant, still marked unseen when one of its operands was (a top-level name's value). */
function foldedFrom(value: FlowLiteral, operands: readonly Value[]): Value {
  const unseen = operands.flatMap((o) => o.taints).filter((t) => t.label === UNSEEN);
  return unseen.length === 0 ? constant(value) : { ...constant(value), taints: unseen.slice(0, 1) };
}

/**
 * Whether a value carries outside data that a sink of `kind` would count (symbolic and unseen values do
 * not), other than the process's own environment and command line: a URL that starts with
 * `process.env.FRONTEND_URL` starts where whoever deployed the server chose, like a setting.
 */
function carriesRequestData(value: Value, kind: string): boolean {
  return allTaints(value).some((t) => t.label !== LOCAL_INPUT && !SYMBOLIC.test(t.label) && t.label !== UNSEEN && !t.cleared.has(kind) && !(t.cleared.has('*') && t.label === 'input'));
}

/** What a part with no outside data in it (a setting, a configured root) stands for in a known start. */
const SETTING = '\u0001';

/**
 * A string built from `parts` in order: the parts after a start that fixes the URL's authority are
 * cleared for the kinds that start decides. A part with no outside data counts as text the
 * application chose (a setting, a configured root), as mainstream analysers take it.
 */
function concatenation(parts: readonly Value[]): Value {
  let text = '';
  let known = true;
  let fixedAt = -1;
  for (let i = 0; i < parts.length && fixedAt < 0; i++) {
    const part = parts[i] ?? CLEAN;
    const start = hasConstant(part) ? { text: String(part.constant), complete: true } : (part.start ?? (carriesRequestData(part, 'redirect') ? null : { text: SETTING, complete: true }));
    if (start === null) known = false;
    else {
      text += start.text;
      known = start.complete;
    }
    if (FIXES_AUTHORITY.test(text)) fixedAt = i;
    if (!known) break;
  }
  const cleared = parts.map((p, i) => (fixedAt >= 0 && i > fixedAt ? clearFor(p, DECIDED_BY_PREFIX) : p));
  const out = mix(cleared, 'String');
  return text === '' ? out : { ...out, start: { text, complete: known && fixedAt < 0 } };
}

/** How a review names a parameter, field or outside name that reached a sink, for whoever checks it. */
function symbolicName(t: Taint, fn: FlowFunction): string {
  const text = t.steps[0]?.text ?? '';
  if (t.label.startsWith('param:')) return `parameter \`${text}\` of \`${fn.name}\``;
  if (t.label.startsWith('field:')) return `field \`${text}\``;
  return `\`${text}\`, set outside this file`;
}

/** The lines of the expressions in `slot` of a call. */
function slotLines(call: CallExpr, slot: CallSlot): number[] {
  switch (slot.kind) {
    case 'receiver':
      return call.receiver === null ? [] : [call.receiver.line];
    case 'argument':
      return call.arguments[slot.index] === undefined ? [] : [call.arguments[slot.index]?.value.line ?? call.line];
    case 'arguments':
      return [...call.arguments.map((a) => a.value.line), ...call.named.map((n) => n.value.line)];
    case 'named':
      return call.named.filter((n) => n.name === slot.name).map((n) => n.value.line);
    case 'return':
    case 'callee':
      return [];
  }
}

/** The function-level context of one analysis. */
interface FunctionContext {
  fn: FlowFunction;
  flowClass: FlowClass | null;
  types: Map<string, string | null>;
  returns: Value | null;
  innerSinks: InnerSink[];
  sinkCwes: Set<string>;
  thisWritten: Set<string>;
  loops: Array<{ breaks: State[]; continues: State[] }>;
  /** The name the receiver goes by inside a method, besides `this` (`self`, `$this`). */
  selfName: string | null;
  /** Above zero while evaluating a receiver a sanitiser is about to clean. */
  sinksMuted: number;
  /** `url = urlparse(next)`: the name of a parsed URL, to what it was parsed from and that value then. */
  parsedUrls: Map<string, { from: FlowExpr; value: Value }>;
  /** Whether the state may hold vetted access paths (VETTED_ACCESS keys); false spares every read the lookup. */
  vettedAccess: boolean;
  /** Parameters every `true` return of this function has vetted, with the kinds they were cleared for. */
  vets: Map<number, ReadonlySet<string>> | null;
  /** What reached the sinks seen here, kept once the function is analysed to the end. */
  evidence: SinkEvidence[];
  /** A function inside another (a callback, a closure): its parameters and free names come from code flow does not follow. */
  nested: boolean;
  /** Work done so far, in FlowBudget steps. */
  steps: number;
  /** Entries copied or merged not yet counted as a step (ENTRIES_PER_STEP make one). */
  entries: number;
}

export class FileAnalyser {
  private readonly summaries = new Map<string, Summary | null>();
  private readonly inProgress = new Set<string>();
  private readonly findings = new Map<string, FlowFinding>();
  readonly limits: string[] = [];
  private readonly budget: FlowBudget;
  /** How the file's language compares names of functions and classes (PHP: in any case). */
  private readonly nameKey: NameKey;
  /** By `nameKey` of the name: look up with functionsNamed and classNamed. */
  private readonly functionsByName = new Map<string, FlowFunction[]>();
  private readonly classesBySimpleName = new Map<string, FlowClass>();
  private readonly evidence = new Map<string, SinkEvidence>();
  /** The rows a call can match, by its name: each call is tried only against those. */
  private readonly byName: FlowRowIndex;
  /** Names a call must be called by for any value check to look at it (null: a check takes any name). */
  private readonly checkNames: ReadonlySet<string> | null;

  constructor(
    private readonly file: FlowFile,
    private readonly options: AnalyseOptions,
  ) {
    this.budget = options.budget ?? DEFAULT_BUDGET;
    this.nameKey = nameKeyFor(file.language);
    this.byName = rowIndex(options.rows, file.language);
    this.checkNames = checkCallNames(options.rows, this.nameKey);
    for (const fn of file.functions) {
      const list = this.functionsByName.get(this.nameKey(fn.name)) ?? [];
      list.push(fn);
      this.functionsByName.set(this.nameKey(fn.name), list);
    }
    for (const c of file.classes) this.classesBySimpleName.set(this.nameKey(simpleClassName(c.name)), c);
  }

  private functionsNamed(name: string): readonly FlowFunction[] | undefined {
    return this.functionsByName.get(this.nameKey(name));
  }

  private classNamed(name: string): FlowClass | undefined {
    return this.classesBySimpleName.get(this.nameKey(name));
  }

  /** Source roots (`$_POST`) a write put into a state, with the source value as first written (writePath). */
  private readonly sourceRoots = new Map<string, Value>();

  /** What a name holds where an arm never bound it: a source root is outside data, anything else nothing. */
  private readonly absent = (name: string): Value => this.sourceRoots.get(name) ?? CLEAN;

  private joinStates(states: readonly (State | null)[], ctx: FunctionContext): State | null {
    this.spendOnJoin(states, ctx);
    return joinStates(states, this.absent);
  }

  private get rows(): FlowRows {
    return this.options.rows;
  }


  /** Analyse every function (or those named), returning findings from those functions. */
  analyse(only: ReadonlySet<string> | null = null): FileAnalysis {
    for (const fn of this.file.functions) {
      if (only !== null && !only.has(fn.qualifiedName)) continue;
      this.summaryOf(fn);
    }
    // The callers in the file say what the functions asked for are handed (their evidence only: their
    // own findings and budgets are not this analysis's).
    const limitCount = this.limits.length;
    if (only !== null) for (const caller of this.callersOf(only)) this.summaryOf(caller);
    this.limits.length = limitCount;
    const findings = [...this.findings.values()].filter((f) => only === null || only.has(f.function));
    findings.sort((a, b) => a.line - b.line || a.column - b.column || a.rowId.localeCompare(b.rowId));
    const analysed = this.file.functions.filter((fn) => (only === null || only.has(fn.qualifiedName)) && this.summaries.get(fn.qualifiedName) != null).map((fn) => fn.qualifiedName);
    const open = new Map<string, ReadonlySet<string>>();
    const sinks = new Map<string, ReadonlySet<string>>();
    for (const name of analysed) {
      const summary = this.summaries.get(name);
      open.set(name, new Set((summary?.innerSinks ?? []).map((inner) => inner.row?.cwe ?? inner.check?.cwe ?? '')));
      sinks.set(name, summary?.sinkCwes ?? new Set());
    }
    return { findings, evidence: [...this.evidence.values()], analysed, open, sinks, limits: [...this.limits] };
  }

  /** Functions of the file (not top-level code) that call one of `names` by name. */
  private callersOf(names: ReadonlySet<string>): FlowFunction[] {
    // The lowered body's text holds `"callee":"name"` for each call by name (PHP's in any case).
    const called = new Set(this.file.functions.filter((fn) => names.has(fn.qualifiedName) && fn.qualifiedName !== '<module>').map((fn) => this.nameKey(`"callee":${JSON.stringify(fn.name)}`)));
    if (called.size === 0) return [];
    return this.file.functions.filter((fn) => fn.qualifiedName !== '<module>' && !names.has(fn.qualifiedName) && [...called].some((c) => this.nameKey(JSON.stringify(fn.body)).includes(c)));
  }

  /** Keep what a fully analysed function saw reach its sinks, the strongest origin per sink. */
  private keepEvidence(ctx: FunctionContext): void {
    if (ctx.fn.qualifiedName === '<module>') return;
    for (const e of ctx.evidence) {
      const key = `${e.cwe}|${e.lines.join(',')}`;
      const known = this.evidence.get(key);
      if (known === undefined) this.evidence.set(key, { ...e, names: [...new Set(e.names)] });
      else this.evidence.set(key, { ...known, origin: SINK_ORIGINS.indexOf(e.origin) > SINK_ORIGINS.indexOf(known.origin) ? e.origin : known.origin, names: [...new Set([...known.names, ...e.names])] });
    }
  }

  /** Record what `values` bring to a sink of `row` at `lines`. */
  private observe(values: readonly Value[], row: SinkRow, lines: readonly number[], ctx: FunctionContext): void {
    let origin: SinkOrigin = 'own';
    const names: string[] = [];
    for (const t of values.flatMap(allTaints)) {
      let seen: SinkOrigin;
      if (t.label === UNSEEN || t.label === REQUEST_OBJECT) seen = 'unseen';
      else if (SYMBOLIC.test(t.label)) {
        // A callback's parameters and a closure's free names are filled by code flow does not follow.
        seen = ctx.nested && !t.label.startsWith('field:') ? 'untracked' : 'symbolic';
        if (seen === 'symbolic') names.push(symbolicName(t, ctx.fn));
      } else if (taintCounts(t, row.kind, row.accepts)) seen = 'outside';
      else seen = t.label === LOCAL_INPUT && !t.cleared.has(row.kind) && !t.cleared.has('*') ? 'untracked' : 'own';
      if (SINK_ORIGINS.indexOf(seen) > SINK_ORIGINS.indexOf(origin)) origin = seen;
    }
    ctx.evidence.push({ lines: [...new Set(lines)].sort((a, b) => a - b), cwe: row.cwe, origin, names });
  }

  /** The summary of one of this file's functions, for a caller in another file. */
  summaryFor(fn: FlowFunction): Summary | null {
    return this.summaryOf(fn);
  }

  /** What `fn` does with its parameters, in terms a reader outside the engine can use. */
  describe(fn: FlowFunction): HelperSummary | null {
    const summary = this.summaryOf(fn);
    if (summary === null) return null;
    const offset = selfOffset(fn);
    const parameterOf = (t: Taint): number | null => {
      const match = /^param:(\d+)$/.exec(t.label);
      return match === null ? null : Number(match[1]) - offset;
    };
    const returned = allTaints(summary.returns).flatMap((t) => {
      const parameter = parameterOf(t);
      return parameter === null || parameter < 0 ? [] : [{ parameter, kinds: [...t.cleared].sort() }];
    });
    return {
      returnsFrom: [...new Set(returned.map((r) => r.parameter))].sort((a, b) => a - b),
      returnCleanedFor: returned.filter((r) => r.kinds.length > 0),
      parameterSinks: summary.innerSinks.flatMap((inner) => {
        const parameter = parameterOf(inner.symbolic);
        const cwe = inner.row?.cwe ?? inner.check?.cwe;
        const rowId = inner.row?.id ?? inner.check?.id;
        return parameter === null || parameter < 0 || cwe === undefined || rowId === undefined ? [] : [{ parameter, cwe, rowId, line: inner.line }];
      }),
      vets: [...summary.vets].map(([index, kinds]) => ({ parameter: index - offset, kinds: [...kinds].sort() })),
    };
  }

  private summaryOf(fn: FlowFunction): Summary | null {
    if (this.summaries.has(fn.qualifiedName)) return this.summaries.get(fn.qualifiedName) ?? null;
    if (this.inProgress.has(fn.qualifiedName)) return null; // recursion: callers fall back to plain propagation
    // A chain of helpers deeper than this is followed by plain propagation, so the stack stays bounded.
    if (this.inProgress.size >= MAX_SUMMARY_DEPTH) return null;
    this.inProgress.add(fn.qualifiedName);
    const ctx: FunctionContext = {
      fn,
      flowClass: this.file.classes.find((c) => c.name === fn.className) ?? null,
      types: new Map(),
      returns: null,
      innerSinks: [],
      sinkCwes: new Set(),
      thisWritten: new Set(),
      loops: [],
      selfName: selfOffset(fn) === 1 ? (fn.parameters[0]?.name ?? null) : fn.className !== null ? '$this' : null,
      sinksMuted: 0,
      parsedUrls: new Map(),
      vettedAccess: false,
      vets: null,
      evidence: [],
      nested: this.file.functions.some((outer) => outer !== fn && outer.qualifiedName !== '<module>' && outer.line <= fn.line && outer.endLine >= fn.endLine && (outer.line < fn.line || outer.endLine > fn.endLine)),
      steps: 0,
      entries: 0,
    };
    let summary: Summary | null = null;
    try {
      const state = this.entryState(ctx);
      const end = this.block(fn.body, state, ctx);
      const exit = this.joinStates([end], ctx);
      const self = exit?.get('this') ?? CLEAN;
      const thisWrites = new Map<string, Value>();
      for (const name of ctx.thisWritten) thisWrites.set(name, self.slots?.get(name) ?? CLEAN);
      summary = { returns: ctx.returns ?? CLEAN, vets: ctx.vets ?? new Map(), innerSinks: ctx.innerSinks, thisWrites, sinkCwes: ctx.sinkCwes };
      this.keepEvidence(ctx);
    } catch (error) {
      if (!(error instanceof BudgetExceeded)) throw error;
      this.limits.push(`${fn.qualifiedName} at line ${fn.line} (${error.reason})`);
    } finally {
      this.inProgress.delete(fn.qualifiedName);
    }
    this.summaries.set(fn.qualifiedName, summary);
    return summary;
  }

  private tick(ctx: FunctionContext): void {
    this.spend(ctx, 1);
  }

  /** Count `steps` of work against the function's budget. */
  private spend(ctx: FunctionContext, steps: number): void {
    ctx.steps += steps;
    if (ctx.steps > this.budget.steps) throw new BudgetExceeded(`more than ${this.budget.steps} steps`);
  }

  /** Count `entries` variables or slots copied or merged: ENTRIES_PER_STEP of them make a step. */
  private spendOnEntries(ctx: FunctionContext, entries: number): void {
    ctx.entries += entries;
    if (ctx.entries < ENTRIES_PER_STEP) return;
    const steps = Math.floor(ctx.entries / ENTRIES_PER_STEP);
    ctx.entries -= steps * ENTRIES_PER_STEP;
    this.spend(ctx, steps);
  }

  /** A copy of `state` for one arm of a fork. */
  private fork(state: State, ctx: FunctionContext): State {
    this.spendOnEntries(ctx, state.size);
    return new Map(state);
  }

  /** Pay for merging `states` (every entry of each is looked at). */
  private spendOnJoin(states: readonly (State | null)[], ctx: FunctionContext): void {
    let entries = 0;
    for (const state of states) entries += state?.size ?? 0;
    this.spendOnEntries(ctx, entries);
  }

  private entryState(ctx: FunctionContext): State {
    const state: State = new Map();
    const { fn } = ctx;
    for (const p of fn.parameters) {
      if (p.index < selfOffset(fn)) continue;
      ctx.types.set(p.name, simpleType(p.type));
      const step: PathStep = { role: 'source', line: fn.line, text: p.name };
      const source = this.parameterSource(fn, p);
      const taint = source !== null ? newTaint(source.label, { ...step, text: `parameter ${p.name}` }, source.id) : newTaint(`param:${p.index}`, step, null);
      state.set(p.name, { taints: [taint], type: simpleType(p.type) });
    }
    if (ctx.flowClass !== null || ctx.selfName !== null) {
      const slots = new Map<string, Value>();
      const flowClass = ctx.flowClass;
      for (const f of flowClass?.fields ?? []) {
        if (f.isStatic) continue;
        // A field declared with a constant that no method of its class writes holds that constant
        // (`private readonly algorithm = 'md5'`); any other is known to callers through the receiver.
        const fixed = flowClass !== null && f.init !== null && !this.fieldsWrittenByMethods(flowClass).has(f.name) ? this.staticField(simpleClassName(flowClass.name), f.name, ctx) : null;
        slots.set(f.name, fixed !== null && hasConstant(fixed) ? fixed : { taints: [newTaint(`field:${f.name}`, { role: 'source', line: f.line, text: `this.${f.name}` }, null)], type: simpleType(f.type) });
      }
      state.set('this', { taints: [], type: simpleType(ctx.flowClass?.name ?? fn.className), slots });
    }
    return state;
  }

  private parameterSource(fn: FlowFunction, p: FlowFunction['parameters'][number]): { id: string; label: string } | null {
    for (const row of this.rows.sources) {
      const m = row.match;
      if (m.kind !== 'parameter' || m.exceptNames.has(p.name) || (m.unannotated === true && p.annotations.length > 0)) continue;
      const byAnnotation = m.annotations !== null && p.annotations.some((a) => m.annotations?.test(a));
      const byType = m.types !== null && p.type !== null && m.types.test(p.type);
      const byHandler = m.handlerDecorators !== null && fn.decorators.some((d) => m.handlerDecorators?.test(d));
      if (byAnnotation || byType || byHandler) return { id: row.id, label: row.label };
    }
    return null;
  }

  // ------------------------------------------------------------------ statements

  private block(stmts: readonly FlowStmt[], state: State | null, ctx: FunctionContext): State | null {
    let current = state;
    for (const stmt of stmts) {
      if (current === null) return null;
      current = this.stmt(stmt, current, ctx);
    }
    return current;
  }

  private stmt(stmt: FlowStmt, state: State, ctx: FunctionContext): State | null {
    this.tick(ctx);
    switch (stmt.kind) {
      case 'declare':
        ctx.types.set(stmt.name, simpleType(stmt.type));
        state.set(stmt.name, { ...CLEAN, type: simpleType(stmt.type) });
        return state;
      case 'assign': {
        for (const target of stmt.targets) {
          const value = stmt.operator === '=' || stmt.operator === ':=' ? this.expr(stmt.value, state, ctx) : this.compound(target, stmt.operator, stmt.value, state, ctx);
          this.assign(target, value, state, ctx);
          if (target.kind === 'name') this.noteParsedUrl(target.name, stmt.value, value, state, ctx);
        }
        // `match = resolve(path)`: the check ran on the way, so the code after it sees a vetted value.
        return this.raisingCheck(stmt.value, state, ctx) ? this.refine(stmt.value, state, true, ctx) : state;
      }
      case 'expr':
        this.expr(stmt.expr, state, ctx);
        if (this.neverReturns(stmt.expr, state, ctx)) return null;
        return this.raisingCheck(stmt.expr, state, ctx) ? this.refine(stmt.expr, state, true, ctx) : state;
      case 'return': {
        const value = stmt.value ? this.expr(stmt.value, state, ctx) : CLEAN;
        if (stmt.value) this.returnSinks(stmt.value, value, state, ctx);
        ctx.returns = ctx.returns === null ? value : join(ctx.returns, value);
        if (stmt.value) this.recordVets(stmt.value, value, state, ctx);
        return null;
      }
      case 'throw':
        if (stmt.value) this.expr(stmt.value, state, ctx);
        return null;
      case 'if':
        return this.ifStmt(stmt, state, ctx);
      case 'switch':
        return this.switchStmt(stmt, state, ctx);
      case 'loop':
        return this.loop(stmt, state, ctx);
      case 'try': {
        const start = this.fork(state, ctx);
        const end = this.block(stmt.body, this.fork(state, ctx), ctx);
        const handlerStart = this.joinStates([start, end], ctx) ?? start;
        const ends = [end, ...stmt.handlers.map((h) => {
          const s = this.fork(handlerStart, ctx);
          // A caught error's message can quote what the code was given.
          if (h.parameter !== null) s.set(h.parameter, { taints: [newTaint(UNSEEN, { role: 'source', line: stmt.line, text: h.parameter }, null)], type: null });
          return this.block(h.body, s, ctx);
        })];
        const after = this.joinStates(ends, ctx);
        if (stmt.finally.length === 0) return after;
        const fin = this.block(stmt.finally, after ?? this.fork(handlerStart, ctx), ctx);
        return after === null ? null : fin;
      }
      case 'with':
        for (const r of stmt.resources) {
          const value = this.expr(r.value, state, ctx);
          if (r.target) this.assign(r.target, value, state, ctx);
        }
        return this.block(stmt.body, state, ctx);
      case 'break':
        ctx.loops[ctx.loops.length - 1]?.breaks.push(state);
        return null;
      case 'continue':
        ctx.loops[ctx.loops.length - 1]?.continues.push(state);
        return null;
      case 'unknown':
        for (const e of stmt.expressions) this.expr(e, state, ctx);
        return state;
    }
  }

  /** `url = urlparse(next)` (a propagator marking `parsed-url`): remember what `url` was parsed from. */
  private noteParsedUrl(name: string, expr: FlowExpr, value: Value, state: State, ctx: FunctionContext): void {
    ctx.parsedUrls.delete(name);
    const parsed = this.parsedFrom(expr, value, state, ctx);
    if (parsed !== undefined) ctx.parsedUrls.set(name, parsed);
  }

  /** What a URL parser's call parsed (a variable or access path), and its value then. */
  private parsedFrom(expr: FlowExpr, value: Value, state: State, ctx: FunctionContext): { from: FlowExpr; value: Value } | undefined {
    const from = expr.kind === 'call' ? expr.arguments[0]?.value : undefined;
    if (from === undefined || (from.kind !== 'name' && from.kind !== 'field') || !allTaints(value).some((t) => t.marks.has(PARSED_URL_MARK))) return undefined;
    return { from, value: this.expr(from, new Map(state), ctx) };
  }

  /**
   * `url.netloc in ALLOWED` (or `== "a.example"`) held, where `url = urlparse(next)` and `next` has not
   * changed since: the host of `next` is one the site chose, so `next` is vetted for redirects.
   */
  private hostChecked(checked: FlowExpr, state: State, ctx: FunctionContext): void {
    if (checked.kind !== 'field' || !HOST_FIELDS.has(checked.field)) return;
    const object = checked.object;
    // `urlsplit(next).hostname == ...` parses and checks in one expression
    const parsed = object.kind === 'name' ? ctx.parsedUrls.get(object.name) : object.kind === 'call' ? this.parsedFrom(object, this.expr(object, new Map(state), ctx), state, ctx) : undefined;
    if (parsed === undefined) return;
    const now = this.expr(parsed.from, new Map(state), ctx);
    if (!sameValue(now, parsed.value)) return;
    this.overwrite(parsed.from, markWith(clearFor(now, new Set(['redirect'])), CHECKED_MARK), state, ctx);
  }

  private neverReturns(expr: FlowExpr, state: State, ctx: FunctionContext): boolean {
    if (expr.kind !== 'call' || this.rows.exits.length === 0) return false;
    const receiverType = expr.receiver ? this.typeOf(expr.receiver, state, ctx) : null;
    return this.byName.exits.for(expr).some((row) => callMatches(row.call, expr, receiverType, this.file));
  }

  /** A check that raises when it fails, called as a statement: the code after it runs only where it held. */
  private raisingCheck(expr: FlowExpr, state: State, ctx: FunctionContext): boolean {
    if (expr.kind !== 'call') return false;
    const receiverType = expr.receiver ? this.typeOf(expr.receiver, state, ctx) : null;
    return this.byName.guards.for(expr).some((row) => row.raises && callMatches(row.call, expr, receiverType, this.file));
  }

  /**
   * A store into an index or field is a call for the sink rows: `session["k"] = v` is
   * `session.__setitem__("k", v)`, `obj.f = v` is `obj.__setattr__("f", v)`.
   */
  private storeSinks(target: Extract<FlowTarget, { kind: 'index' | 'field' }>, value: Value, state: State, ctx: FunctionContext): void {
    if (this.rows.sinks.length === 0 || ctx.sinksMuted > 0) return;
    // No sink row takes a store of this kind: nothing to check (what the target reads is evaluated by the write).
    if (this.byName.sinks.forName(target.kind === 'index' ? '__setitem__' : '__setattr__').length === 0) return;
    const key: FlowExpr = target.kind === 'index' ? target.index : { kind: 'literal', value: target.field, text: JSON.stringify(target.field), line: target.line, column: target.column };
    const call: CallExpr = {
      kind: 'call',
      callee: target.kind === 'index' ? '__setitem__' : '__setattr__',
      receiver: target.object,
      calleeText: `${renderExpr(target.object)}.${target.kind === 'index' ? '__setitem__' : '__setattr__'}`,
      arguments: [{ value: key, spread: false }, { value: { kind: 'unknown', text: renderTarget(target), children: [], line: target.line, column: target.column }, spread: false }],
      named: [],
      isNew: false,
      constructed: null,
      line: target.line,
      column: target.column,
    };
    const receiver = this.expr(target.object, this.fork(state, ctx), ctx);
    this.checkSinks(call, receiver, [this.expr(key, this.fork(state, ctx), ctx), value], new Map(), this.typeOf(target.object, state, ctx), ctx);
  }

  /**
   * What a decorated function returns is matched against sink rows as a call `__return__(value)` whose
   * receiver is the function's decorators as written, one a line: a Flask view's returned string is the
   * page (`@app.route(...)`), so a row names `__return__` with a receiver regex over the decorators.
   */
  private returnSinks(returned: FlowExpr, value: Value, state: State, ctx: FunctionContext): void {
    if (ctx.fn.decorators.length === 0 || this.rows.sinks.length === 0 || ctx.sinksMuted > 0) return;
    const call: CallExpr = {
      kind: 'call',
      callee: '__return__',
      receiver: { kind: 'name', name: ctx.fn.decorators.join('\n'), line: ctx.fn.line, column: ctx.fn.column },
      calleeText: '__return__',
      arguments: [{ value: returned, spread: false }],
      named: [],
      isNew: false,
      constructed: null,
      line: returned.line,
      column: returned.column,
    };
    this.checkSinks(call, CLEAN, [value], new Map(), null, ctx);
  }

  private compound(target: FlowTarget, operator: string, rhs: FlowExpr, state: State, ctx: FunctionContext): Value {
    const current = this.readTarget(target, state, ctx);
    const right = this.expr(rhs, state, ctx);
    return this.binaryValue(operator.replace(/=$/, ''), current, right);
  }

  private readTarget(target: FlowTarget, state: State, ctx: FunctionContext): Value {
    switch (target.kind) {
      case 'name':
        return this.expr({ kind: 'name', name: target.name, line: target.line, column: target.column }, state, ctx);
      case 'field':
        return this.expr({ kind: 'field', object: target.object, field: target.field, line: target.line, column: target.column }, state, ctx);
      case 'index':
        return this.expr({ kind: 'index', object: target.object, index: target.index, line: target.line, column: target.column }, state, ctx);
      case 'destructure':
        return CLEAN;
    }
  }

  private ifStmt(stmt: Extract<FlowStmt, { kind: 'if' }>, state: State, ctx: FunctionContext): State | null {
    const condition = this.expr(stmt.condition, state, ctx);
    if (hasConstant(condition)) return this.block(truthy(condition.constant) ? stmt.then : stmt.otherwise, state, ctx);
    const thenState = this.refine(stmt.condition, this.fork(state, ctx), true, ctx);
    const elseState = this.refine(stmt.condition, this.fork(state, ctx), false, ctx);
    const thenEnd = this.block(stmt.then, thenState, ctx);
    const elseEnd = this.block(stmt.otherwise, elseState, ctx);
    return this.joinStates([thenEnd, elseEnd], ctx);
  }

  private switchStmt(stmt: Extract<FlowStmt, { kind: 'switch' }>, state: State, ctx: FunctionContext): State | null {
    const subject = this.expr(stmt.subject, state, ctx);
    ctx.loops.push({ breaks: [], continues: [] });
    let ends: (State | null)[] = [];
    try {
      if (hasConstant(subject)) {
        let index = stmt.cases.findIndex((c) => c.values.some((v) => {
          const value = this.expr(v, state, ctx);
          return hasConstant(value) && value.constant === subject.constant;
        }));
        if (index < 0) index = stmt.cases.findIndex((c) => c.values.length === 0);
        if (index < 0) return state;
        let current: State | null = state;
        for (let i = index; i < stmt.cases.length && current !== null; i++) {
          const c = stmt.cases[i];
          if (c === undefined) break;
          current = this.block(c.body, current, ctx);
          if (!c.fallsThrough) break;
        }
        ends = [current];
      } else {
        let fallthrough: State | null = null;
        for (const c of stmt.cases) {
          const entry: State = this.joinStates([this.fork(state, ctx), fallthrough], ctx) ?? this.fork(state, ctx);
          const end = this.block(c.body, entry, ctx);
          fallthrough = c.fallsThrough ? end : null;
          if (!c.fallsThrough) ends.push(end);
        }
        if (fallthrough !== null) ends.push(fallthrough);
        if (!stmt.cases.some((c) => c.values.length === 0)) ends.push(state);
      }
    } finally {
      const frame = ctx.loops.pop();
      ends.push(...(frame?.breaks ?? []));
    }
    return this.joinStates(ends, ctx);
  }

  private loop(stmt: Extract<FlowStmt, { kind: 'loop' }>, state: State, ctx: FunctionContext): State | null {
    let current: State | null = this.block(stmt.init, state, ctx);
    if (current === null) return null;
    if (stmt.condition !== null) {
      const condition = this.expr(stmt.condition, current, ctx);
      if (hasConstant(condition) && !truthy(condition.constant)) return current;
    }
    const element = stmt.iterable !== null ? this.elementOf(this.expr(stmt.iterable, current, ctx)) : null;
    let entry: State = current;
    const exits: State[] = [current];
    for (let round = 0; round < MAX_LOOP_ROUNDS; round++) {
      const body = this.fork(entry, ctx);
      if (stmt.target !== null && element !== null) this.assign(stmt.target, element, body, ctx);
      if (stmt.condition !== null) this.refine(stmt.condition, body, true, ctx);
      ctx.loops.push({ breaks: [], continues: [] });
      let end: State | null;
      let frame: { breaks: State[]; continues: State[] } | undefined;
      try {
        end = this.block(stmt.body, body, ctx);
      } finally {
        frame = ctx.loops.pop();
      }
      exits.push(...(frame?.breaks ?? []));
      const looped = this.joinStates([end, ...(frame?.continues ?? [])], ctx);
      const afterUpdate = looped === null ? null : this.block(stmt.update, looped, ctx);
      if (afterUpdate === null) break;
      const next = this.joinStates([entry, afterUpdate], ctx) ?? entry;
      exits.push(next);
      this.spendOnEntries(ctx, entry.size);
      if (sameState(next, entry)) break;
      entry = next;
    }
    current = this.joinStates(exits, ctx);
    return current;
  }

  private elementOf(iterable: Value): Value {
    return { ...mix([iterable]), type: null };
  }

  // ------------------------------------------------------------------ guards

  /** The state in the arm where `condition` is `truth`: values a guard vets are clean there. */
  private refine(condition: FlowExpr, state: State, truth: boolean, ctx: FunctionContext): State {
    if (condition.kind === 'unary' && (condition.operator === '!' || condition.operator === 'not')) return this.refine(condition.operand, state, !truth, ctx);
    // A value that tested false is empty, zero, null or false: nothing that can carry an injection.
    if (condition.kind === 'name' && !truth && allTaints(this.expr(condition, state, ctx)).length > 0) {
      this.overwrite(condition, CLEAN, state, ctx);
      return state;
    }
    if (condition.kind === 'binary') {
      const op = condition.operator;
      if ((op === '&&' || op === 'and') && truth) return this.refine(condition.right, this.refine(condition.left, state, true, ctx), true, ctx);
      if ((op === '||' || op === 'or') && !truth) return this.refine(condition.right, this.refine(condition.left, state, false, ctx), false, ctx);
      // `if (next && !isSafe(next)) next = null;`: where `a && b` fails, `a` failed or `a` held and `b` failed
      if ((op === '&&' || op === 'and') && !truth) {
        const leftFailed = this.refine(condition.left, this.fork(state, ctx), false, ctx);
        const rightFailed = this.refine(condition.right, this.refine(condition.left, this.fork(state, ctx), true, ctx), false, ctx);
        this.spendOnJoin([leftFailed, rightFailed], ctx);
        return joinStates([leftFailed, rightFailed]) ?? state;
      }
      if ((op === '||' || op === 'or') && truth) {
        const leftHeld = this.refine(condition.left, this.fork(state, ctx), true, ctx);
        const rightHeld = this.refine(condition.right, this.refine(condition.left, this.fork(state, ctx), false, ctx), true, ctx);
        this.spendOnJoin([leftHeld, rightHeld], ctx);
        return joinStates([leftHeld, rightHeld]) ?? state;
      }
      // `x in ALLOWED` (Python) holds only for the members of a fixed collection.
      if ((op === 'in' && truth) || (op === 'not in' && !truth)) {
        const collection = this.expr(condition.right, this.fork(state, ctx), ctx);
        if (allTaints(collection).every((t) => t.label === UNSEEN)) {
          this.hostChecked(condition.left, state, ctx);
          this.overwrite(condition.left, clearFor(this.expr(condition.left, state, ctx), new Set(['*'])), state, ctx);
        }
        return state;
      }
      // `if "../" in name: return`: a value known not to hold a text is clean where that text is the harm.
      const needle = condition.left.kind === 'literal' && typeof condition.left.value === 'string' ? condition.left.value : null;
      const refused = needle === null ? undefined : REFUSED_TEXTS.find((r) => r.test(needle));
      if (((op === 'in' && !truth) || (op === 'not in' && truth)) && refused !== undefined) {
        this.overwrite(condition.right, clearFor(this.expr(condition.right, state, ctx), new Set(refused.kinds)), state, ctx);
        return state;
      }
      const equal = op === '==' || op === '===' || op === 'is';
      const notEqual = op === '!=' || op === '!==' || op === 'is not';
      if ((equal && truth) || (notEqual && !truth)) {
        for (const [side, other] of [[condition.left, condition.right], [condition.right, condition.left]] as const) {
          if (other.kind !== 'literal' || other.value === null) continue;
          this.hostChecked(side, state, ctx);
          this.overwrite(side, constant(other.value), state, ctx);
        }
      }
      return state;
    }
    if (condition.kind === 'call' && truth) {
      const receiverType = condition.receiver ? this.typeOf(condition.receiver, state, ctx) : null;
      const constants = condition.arguments.map((a) => this.expr(a.value, this.fork(state, ctx), ctx).constant);
      this.refineByHelper(condition, receiverType, state, ctx);
      for (const guard of this.byName.guards.for(condition)) {
        if (!callMatches(guard.call, condition, receiverType, this.file, constants)) continue;
        const checked = guard.vetsInReceiver === true ? (condition.receiver?.kind === 'call' ? condition.receiver : null) : condition;
        const slot = checked === null ? null : this.slotExpr(checked, guard.vets);
        if (slot === null || (guard.vetsKey && slot.kind !== 'index')) continue;
        const vetted = guard.vetsKey && slot.kind === 'index' ? slot.index : textOf(slot);
        const list = guard.vetsKey && slot.kind === 'index' ? slot.object : guard.against === null ? undefined : this.slotExpr(condition, guard.against);
        // An allow-list holds whatever it lists, unless the list itself comes from outside.
        if (list === null || (list !== undefined && allTaints(this.expr(list, this.fork(state, ctx), ctx)).some((t) => !SYMBOLIC.test(t.label) && t.label !== UNSEEN))) continue;
        const value = this.expr(vetted, state, ctx);
        if (guard.requiresMark !== null && !allTaints(value).every((t) => t.label === UNSEEN || t.marks.has(guard.requiresMark ?? ''))) continue;
        this.overwrite(vetted, markWith(clearFor(value, guard.clears), CHECKED_MARK), state, ctx);
      }
    }
    return state;
  }

  /** Write `value` where `expr` reads from, when it is a variable or access path. */
  private overwrite(expr: FlowExpr, value: Value, state: State, ctx: FunctionContext): void {
    if ((expr.kind === 'index' || expr.kind === 'field') && this.lvalueOf(expr, ctx) === null) {
      // `$_POST['order'][$i]`: no slot to write, so the vetted access itself is remembered until a name in it changes.
      state.set(`${VETTED_ACCESS}${renderExpr(expr)}`, value);
      ctx.vettedAccess = true;
      return;
    }
    if (expr.kind === 'name') state.set(expr.name, value);
    else if (expr.kind === 'field') this.assign({ kind: 'field', object: expr.object, field: expr.field, line: expr.line, column: expr.column }, value, state, ctx, false);
    else if (expr.kind === 'index') this.assign({ kind: 'index', object: expr.object, index: expr.index, line: expr.line, column: expr.column }, value, state, ctx, false);
    else if (expr.kind === 'cast') this.overwrite(expr.value, value, state, ctx);
  }

  /**
   * A `return <condition>` (or `return true` in an arm a check dominates): which parameters hold
   * vetted values when the function says true. Every non-false return must agree.
   */
  private recordVets(expr: FlowExpr, value: Value, state: State, ctx: FunctionContext): void {
    if (hasConstant(value) && !truthy(value.constant)) return;
    const refined = hasConstant(value) ? state : this.refine(expr, this.fork(state, ctx), true, ctx);
    const vetted = new Map<number, ReadonlySet<string>>();
    for (const p of ctx.fn.parameters) {
      const taints = allTaints(refined.get(p.name) ?? CLEAN);
      const own = taints.filter((t) => t.label === `param:${p.index}`);
      if (own.length === 0) continue;
      const cleared = own.map((t) => t.cleared).reduce<ReadonlySet<string>>((a, b) => new Set([...a].filter((k) => b.has(k))), own[0]?.cleared ?? new Set());
      if (cleared.size > 0) vetted.set(p.index, cleared);
    }
    if (ctx.vets === null) ctx.vets = vetted;
    else for (const [index, kinds] of ctx.vets) {
      const other = vetted.get(index);
      if (other === undefined) ctx.vets.delete(index);
      else ctx.vets.set(index, new Set([...kinds].filter((k) => other.has(k))));
    }
  }

  /** `if (isAllowed(v))` with a same-file check function: its vetted parameters are clean here. */
  private refineByHelper(condition: CallExpr, receiverType: string | null, state: State, ctx: FunctionContext): void {
    const callee = this.resolve(condition, receiverType, ctx);
    const vets = callee !== null ? this.summaryOf(callee)?.vets : this.externalVets(condition, this.receiverClass(condition, receiverType, state));
    for (const [index, kinds] of vets ?? []) {
      const argument = condition.arguments[index]?.value;
      if (argument !== undefined) this.overwrite(argument, clearFor(this.expr(argument, state, ctx), kinds), state, ctx);
    }
  }

  // ------------------------------------------------------------------ assignment

  private assign(target: FlowTarget, value: Value, state: State, ctx: FunctionContext, record = true): void {
    const step = (text: string): Value => (record ? mapTaints(value, (t) => withStep(t, { role: 'step', line: target.line, text })) : value);
    switch (target.kind) {
      case 'name': {
        if (ctx.vettedAccess) {
          this.spendOnEntries(ctx, state.size);
          this.forgetVetted(target.name, state);
        }
        const declared = ctx.types.get(target.name);
        const stepped = step(target.name);
        // The value's own class wins where it names a kind of the declared one (`Random g = new SecureRandom()`).
        const own = stepped.type !== null && declared !== undefined && declared !== null && stepped.type !== declared && stepped.type.endsWith(simpleType(declared) ?? '\u0000');
        state.set(target.name, { ...stepped, type: own ? stepped.type : (declared ?? stepped.type) });
        return;
      }
      case 'field':
        if (record) this.storeSinks(target, value, state, ctx);
        this.writePath(target.object, slotKey(target.field), step(renderTarget(target)), state, ctx, true);
        return;
      case 'index': {
        if (record) this.storeSinks(target, value, state, ctx);
        const index = this.expr(target.index, state, ctx);
        this.writePath(target.object, hasConstant(index) ? slotKey(index.constant) : null, step(renderTarget(target)), state, ctx, false);
        return;
      }
      case 'destructure': {
        target.elements.forEach((element, i) => {
          if (element === null) return;
          const key = target.keys?.[i] ?? null;
          const part = key !== null ? (value.slots?.get(key) ?? mix([value])) : (value.elements?.[i] ?? mix([value]));
          this.assign(element, part, state, ctx, record);
        });
        if (target.rest) this.assign(target.rest, mix([value]), state, ctx, record);
        return;
      }
    }
  }

  /** A vetted access path naming `name` (`$a[$i]` for `$i`) is no longer known once the name changes. */
  private forgetVetted(name: string, state: State): void {
    for (const key of [...state.keys()]) {
      if (key.startsWith(VETTED_ACCESS) && key.slice(VETTED_ACCESS.length).split(/[^\w$]+/).includes(name)) state.delete(key);
    }
  }

  /** Set slot `key` (null: an unknown slot) of the object `object` reads, in place. */
  private writePath(object: FlowExpr, key: string | null, value: Value, state: State, ctx: FunctionContext, isField: boolean): void {
    const base = this.lvalueOf(object, ctx);
    if (base === null) {
      this.expr(object, state, ctx);
      return;
    }
    if (base.name === 'this' && base.keys.length === 0 && key !== null && isField) ctx.thisWritten.add(key);
    // Writing one key of a source (`$_POST['id']` vetted) leaves the source's other keys outside data.
    let root = state.get(base.name);
    if (root === undefined) {
      const source = this.fieldSource({ kind: 'name', name: base.name, line: object.line, column: object.column }, ctx.fn);
      if (source !== null && !this.sourceRoots.has(base.name)) this.sourceRoots.set(base.name, source);
      root = source ?? CLEAN;
    }
    state.set(base.name, this.updateSlot(root, [...base.keys, key], value, ctx));
  }

  private updateSlot(root: Value, keys: readonly (string | null)[], value: Value, ctx: FunctionContext): Value {
    const [key, ...rest] = keys;
    if (key === undefined) return value;
    if (key === null) return addTaints(root, allTaints(value));
    // The written object is copied, each of its slots and elements.
    this.spendOnEntries(ctx, (root.slots?.size ?? 0) + (root.elements?.length ?? 0));
    const index = Number(key);
    if (root.elements && Number.isInteger(index) && index >= 0 && index < root.elements.length && rest.length === 0) {
      const elements = [...root.elements];
      elements[index] = value;
      return { ...root, elements };
    }
    const slots = new Map(root.slots ?? []);
    slots.set(key, this.updateSlot(slots.get(key) ?? CLEAN, rest, value, ctx));
    return { ...root, slots };
  }

  /** `a.b.c` to root `a` and keys [b, c]; null for anything that is not a plain access path. */
  /** The value stored in state at an access path (`req.query.sort` after a check wrote it), or null. */
  private writtenPath(expr: FlowExpr, state: State, ctx: FunctionContext): Value | null {
    const path = this.lvalueOf(expr, ctx);
    if (path === null || path.keys.length === 0) return null;
    let at = state.get(path.name);
    for (const key of path.keys) at = at?.slots?.get(key);
    return at ?? null;
  }

  private lvalueOf(expr: FlowExpr, ctx: FunctionContext): { name: string; keys: string[] } | null {
    if (expr.kind === 'name' && expr.name === ctx.selfName) return { name: 'this', keys: [] };
    if (expr.kind === 'name') {
      if (ctx.flowClass !== null && !ctx.types.has(expr.name) && ctx.flowClass.fields.some((f) => f.name === expr.name && !f.isStatic)) return { name: 'this', keys: [expr.name] };
      return { name: expr.name, keys: [] };
    }
    if (expr.kind === 'field') {
      const inner = this.lvalueOf(expr.object, ctx);
      return inner === null ? null : { name: inner.name, keys: [...inner.keys, expr.field] };
    }
    if (expr.kind === 'index' && expr.index.kind === 'literal' && expr.index.value !== null) {
      const inner = this.lvalueOf(expr.object, ctx);
      return inner === null ? null : { name: inner.name, keys: [...inner.keys, slotKey(expr.index.value)] };
    }
    if (expr.kind === 'cast') return this.lvalueOf(expr.value, ctx);
    return null;
  }

  // ------------------------------------------------------------------ expressions

  private typeOf(expr: FlowExpr, state: State, ctx: FunctionContext): string | null {
    switch (expr.kind) {
      case 'name':
        return ctx.types.get(expr.name) ?? state.get(expr.name)?.type ?? this.fieldType(expr.name, ctx);
      case 'field':
        if (expr.object.kind === 'name' && (expr.object.name === 'this' || expr.object.name === 'self')) return this.fieldType(expr.field, ctx);
        return null;
      case 'call':
        return this.constructedClass(expr);
      case 'literal':
        return typeof expr.value === 'string' ? 'String' : null;
      case 'cast':
        return simpleType(expr.type);
      default:
        return null;
    }
  }

  private fieldType(name: string, ctx: FunctionContext): string | null {
    return simpleType(ctx.flowClass?.fields.find((f) => f.name === name)?.type ?? null);
  }

  private expr(expr: FlowExpr, state: State, ctx: FunctionContext): Value {
    this.tick(ctx);
    switch (expr.kind) {
      case 'literal':
        return constant(expr.value);
      case 'name':
        return this.nameValue(expr, state, ctx);
      case 'field': {
        if (ctx.vettedAccess) {
          const vetted = state.get(`${VETTED_ACCESS}${renderExpr(expr)}`);
          if (vetted !== undefined) return vetted;
        }
        // `sorts.includes(req.query.sort) ? req.query.sort : null`: a request path this function vetted or wrote holds what it was given
        const written = this.writtenPath(expr, state, ctx);
        if (written !== null) return written;
        const fromSource = this.fieldSource(expr, ctx.fn);
        if (fromSource !== null) return fromSource;
        if (expr.object.kind === 'name' && this.classNamed(expr.object.name) !== undefined && !state.has(expr.object.name)) return this.staticField(expr.object.name, expr.field, ctx);
        // PHP's `self::ALGO` and `static::ALGO`: a constant of the class being run.
        if (expr.object.kind === 'unknown' && (expr.object.text === 'self' || expr.object.text === 'static') && ctx.flowClass !== null) return this.staticField(simpleClassName(ctx.flowClass.name), expr.field, ctx);
        // A library's named constant on its class (`XMLInputFactory.SUPPORT_DTD`), from the row file's [constants].
        if (expr.object.kind === 'name' && !state.has(expr.object.name)) {
          const named = this.rows.constants.get(`${expr.object.name}.${expr.field}`);
          if (named !== undefined) return constant(named);
        }
        const object = this.expr(expr.object, state, ctx);
        const slot = object.slots?.get(slotKey(expr.field));
        if (slot !== undefined) return slot;
        const onSelf = expr.object.kind === 'name' && (expr.object.name === 'this' || expr.object.name === ctx.selfName);
        // An attribute set outside this method (`self.value` from `__init__`): known to callers through the receiver.
        if (onSelf && ctx.fn.className !== null) return { taints: [newTaint(`field:${expr.field}`, { role: 'source', line: expr.line, text: `this.${expr.field}` }, null)], type: null };
        if (expr.field === 'length' && (object.elements !== undefined || hasConstant(object))) return object.elements ? constant(object.elements.length) : CLEAN;
        return { taints: object.taints, type: null };
      }
      case 'index': {
        if (ctx.vettedAccess) {
          const vetted = state.get(`${VETTED_ACCESS}${renderExpr(expr)}`);
          if (vetted !== undefined) return vetted;
        }
        const object = this.expr(expr.object, state, ctx);
        const index = this.expr(expr.index, state, ctx);
        // A key of a source root no write touched (`$_GET['cat']` after `$_GET['page']` was vetted) enters here, at this read.
        if (expr.object.kind === 'name' && this.sourceRoots.has(expr.object.name) && hasConstant(index) && object.slots?.has(slotKey(index.constant)) !== true && object.taints.some((t) => t.sourceRow !== null && t.cleared.size === 0)) {
          const fresh = this.fieldSource(expr.object, ctx.fn);
          if (fresh !== null) return { taints: fresh.taints.map((t) => ({ ...t, steps: [{ role: 'source', line: expr.line, text: renderExpr(expr) }] })), type: null };
        }
        return this.readSlot(object, index);
      }
      case 'call':
        return this.call(expr, state, ctx);
      case 'binary': {
        const left = this.expr(expr.left, state, ctx);
        // Short-circuit: a constant left side decides whether the right side runs at all.
        if ((expr.operator === '&&' || expr.operator === 'and') && hasConstant(left) && !truthy(left.constant)) return left;
        if ((expr.operator === '||' || expr.operator === 'or') && hasConstant(left) && truthy(left.constant)) return left;
        if (expr.operator === '??' && hasConstant(left) && left.constant !== null) return left;
        const right = this.expr(expr.right, state, ctx);
        return this.binaryValue(expr.operator, left, right);
      }
      case 'unary': {
        const operand = this.expr(expr.operand, state, ctx);
        if (expr.operator === '!' || expr.operator === 'not') return hasConstant(operand) ? constant(!truthy(operand.constant)) : CLEAN;
        if (expr.operator === '-' || expr.operator === '+' || expr.operator === '~') return hasConstant(operand) && typeof operand.constant === 'number' ? constant(expr.operator === '-' ? -operand.constant : operand.constant) : CLEAN;
        return mix([operand]);
      }
      case 'conditional': {
        const condition = this.expr(expr.condition, state, ctx);
        if (hasConstant(condition)) return this.expr(truthy(condition.constant) ? expr.then : expr.otherwise, state, ctx);
        const thenValue = this.expr(expr.then, this.refine(expr.condition, this.fork(state, ctx), true, ctx), ctx);
        const elseValue = this.expr(expr.otherwise, this.refine(expr.condition, this.fork(state, ctx), false, ctx), ctx);
        return join(thenValue, elseValue);
      }
      case 'template': {
        const parts = expr.parts.map((p) => this.expr(p, state, ctx));
        const tag = expr.tag ? this.expr(expr.tag, state, ctx) : null;
        if (tag === null && parts.every(hasConstant)) return foldedFrom(parts.map((p) => String(p.constant)).join(''), parts);
        return tag === null ? concatenation(parts) : mix(parts, 'String');
      }
      case 'collection': {
        const elements: Value[] = [];
        let spread = false;
        for (const e of expr.elements) {
          const value = this.expr(e.value, state, ctx);
          if (e.spread) {
            if (value.elements) elements.push(...value.elements);
            else {
              spread = true;
              elements.push(mix([value]));
            }
          } else elements.push(value);
        }
        const slots = new Map<string, Value>();
        const loose: Value[] = [];
        // Every key is known while each entry has a constant key or spreads a map whose keys are all known.
        let exact = true;
        for (const entry of expr.entries) {
          const value = this.expr(entry.value, state, ctx);
          const key = entry.key === null ? null : this.expr(entry.key, state, ctx);
          if (key !== null && hasConstant(key)) slots.set(slotKey(key.constant), value);
          else if (key === null && value.slots) {
            for (const [k, v] of value.slots) slots.set(k, v);
            if (!value.exact) exact = false;
          } else {
            loose.push(value);
            exact = false;
          }
        }
        const base = mix(loose, null);
        if (expr.shape === 'map') return exact ? { ...base, slots, exact } : { ...base, slots };
        return spread ? { ...mix(elements), type: null } : { ...base, elements };
      }
      case 'function':
        this.capture(expr.qualifiedName, state, ctx);
        return CLEAN;
      case 'cast': {
        const value = this.expr(expr.value, state, ctx);
        const type = simpleType(expr.type) ?? '';
        if (NUMERIC_TYPES.test(type)) return hasConstant(value) ? value : { taints: predictableOnly([value]), type };
        return { ...value, type: type || value.type };
      }
      case 'assignment': {
        const value = expr.operator === '=' || expr.operator === ':=' ? this.expr(expr.value, state, ctx) : this.compound(expr.target, expr.operator, expr.value, state, ctx);
        this.assign(expr.target, value, state, ctx);
        return value;
      }
      case 'unknown':
        return mix(expr.children.map((c) => this.expr(c, state, ctx)));
    }
  }

  private nameValue(expr: Extract<FlowExpr, { kind: 'name' }>, state: State, ctx: FunctionContext): Value {
    const known = state.get(expr.name === ctx.selfName ? 'this' : expr.name);
    if (known !== undefined) return known;
    const fromSource = this.fieldSource(expr, ctx.fn);
    if (fromSource !== null) return fromSource;
    const flowClass = ctx.flowClass;
    if (flowClass !== null) {
      const declared = flowClass.fields.find((f) => f.name === expr.name);
      if (declared !== undefined) {
        if (!declared.isStatic) {
          const self = state.get('this');
          const slot = self?.slots?.get(expr.name);
          if (slot !== undefined) return slot;
        }
        return this.staticField(simpleClassName(flowClass.name), expr.name, ctx);
      }
    }
    const named = this.rows.constants.get(expr.name);
    if (named !== undefined) return constant(named);
    const outer = this.capturedValue(ctx.fn, expr.name);
    if (outer !== null) return outer;
    const defined = this.definedConstants().get(expr.name);
    if (defined !== undefined) return constant(defined);
    // Top-level code reads its own names from the state; one bound nowhere in the file comes from elsewhere there too.
    if (ctx.fn.qualifiedName !== '<module>') {
      // A top-level name can be rewritten elsewhere (by another function, through `window.name`) and an
      // import is another file's: neither is provably this function's own data, whatever it folds to.
      const unseen = newTaint(UNSEEN, { role: 'source', line: expr.line, text: expr.name }, null);
      const known2 = this.moduleConstants(ctx).get(expr.name);
      if (known2 !== undefined) return { ...known2, taints: [...known2.taints, unseen] };
      if (this.moduleAssigned().has(expr.name) || expr.name in this.file.imports) return { taints: [unseen], type: null };
    }
    return this.isFreeName(expr.name) ? { taints: [newTaint(`free:${expr.name}`, { role: 'source', line: expr.line, text: expr.name }, null)], type: null } : CLEAN;
  }

  /** For each lambda or nested function, the state of the function it is written in where it was made. */
  private readonly captured = new Map<string, State>();

  private capture(qualifiedName: string, state: State, ctx: FunctionContext): void {
    const before = this.captured.get(qualifiedName);
    this.spendOnJoin([before ?? null, state], ctx);
    this.captured.set(qualifiedName, before === undefined ? new Map(state) : (joinStates([before, state]) ?? new Map(state)));
  }

  /**
   * A name a callback reads from the function around it (`function (err, data) { res.render('tag', {tag}) }`):
   * what that function held there, when it is a constant or outside data. Stand-ins for the outer
   * function's own parameters are not the callback's, so they are left to the usual reading.
   */
  private capturedValue(fn: FlowFunction, name: string): Value | null {
    let at: FlowFunction | undefined = fn;
    for (let depth = 0; at?.enclosingFunction != null && depth < 8; depth++) {
      const value = this.captured.get(at.qualifiedName)?.get(name);
      if (value !== undefined) {
        const concrete = mapTaints(value, (t) => (SYMBOLIC.test(t.label) ? null : t));
        return allTaints(concrete).length > 0 || hasConstant(concrete) ? concrete : null;
      }
      const enclosing: string = at.enclosingFunction;
      at = this.file.functions.find((f) => f.qualifiedName === enclosing);
    }
    return null;
  }

  private boundAtTop: Set<string> | null = null;

  /**
   * A name bound nowhere in this file (not a local, parameter, field, import, class, function or
   * top-level name): a global set elsewhere. Capitalised names are taken for classes and constants.
   */
  private isFreeName(name: string): boolean {
    if (!/^[a-z_$][\w$]*$/.test(name) || name === 'this' || name === 'self' || name === 'super' || name === '$this') return false;
    if (this.boundAtTop === null) {
      const bound = new Set<string>([...Object.keys(this.file.imports), ...this.functionsByName.keys(), ...this.classesBySimpleName.keys()]);
      const module = this.file.functions.find((f) => f.qualifiedName === '<module>');
      const collect = (stmts: readonly FlowStmt[]): void => {
        for (const stmt of stmts) {
          if (stmt.kind === 'assign') for (const t of stmt.targets) if (t.kind === 'name') bound.add(t.name);
          if (stmt.kind === 'declare') bound.add(stmt.name);
          if (stmt.kind === 'if') {
            collect(stmt.then);
            collect(stmt.otherwise);
          }
          if (stmt.kind === 'try') collect(stmt.body);
        }
      };
      collect(module?.body ?? []);
      this.boundAtTop = bound;
    }
    return !this.boundAtTop.has(name);
  }

  private moduleValues: Map<string, Value> | null = null;
  private assignedAtTop: Set<string> | null = null;

  /** Names the file's top-level code assigns. */
  private moduleAssigned(): ReadonlySet<string> {
    if (this.assignedAtTop !== null) return this.assignedAtTop;
    const out = new Set<string>();
    const module = this.file.functions.find((f) => f.qualifiedName === '<module>');
    for (const stmt of module?.body ?? []) if (stmt.kind === 'assign') for (const t of stmt.targets) if (t.kind === 'name') out.add(t.name);
    this.assignedAtTop = out;
    return out;
  }

  /** Names the file's top-level code binds to constants (`DEBUG = False`), for the functions that read them. */
  private moduleConstants(ctx: FunctionContext | null = null): ReadonlyMap<string, Value> {
    if (this.moduleValues !== null) return this.moduleValues;
    // Filled as it goes, so a later top-level value can read an earlier one.
    const out = new Map<string, Value>();
    this.moduleValues = out;
    const module = this.file.functions.find((f) => f.qualifiedName === '<module>');
    if (module === undefined) return out;
    const assigned = new Map<string, number>();
    const count = (stmts: readonly FlowStmt[]) => {
      for (const stmt of stmts) if (stmt.kind === 'assign') for (const t of stmt.targets) if (t.kind === 'name') assigned.set(t.name, (assigned.get(t.name) ?? 0) + 1);
    };
    count(module.body);
    for (const stmt of module.body) {
      if (stmt.kind !== 'assign' || stmt.targets.length !== 1) continue;
      const target = stmt.targets[0];
      if (target?.kind !== 'name' || assigned.get(target.name) !== 1) continue;
      if (stmt.value.kind === 'literal') out.set(target.name, constant(stmt.value.value));
      else if (stmt.value.kind === 'unary' && stmt.value.operand.kind === 'literal' && typeof stmt.value.operand.value === 'number' && stmt.value.operator === '-') out.set(target.name, constant(-stmt.value.operand.value));
      else if (ctx !== null && MODULE_VALUE_KINDS.has(stmt.value.kind)) {
        // An options object or a folded setting written once at the top (`const cookieOptions = {...}`).
        const value = this.expr(stmt.value, new Map(), ctx);
        if (allTaints(value).length === 0 && (hasConstant(value) || value.slots !== undefined)) out.set(target.name, value);
      }
    }
    return out;
  }

  private readonly writtenFields = new Map<string, ReadonlySet<string>>();

  /** The fields of `this` that some method of the class assigns (`this.x = ...`, `$this->x = ...`, `self.x += 1`). */
  private fieldsWrittenByMethods(flowClass: FlowClass): ReadonlySet<string> {
    const known = this.writtenFields.get(flowClass.name);
    if (known !== undefined) return known;
    const out = new Set<string>();
    const onSelf = (target: unknown): void => {
      const t = target as { kind?: unknown; object?: { kind?: unknown; name?: unknown }; field?: unknown };
      if (t.kind === 'field' && t.object?.kind === 'name' && typeof t.object.name === 'string' && SELF_NAMES.has(t.object.name) && typeof t.field === 'string') out.add(t.field);
    };
    const stack: unknown[] = this.file.functions.filter((fn) => fn.className === flowClass.name).map((fn) => fn.body);
    while (stack.length > 0) {
      const node = stack.pop();
      if (node === null || typeof node !== 'object') continue;
      const item = node as { kind?: unknown; targets?: unknown; target?: unknown };
      if (item.kind === 'assign' && Array.isArray(item.targets)) item.targets.forEach(onSelf);
      if (item.kind === 'assignment') onSelf(item.target);
      stack.push(...(Object.values(node) as unknown[]));
    }
    this.writtenFields.set(flowClass.name, out);
    return out;
  }

  private definedValues: ReadonlyMap<string, FlowLiteral> | null = null;

  /**
   * PHP's `define('NAME', literal)` in the file's top-level code, once per name: a named constant like
   * `const NAME = literal;` (it cannot be redefined, so every function reads that value).
   */
  private definedConstants(): ReadonlyMap<string, FlowLiteral> {
    if (this.definedValues !== null) return this.definedValues;
    const out = new Map<string, FlowLiteral>();
    this.definedValues = out;
    const module = this.file.functions.find((f) => f.qualifiedName === '<module>');
    if (this.file.language !== 'php' || module === undefined) return out;
    const seen = new Map<string, number>();
    for (const stmt of module.body) {
      if (stmt.kind !== 'expr' || stmt.expr.kind !== 'call' || this.nameKey(stmt.expr.callee) !== 'define' || stmt.expr.receiver !== null) continue;
      const [name, value] = stmt.expr.arguments.map((a) => a.value);
      if (name?.kind !== 'literal' || typeof name.value !== 'string') continue;
      seen.set(name.value, (seen.get(name.value) ?? 0) + 1);
      if (value?.kind === 'literal') out.set(name.value, value.value);
    }
    for (const [name, times] of seen) if (times > 1) out.delete(name);
    return out;
  }

  /** A class field read by name: its initialiser's constant when it has one, else nothing known. */
  private staticField(className: string, fieldName: string, ctx: FunctionContext): Value {
    const flowClass = this.classNamed(className);
    const declared = flowClass?.fields.find((f) => f.name === fieldName);
    if (declared === undefined || declared.init === null) return CLEAN;
    if (declared.init.kind === 'literal') return constant(declared.init.value);
    if (declared.init.kind === 'binary' || declared.init.kind === 'template') {
      const value = this.expr(declared.init, new Map(), ctx);
      return hasConstant(value) ? value : CLEAN;
    }
    return CLEAN;
  }

  /** Reading a source access path (`request.args`, `$_GET`), or below one. */
  private fieldSource(expr: FlowExpr, fn: FlowFunction): Value | null {
    const path: string[] = [];
    let at: FlowExpr = expr;
    while (at.kind === 'field') {
      path.unshift(at.field);
      at = at.object;
    }
    if (at.kind !== 'name') return null;
    path.unshift(at.name);
    for (const row of this.rows.sources) {
      if (row.match.kind !== 'field') continue;
      const fixed = row.match.fixedRoute;
      // `request.path` in a view whose every route is a literal rule is that rule: the app's own text.
      if (fixed !== null) {
        const routes = fn.decorators.filter((d) => fixed.route.test(d));
        if (routes.length > 0 && routes.every((d) => fixed.literal.test(d))) continue;
      }
      for (const source of row.match.paths) {
        if (source.length <= path.length && source.every((segment, i) => path[i] === segment)) {
          const read: Value = { taints: [newTaint(row.label, { role: 'source', line: expr.line, text: path.join('.') }, row.id)], type: null };
          return row.mark ? markWith(read, row.mark) : read;
        }
      }
    }
    return null;
  }

  private readSlot(object: Value, index: Value): Value {
    if (hasConstant(index)) {
      const key = index.constant;
      if (object.type === PROPERTIES_TYPE && typeof key === 'string' && object.slots?.has(key) !== true) {
        const found = this.options.property?.(key) ?? null;
        return found === null ? CLEAN : constant(found);
      }
      if (typeof key === 'number' && object.elements) return object.elements[key] ?? CLEAN;
      const slot = object.slots?.get(slotKey(key));
      if (slot !== undefined) return slot;
      if (hasConstant(object) && typeof object.constant === 'string' && typeof key === 'number') return constant(object.constant[key] ?? null);
      if (object.slots !== undefined && object.elements === undefined) return { taints: object.taints, type: null };
    }
    return { ...mix([object]), type: null };
  }

  private binaryValue(operator: string, left: Value, right: Value): Value {
    if (hasConstant(left) && hasConstant(right)) {
      const folded = foldBinary(operator, left.constant, right.constant);
      if (folded !== undefined) return foldedFrom(folded, [left, right]);
    }
    if (operator === '+' || operator === '.') {
      const built = concatenation([left, right]);
      return { ...built, type: left.type === 'String' || right.type === 'String' ? 'String' : null };
    }
    // `"/x/%s" % v`: the format's text before its first conversion is the start of the result.
    if (operator === '%' && hasConstant(left) && typeof left.constant === 'string') {
      const start = left.constant.slice(0, Math.max(0, left.constant.indexOf('%')));
      return mix([left, FIXES_AUTHORITY.test(start) ? clearFor(right, DECIDED_BY_PREFIX) : right], 'String');
    }
    // `||`/`or` in Python and JS, and `??`, yield one of their operands, slots and settings included.
    if (operator === '||' || operator === 'or' || operator === '??') return join(left, right);
    if (CLEAN_OPERATORS.has(operator)) {
      if (operator === '&&' || operator === 'and') return right;
      // A comparison or arithmetic result carries no text, but a number computed from a predictable
      // random value (`Math.floor(Math.random() * 1e6)`) is as predictable as it was.
      if (ARITHMETIC.has(operator)) return { taints: predictableOnly([left, right]), type: null };
      return CLEAN;
    }
    return mix([left, right], left.type === 'String' || right.type === 'String' ? 'String' : null);
  }

  // ------------------------------------------------------------------ calls

  private slotExpr(call: CallExpr, slot: CallSlot): FlowExpr | null {
    switch (slot.kind) {
      case 'receiver':
        return call.receiver;
      case 'argument':
        return call.arguments[slot.index]?.value ?? null;
      case 'named':
        return call.named.find((n) => n.name === slot.name)?.value ?? null;
      default:
        return null;
    }
  }

  /**
   * A sink slot that reads into what it is given (`arg0.0`: the first element of a tuple, the body of
   * Flask's `(body, headers)`); a value without such a position is read whole.
   */
  private readPath(value: Value, path: readonly string[] | undefined): Value {
    let at = value;
    for (const key of path ?? []) at = this.readSlot(at, constant(/^\d+$/.test(key) ? Number(key) : key));
    return at;
  }

  private slotValues(slot: CallSlot, receiver: Value, args: readonly Value[], named: ReadonlyMap<string, Value>): Value[] {
    switch (slot.kind) {
      case 'receiver':
        return [receiver];
      case 'argument': {
        const value = args[slot.index];
        return value ? [this.readPath(value, slot.path)] : [];
      }
      case 'arguments':
        return [...args, ...named.values()];
      case 'named': {
        const value = named.get(slot.name);
        return value ? [this.readPath(value, slot.path)] : [];
      }
      case 'return':
      case 'callee':
        return [];
    }
  }

  private call(call: CallExpr, state: State, ctx: FunctionContext): Value {
    const receiverType = call.receiver ? this.typeOf(call.receiver, state, ctx) : null;
    // `new File(x).getName()`: the object made only to be sanitised is not itself a use of x.
    const sanitisesReceiver = call.receiver?.kind === 'call' && this.byName.sanitisers.for(call).some((row) => row.clears.size > 0 && row.strip === null && callMatches(row.call, call, receiverType, this.file));
    if (sanitisesReceiver) ctx.sinksMuted++;
    let receiver: Value;
    try {
      receiver = call.receiver ? this.expr(call.receiver, state, ctx) : CLEAN;
    } finally {
      if (sanitisesReceiver) ctx.sinksMuted--;
    }
    const args = call.arguments.map((a) => this.expr(a.value, state, ctx));
    const named: ReadonlyMap<string, Value> = call.named.length === 0 ? NO_NAMED : new Map(call.named.map((n) => [n.name, this.expr(n.value, state, ctx)] as const));
    const constants = args.map((a) => a.constant);
    // A sink or a source may ask what the receiver carries (`parser.feed(x)` on a parser set to resolve entities).
    const receiverLabels = labelsOf(receiver);
    const matches = (m: Parameters<typeof callMatches>[0]) => callMatches(m, call, receiverType, this.file, constants, receiverLabels);

    if (ctx.sinksMuted === 0) this.checkSinks(call, receiver, args, named, receiverType, ctx, receiverLabels);
    // A setting call returns its object in a builder chain (`ResponseCookie.from(n, v).secure(true).build()`).
    receiver = this.checkValues(call, receiver, args, named, state, ctx, receiverType);

    // Conversions are folded only as static calls (`Integer.parseInt("5")`, `int("5")`): `r.toString(36)` on a value converts r, not 36.
    const staticCall = call.receiver === null || (call.receiver.kind === 'name' && !state.has(call.receiver.name) && allTaints(receiver).length === 0);
    if (args.length > 0 && args.every(hasConstant) && !hasConstant(receiver) && staticCall && this.resolve(call, receiverType, ctx) === null) {
      const folded = foldConversion(this.nameKey(call.callee), constants);
      if (folded !== undefined) return foldedFrom(folded, args);
    }
    for (const row of this.byName.sources.for(call)) {
      if (row.match.kind === 'call' && matches(row.match.call)) {
        // `Random g = SecureRandom.getInstance(...)`: the value held, not the declared type, says what runs.
        const excluded = row.match.call.notReceiverTypes;
        if (excluded !== null && excluded.has(simpleType(receiver.type) ?? '')) continue;
        // A source guessed from the receiver (a getter of an object built from the request) gives way
        // to the getter's own definition where the file or the repository has it (one that returns a constant).
        if (row.match.call.receiverLabel !== null) {
          const own = this.resolve(call, receiverType, ctx);
          const summary = own === null ? null : this.summaryOf(own);
          if (own !== null && summary !== null) return this.applySummary(call, own, summary, receiver, args, state, ctx, null, named);
          const external = this.options.external;
          if (own === null && external !== undefined) {
            const receiverClass = this.receiverClass(call, receiverType, state);
            const defined = this.externalCall(call, receiver, args, state, ctx, receiverClass);
            if (defined !== null) return defined;
            external.noteUnresolved(call, this.file, receiverClass);
          }
        }
        let read: Value = { taints: [newTaint(row.label, { role: 'source', line: call.line, text: renderExpr(call) }, row.id)], type: null };
        // On a parameter, which type the caller hands in is the caller's to say (see applySummary).
        const onParameter = excluded === null ? undefined : receiver.taints.find((t) => /^param:\d+$/.test(t.label));
        if (onParameter !== undefined) read = markWith(read, `${RECEIVER_MARK}${onParameter.label}`);
        let marked = row.mark ? markWith(read, row.mark) : read;
        // A source that validates what it reads (`filter_input(INPUT_GET, 'n', FILTER_VALIDATE_INT)`) gives it cleared.
        for (const sanitiser of this.byName.sanitisers.for(call)) if (sanitiser.strip === null && matches(sanitiser.call)) marked = clearFor(marked, sanitiser.clears);
        const filled = row.match.fills == null ? undefined : row.match.fills === 'receiver' ? (call.receiver ?? undefined) : call.arguments[row.match.fills]?.value;
        if (filled === undefined) return marked;
        // `random.nextBytes(buffer)`: the buffer holds the value from here on; the call returns nothing.
        this.mutate(filled, marked, state, ctx);
        return CLEAN;
      }
    }
    for (const row of this.byName.sanitisers.for(call)) {
      if (!matches(row.call)) continue;
      const kinds = row.strip === null ? row.clears : this.stripClears(row.strip, row.clears, receiver, args, named);
      // a strip that leaves harmful characters (or one pass of `replace('../', '')`) cleans nothing
      if (kinds.size === 0) continue;
      const cleared = clearFor(mix([receiver, ...args]), kinds);
      // `ois.setObjectInputFilter(filter)`: the object itself is clean for those kinds from here on.
      if (row.inPlace === true && call.receiver !== null) this.overwrite(call.receiver, clearFor(receiver, kinds), state, ctx);
      // An escaper the file defines itself is only as good as its body: not proof the value is safe.
      return this.resolve(call, receiverType, ctx) === null ? cleared : mix([cleared, { taints: [newTaint(UNSEEN, { role: 'source', line: call.line, text: renderExpr(call) }, null)], type: null }]);
    }
    const created = this.createdObjects(call, receiverType, constants);

    const callee = this.resolve(call, receiverType, ctx);
    if (callee !== null) {
      const summary = this.summaryOf(callee);
      if (summary !== null) return this.applySummary(call, callee, summary, receiver, args, state, ctx, null, named);
    }

    if (call.receiver !== null && hasConstant(receiver)) {
      const folded = foldMethod(call.callee, receiver.constant, args.map((a) => a.constant));
      if (folded !== undefined) return foldedFrom(folded, [receiver, ...args]);
    }

    for (const row of this.byName.propagators.for(call)) {
      if (!matches(row.call)) continue;
      if (row.builtin !== null) return this.builtin(row.builtin, call, receiver, args.map((a) => mapTaints(a, (t) => ({ ...t, via: [...t.via, row.id] }))), named, state, ctx);
      const flowing = row.from.flatMap((slot) => this.slotValues(slot, receiver, args, named));
      let moved = mix(flowing);
      if (row.mark !== null) moved = markWith(moved, row.mark);
      moved = mapTaints(moved, (t) => ({ ...t, via: [...t.via, row.id] }));
      for (const slot of row.to) {
        if (slot.kind === 'receiver' && call.receiver) this.mutate(call.receiver, moved, state, ctx);
        if (slot.kind === 'argument') {
          const target = call.arguments[slot.index]?.value;
          if (target) this.mutate(target, moved, state, ctx);
        }
      }
      const result = row.to.some((s) => s.kind === 'return') ? moved : CLEAN;
      return created.length > 0 ? { ...result, objects: created } : result;
    }

    if (callee === null && this.options.external !== undefined) {
      const receiverClass = this.receiverClass(call, receiverType, state);
      const outside = this.externalCall(call, receiver, args, state, ctx, receiverClass);
      if (outside !== null) return created.length > 0 ? { ...outside, objects: created } : outside;
      // Only a call handed outside data (or, in a helper, the helper's parameter) is worth a search.
      const worth = (t: Taint): boolean => !SYMBOLIC.test(t.label) || (this.options.lookUpParameters === true && t.label.startsWith('param:'));
      if ([...args, ...named.values()].some((a) => allTaints(a).some(worth)) || allTaints(receiver).some((t) => t.label === REQUEST_OBJECT)) this.options.external.noteUnresolved(call, this.file, receiverClass);
      // A method of a class of the repository on an object built from outside data (`form.getField("q")`).
      else if (receiverClass !== null && allTaints(receiver).some(worth)) this.options.external.noteUnresolved(call, this.file, receiverClass, true);
    }

    // `SecureRandom.getInstance("SHA1PRNG")`, `Cipher.getInstance(...)`: a static factory makes its own class.
    const type = call.isNew ? simpleType(call.constructed ?? call.callee) : /^getInstance(Strong)?$/.test(call.callee) ? this.receiverClass(call, receiverType, state) : null;
    // A call flow knows nothing of answers with data it cannot see, unless it is a method of a value
    // the code wrote itself (`"a,b".split(",")`, `[a, b].join(" ")`); what it was handed comes back marked.
    const ownData = call.receiver !== null && (hasConstant(receiver) || receiver.elements !== undefined || receiver.slots !== undefined);
    const unseen: Value = { taints: ownData ? [] : [newTaint(UNSEEN, { role: 'source', line: call.line, text: renderExpr(call) }, null)], type: null };
    const handed = [...args, ...named.values()].map((a) => (a.taints.length > 0 || a.elements !== undefined || a.slots !== undefined ? markWith(a, THROUGH_CALL_MARK) : a));
    const result = mix([receiver, ...handed, unseen], type);
    // A builder made by a tracked factory keeps the factory's settings (`factory.newDocumentBuilder()`).
    const carried = [...created, ...(call.receiver !== null ? (receiver.objects ?? []) : [])];
    const withObjects: Value = carried.length > 0 ? { ...result, objects: carried } : result;
    if (call.isNew && (type === 'ArrayList' || type === 'LinkedList' || type === 'Vector' || type === 'HashMap' || type === 'LinkedHashMap' || type === 'TreeMap' || type === 'HashSet' || type === 'Properties') && args.length === 0) {
      return type.endsWith('Map') || type === 'Properties' ? { ...withObjects, slots: new Map() } : { ...withObjects, elements: [] };
    }
    if (call.isNew && (type === 'StringBuilder' || type === 'StringBuffer')) return { ...withObjects, type };
    return withObjects;
  }

  /**
   * What a callback returns to the method that calls it back: the outside data it reads itself, and the
   * receiver's taint when what it returns comes from what it was handed (an element, the accumulator).
   * A callback that is not a function of this file may return anything of the receiver.
   */
  private callbackResult(callback: FlowExpr | null, receiver: Value): Value {
    const fn = callback?.kind === 'function' ? this.file.functions.find((f) => f.qualifiedName === callback.qualifiedName) : undefined;
    const summary = fn === undefined ? null : this.summaryOf(fn);
    if (summary === null) return mix([receiver]);
    const returned = allTaints(summary.returns);
    const concrete = returned.filter((t) => !SYMBOLIC.test(t.label));
    // what it was handed comes back as cleared as the callback left it (`item => escape(item)`)
    const handedBack = returned.filter((t) => t.label.startsWith('param:')).map((t) => clearFor(mix([receiver]), t.cleared));
    return mix([{ taints: concrete, type: null }, ...handedBack]);
  }

  /** The kinds a character-class strip row clears at this call: none unless pattern and replacement are constant. */
  private stripClears(strip: NonNullable<SanitiserRow['strip']>, candidates: ReadonlySet<string>, receiver: Value, args: readonly Value[], named: ReadonlyMap<string, Value>): Set<string> {
    const [pattern] = this.slotValues(strip.pattern, receiver, args, named);
    const [replacement] = this.slotValues(strip.replacement, receiver, args, named);
    if (typeof pattern?.constant !== 'string' || typeof replacement?.constant !== 'string') return new Set();
    return kindsClearedByStrip({ pattern: pattern.constant, replacement: replacement.constant, syntax: strip.syntax, everyMatch: strip.everyMatch }, candidates);
  }

  /**
   * A call of a function another file defines: each definition it may run is summarised in its own
   * file and applied here, the results joined (a sink in any of them is a sink of the call).
   */
  private externalCall(call: CallExpr, receiver: Value, args: readonly Value[], state: State, ctx: FunctionContext, receiverClass: string | null): Value | null {
    const external = this.options.external;
    if (external === undefined) return null;
    let out: Value | null = null;
    for (const definition of external.definitionsFor(call, this.file, receiverClass)) {
      const summary = this.helperSummary(external, definition);
      if (summary === undefined) break;
      if (summary === null) continue;
      const value = this.applySummary(call, definition.fn, summary, receiver, args, state, ctx, definition.path);
      out = out === null ? value : join(out, value);
    }
    return out;
  }

  /** A check function of another file used as a condition: only when the call can run just one definition. */
  private externalVets(call: CallExpr, receiverClass: string | null): Summary['vets'] {
    const external = this.options.external;
    const definitions = external?.definitionsFor(call, this.file, receiverClass) ?? [];
    const only = definitions.length === 1 ? definitions[0] : undefined;
    if (external === undefined || only === undefined) return new Map();
    return this.helperSummary(external, only)?.vets ?? new Map();
  }

  /**
   * A source the helper read on its parameter (`generator.nextDouble()`), which this call hands a value
   * of a type the source row excludes (a `SecureRandom` passed as `Random`): not a source here.
   */
  private receiverExcludes(t: Taint, actual: (symbolic: Taint) => Value | null): boolean {
    const mark = [...t.marks].find((m) => m.startsWith(RECEIVER_MARK));
    const row = mark === undefined ? undefined : this.rows.sources.find((r) => r.id === t.sourceRow);
    const excluded = row?.match.kind === 'call' ? row.match.call.notReceiverTypes : null;
    if (mark === undefined || excluded === null) return false;
    const handed = actual({ ...t, label: mark.slice(RECEIVER_MARK.length) });
    return handed !== null && excluded.has(simpleType(handed.type) ?? '');
  }

  /**
   * The simple name of the class whose method a call runs, where the code says it: the receiver's
   * declared type, or a class named as the receiver (`Utils.clean(x)`, `org.example.Utils.clean(x)`,
   * not a variable).
   */
  private receiverClass(call: CallExpr, receiverType: string | null, state: State): string | null {
    const declared = simpleType(receiverType);
    if (declared !== null) return declared;
    const receiver = call.receiver;
    if (receiver === null || (receiver.kind === 'name' && state.has(receiver.name))) return null;
    return /^(?:[a-z_][\w]*\.)*([A-Z]\w*)$/.exec(renderExpr(receiver))?.[1] ?? null;
  }

  /** The summary of a helper of another file; undefined when too many are under way to start one more. */
  private helperSummary(external: ExternalFunctions, definition: ExternalDefinition): Summary | null | undefined {
    if (!external.enter()) return undefined;
    // The helper runs on its own budget, in its own file: its work is not this function's.
    try {
      return definition.analyser.summaryFor(definition.fn);
    } finally {
      external.leave();
    }
  }

  /** Add what `value` carries to the variable or access path `target` reads (an append to a builder). */
  private mutate(target: FlowExpr, value: Value, state: State, ctx: FunctionContext): void {
    let at = target;
    // `sb.append(a).append(b)`: the chain's builder is the innermost receiver.
    while (at.kind === 'call' && at.receiver !== null && /^(append|insert|concat|add|put)$/.test(at.callee)) at = at.receiver;
    const base = this.lvalueOf(at, ctx);
    if (base === null) return;
    const current = this.expr(at, state, ctx);
    const merged: Value = addTaints(current, allTaints(value));
    delete (merged as { constant?: FlowLiteral }).constant;
    this.overwrite(at, merged, state, ctx);
  }

  private builtin(op: NonNullable<FlowRows['propagators'][number]['builtin']>, call: CallExpr, receiver: Value, args: readonly Value[], named: ReadonlyMap<string, Value>, state: State, ctx: FunctionContext): Value {
    const target = call.receiver;
    const write = (value: Value) => {
      if (target) this.overwrite(target, value, state, ctx);
    };
    const [first, second] = args;
    switch (op) {
      case 'list-add': {
        const added = args[args.length - 1] ?? CLEAN;
        if (receiver.elements) {
          const elements = [...receiver.elements];
          if (args.length === 2 && first && hasConstant(first) && typeof first.constant === 'number') elements.splice(first.constant, 0, added);
          else if (args.length === 1) elements.push(added);
          else {
            // An insert at an unknown position: the positions are no longer known, only what they hold.
            write({ taints: [...receiver.taints, ...elements.flatMap(allTaints), ...allTaints(added)], type: receiver.type });
            return constant(true);
          }
          write({ ...receiver, elements });
        } else write(addTaints(receiver, allTaints(added)));
        return constant(true);
      }
      case 'get': {
        if (first === undefined) return mix([receiver]);
        // `config.get(section, option)` reads what `config.set(section, option, v)` wrote (below); a
        // dict's `get(key, default)` only when its value is itself a map holding the default as a key.
        const section = hasConstant(first) ? receiver.slots?.get(slotKey(first.constant)) : undefined;
        if (args.length === 2 && section?.slots !== undefined && second !== undefined && hasConstant(second) && section.slots.has(slotKey(second.constant))) return this.readSlot(section, second);
        if (second !== undefined && receiver.slots && hasConstant(first) && !receiver.slots.has(slotKey(first.constant))) return join(second, { taints: receiver.taints, type: null });
        return this.readSlot(receiver, first);
      }
      case 'put':
      case 'set': {
        if (first === undefined || second === undefined) return CLEAN;
        const stored = args[2];
        if (args.length === 3 && stored !== undefined) {
          // a two-level store: `config.set(section, option, value)`
          if (hasConstant(first) && hasConstant(second)) write(this.updateSlot(receiver, [slotKey(first.constant), slotKey(second.constant)], stored, ctx));
          else write(addTaints(receiver, allTaints(stored)));
          return CLEAN;
        }
        const previous = this.readSlot(receiver, first);
        if (hasConstant(first)) write(this.updateSlot(receiver, [slotKey(first.constant)], second, ctx));
        else write(addTaints(receiver, allTaints(second)));
        return previous;
      }
      case 'remove': {
        if (first === undefined) return mix([receiver]);
        const previous = this.readSlot(receiver, first);
        if (hasConstant(first)) {
          if (receiver.elements && typeof first.constant === 'number') {
            const elements = [...receiver.elements];
            elements.splice(first.constant, 1);
            write({ ...receiver, elements });
          } else if (receiver.elements && typeof first.constant === 'string') {
            const index = receiver.elements.findIndex((e) => e.constant === first.constant);
            if (index >= 0) {
              const elements = [...receiver.elements];
              elements.splice(index, 1);
              write({ ...receiver, elements });
            }
          } else if (receiver.slots) {
            const slots = new Map(receiver.slots);
            slots.delete(slotKey(first.constant));
            write({ ...receiver, slots });
          }
        }
        return previous;
      }
      case 'clear':
        write({ taints: [], type: receiver.type, ...(receiver.elements ? { elements: [] } : {}), ...(receiver.slots ? { slots: new Map() } : {}) });
        return CLEAN;
      case 'callback-return':
        return mix([this.callbackResult(call.arguments[0]?.value ?? null, receiver), ...args.slice(1)]);
      case 'properties-file':
        return { taints: [], type: PROPERTIES_TYPE };
      case 'options':
        // A spread (`**settings`) may set any keyword, so the keywords seen are not all there are.
        return { ...mix([receiver, ...args, ...named.values()]), slots: new Map(named), ...(call.arguments.some((a) => a.spread) ? {} : { exact: true as const }) };
      case 'property': {
        if (first !== undefined && hasConstant(first) && typeof first.constant === 'string') {
          const found = this.options.property?.(first.constant) ?? null;
          if (found !== null) return constant(found);
          const slot = receiver.slots?.get(first.constant);
          if (slot !== undefined) return slot;
        }
        return second ?? mix([receiver]);
      }
    }
  }

  /** The class `call` makes: `new X(...)`, or a call of a class of this file by name (`Lookup(v)` in Python; in PHP `user()` is a function, never `new User`). */
  private constructedClass(call: CallExpr): string | null {
    if (call.isNew) return simpleType(call.constructed ?? call.callee);
    return call.receiver === null && this.file.language !== 'php' && this.classNamed(call.callee) !== undefined ? call.callee : null;
  }

  private resolve(call: CallExpr, receiverType: string | null, ctx: FunctionContext): FlowFunction | null {
    const constructed = this.constructedClass(call);
    if (constructed === null && this.functionsNamed(call.callee) === undefined) return null;
    const names = constructed !== null ? [...CONSTRUCTOR_NAMES] : [call.callee];
    const candidates = names.flatMap((name) => this.functionsNamed(name) ?? []).filter((f) => {
      const own = f.parameters.slice(selfOffset(f));
      if (f.parameters.some((p) => p.type?.endsWith('...') ?? false)) return call.arguments.length >= own.length - 1;
      // Parameters with defaults may be left out, and given by keyword (`fingerprint(blob, algorithm="sha256")`).
      if (!call.named.every((n) => own.some((p) => p.name === n.name))) return false;
      const given = call.arguments.length + call.named.length;
      const required = own.filter((p) => p.defaultValue === null).length;
      return given <= own.length && given >= required && call.arguments.length <= own.length;
    });
    if (candidates.length === 0) return null;
    const inClass = (className: string) => candidates.find((f) => f.className !== null && [f.className, simpleClassName(f.className)].some((name) => this.nameKey(name) === this.nameKey(className))) ?? null;
    if (constructed !== null) return inClass(constructed);
    const receiver = call.receiver;
    if (receiver === null || (receiver.kind === 'name' && (receiver.name === 'this' || receiver.name === 'self' || receiver.name === '$this'))) {
      return (ctx.fn.className !== null ? inClass(ctx.fn.className) : null) ?? candidates.find((f) => f.className === null) ?? (candidates.length === 1 ? (candidates[0] ?? null) : null);
    }
    if (receiver.kind === 'name' && this.classNamed(receiver.name) !== undefined) return inClass(receiver.name);
    const type = simpleType(receiverType);
    if (type !== null) return this.classNamed(type) !== undefined ? inClass(type) : null;
    return candidates.length === 1 && candidates[0]?.className !== null ? (candidates[0] ?? null) : null;
  }

  /** The callee's summary in terms of this call's arguments and receiver. */
  private applySummary(call: CallExpr, callee: FlowFunction, summary: Summary, receiver: Value, args: readonly Value[], state: State, ctx: FunctionContext, elsewhere: string | null = null, named: ReadonlyMap<string, Value> = NO_NAMED): Value {
    // Each of the callee's inner sinks and field writes is carried over to this call: a step each.
    this.spend(ctx, summary.innerSinks.length + summary.thisWrites.size);
    const callStep: PathStep = { role: 'step', line: call.line, text: `${renderExpr(call)}` };
    // Lines of another file's helper are not lines of this file: its steps are shown at the call, naming where they are.
    const localSteps = (steps: readonly PathStep[]): PathStep[] => (elsewhere === null ? [...steps] : steps.map((s) => ({ ...s, line: call.line, text: `${s.text} (${elsewhere}:${s.line})` })));
    const actual = (symbolic: Taint): Value | null => {
      const match = /^(param|field):(.*)$/.exec(symbolic.label);
      if (match === null) return null;
      if (match[1] === 'param') {
        const index = Number(match[2]) - selfOffset(callee);
        const p = callee.parameters[index + selfOffset(callee)];
        if (index < 0) return receiver;
        if (p?.type?.endsWith('...')) return mix(args.slice(index));
        const given = args[index] ?? (p === undefined ? undefined : named.get(p.name));
        if (given !== undefined) return given;
        // A parameter the call leaves out holds its default (`def digest(data, algorithm="md5")`).
        return p?.defaultValue?.kind === 'literal' ? constant(p.defaultValue.value) : CLEAN;
      }
      return receiver.slots?.get(match[2] ?? '') ?? (this.constructedClass(call) !== null ? CLEAN : { taints: receiver.taints, type: null });
    };
    const substitute = (value: Value): Value => {
      const expanded: Taint[] = [];
      for (const t of value.taints) {
        const replacement = actual(t);
        if (replacement === null && this.receiverExcludes(t, actual)) continue;
        if (replacement === null) {
          // Outside data the helper reads itself: where it was read is a line of the helper's file.
          expanded.push(elsewhere === null ? t : { ...t, steps: localSteps(t.steps) });
          continue;
        }
        for (const real of allTaints(replacement)) {
          expanded.push({
            ...real,
            cleared: new Set([...real.cleared, ...t.cleared]),
            marks: new Set([...real.marks, ...t.marks]),
            steps: [...real.steps, callStep, ...localSteps(t.steps.slice(1))].slice(-10),
            via: [...real.via, ...t.via],
          });
        }
      }
      const slots = value.slots ? new Map([...value.slots].map(([k, v]) => [k, substitute(v)])) : undefined;
      const elements = value.elements?.map(substitute);
      return { ...value, taints: expanded, ...(slots ? { slots } : {}), ...(elements ? { elements } : {}) };
    };

    for (const cwe of summary.sinkCwes) ctx.sinkCwes.add(cwe);
    for (const found of summary.innerSinks) {
      const inner: InnerSink = elsewhere === null ? found : { ...found, line: call.line, column: call.column, callSites: [], symbolic: { ...found.symbolic, steps: localSteps(found.symbolic.steps) } };
      const replacement = actual(inner.symbolic);
      if (replacement === null) continue;
      const callSites = [call.line, ...inner.callSites];
      if (inner.check !== null) {
        if (inner.check.kind === 'weak-value' && hasConstant(replacement) && replacement.constant !== null && inner.check.weak.test(String(replacement.constant))) {
          this.report({ kind: 'check', rowId: inner.check.id, cwe: inner.check.cwe, function: ctx.fn.qualifiedName, line: inner.line, column: inner.column, path: [{ role: 'source', line: call.line, text: `"${replacement.constant}"` }, callStep, { role: 'sink', line: inner.line, text: inner.symbolic.steps[inner.symbolic.steps.length - 1]?.text ?? '' }], callSites, sourceRow: null, via: [] });
        }
        // A parser without its safe settings, handed this call's data: outside data is reported, a caller's parameter passed up.
        if (inner.check.kind === 'missing-setting') {
          for (const real of allTaints(replacement)) {
            const combined: Taint = { ...real, cleared: new Set([...real.cleared, ...inner.symbolic.cleared]) };
            if (SYMBOLIC.test(real.label)) {
              if (real.label.startsWith('param:')) ctx.innerSinks.push({ ...inner, symbolic: { ...combined, steps: [...real.steps, callStep, ...inner.symbolic.steps.slice(1)] }, callSites });
              continue;
            }
            if (!taintCounts(combined, 'xxe', new Set(['input']))) continue;
            this.report({ kind: 'check', rowId: inner.check.id, cwe: inner.check.cwe, function: ctx.fn.qualifiedName, line: inner.line, column: inner.column, path: [...real.steps, callStep, ...inner.symbolic.steps.slice(1)], callSites, sourceRow: real.sourceRow, via: [...real.via, ...inner.symbolic.via] });
            break;
          }
        }
        continue;
      }
      const row = inner.row;
      if (row === null) continue;
      this.observe([replacement], row, inner.lines, ctx);
      for (const real of allTaints(replacement)) {
        const combined: Taint = { ...real, cleared: new Set([...real.cleared, ...inner.symbolic.cleared]), marks: new Set([...real.marks, ...inner.symbolic.marks]) };
        if (SYMBOLIC.test(real.label)) {
          ctx.innerSinks.push({ ...inner, symbolic: { ...combined, steps: [...real.steps, callStep, ...inner.symbolic.steps.slice(1)] }, callSites });
          continue;
        }
        // the same rule as a sink in this function: a mark the row declines, or a value a check vetted, does not count
        if (!taintCounts(combined, row.kind, row.accepts) || (row.ignoresMark !== null && combined.marks.has(row.ignoresMark)) || (row.vettedForAny && combined.marks.has(CHECKED_MARK))) continue;
        this.report({
          kind: 'taint',
          rowId: row.id,
          cwe: row.cwe,
          function: ctx.fn.qualifiedName,
          line: inner.line,
          column: inner.column,
          path: [...real.steps, callStep, ...inner.symbolic.steps.slice(1)],
          callSites,
          sourceRow: real.sourceRow,
          via: [...real.via, ...inner.symbolic.via],
        });
      }
    }

    // Fields the callee wrote land on the receiver (a setter), or make the new object (a constructor).
    if (summary.thisWrites.size > 0) {
      if (this.constructedClass(call) !== null) {
        const slots = new Map<string, Value>();
        const flowClass = this.classNamed(this.constructedClass(call) ?? '');
        for (const f of flowClass?.fields ?? []) if (!f.isStatic && f.init !== null && f.init.kind === 'literal') slots.set(f.name, constant(f.init.value));
        for (const [name, value] of summary.thisWrites) slots.set(name, substitute(value));
        return { taints: [], type: this.constructedClass(call), slots };
      }
      const target = call.receiver ?? { kind: 'name', name: 'this', line: call.line, column: call.column };
      const base = this.lvalueOf(target, ctx);
      if (base !== null) {
        let root = state.get(base.name) ?? CLEAN;
        for (const [name, value] of summary.thisWrites) root = this.updateSlot(root, [...base.keys, name], substitute(value), ctx);
        state.set(base.name, root);
        if (base.name === 'this') for (const name of summary.thisWrites.keys()) ctx.thisWritten.add(name);
      }
    }
    if (this.constructedClass(call) !== null) {
      const flowClass = this.classNamed(this.constructedClass(call) ?? '');
      const slots = new Map<string, Value>();
      for (const f of flowClass?.fields ?? []) if (!f.isStatic && f.init !== null && f.init.kind === 'literal') slots.set(f.name, constant(f.init.value));
      return { taints: [], type: this.constructedClass(call), slots };
    }
    return substitute(summary.returns);
  }

  private report(finding: FlowFinding): void {
    const key = `${finding.rowId}|${finding.line}|${finding.column}|${finding.path[0]?.line ?? 0}|${finding.function}`;
    if (!this.findings.has(key)) this.findings.set(key, { ...finding, path: finding.path.slice(-12) });
  }

  /** `receiverLabels`: what the receiver carries, where the caller has it already (see `labelsOf`). */
  private checkSinks(call: CallExpr, receiver: Value, args: readonly Value[], named: ReadonlyMap<string, Value>, receiverType: string | null, ctx: FunctionContext, receiverLabels: ReadonlySet<string> = labelsOf(receiver)): void {
    const constants = args.map((a) => a.constant);
    for (const row of this.byName.sinks.for(call)) {
      if (!callMatches(row.call, call, receiverType, this.file, constants, receiverLabels)) continue;
      if (row.when !== null && !this.whenHolds(row.when, call, receiver, args, named)) continue;
      if (row.requiresDependency !== null && ![...row.requiresDependency].some((d) => this.options.dependencies?.has(d) === true)) continue;
      if (row.requiresText !== null && !row.requiresText.some((t) => this.options.projectTexts?.has(t) === true)) continue;
      const unless = row.unless;
      if (unless !== null && unless.named.some((name) => { const v = named.get(name); return v !== undefined && hasConstant(v) && unless.matches.test(String(v.constant)); })) continue;
      ctx.sinkCwes.add(row.cwe);
      const sinkStep: PathStep = { role: 'sink', line: call.line, text: renderExpr(call) };
      const written = row.slots.flatMap((slot) => this.slotValues(slot, receiver, args, named).filter((v) => !this.isNotText(row, v, slot, call, ctx)));
      const values = row.collectionsAreJson ? written.filter((v) => !isBuiltCollection(v)) : written;
      const lines = [call.line, ...row.slots.flatMap((slot) => slotLines(call, slot))];
      const counted = row.argv ? this.commandParts(values) : values;
      this.observe(counted, row, lines, ctx);
      for (const value of counted) {
        for (const taint of allTaints(value)) {
          if (SYMBOLIC.test(taint.label)) {
            ctx.innerSinks.push({ row, check: null, symbolic: withStep(taint, sinkStep), line: call.line, column: call.column, callSites: [], lines });
            continue;
          }
          if (!taintCounts(taint, row.kind, row.accepts) || (row.ignoresMark !== null && taint.marks.has(row.ignoresMark)) || (row.vettedForAny && taint.marks.has(CHECKED_MARK))) continue;
          this.report({ kind: 'taint', rowId: row.id, cwe: row.cwe, function: ctx.fn.qualifiedName, line: call.line, column: call.column, path: [...taint.steps, sinkStep], callSites: [], sourceRow: taint.sourceRow, via: [...taint.via] });
        }
      }
    }
  }

  /** Whether a sink that takes text (`textTypes`) is handed something else: an object of a known class, or an array the code built. */
  private isNotText(row: SinkRow, value: Value, slot: CallSlot, call: CallExpr, ctx: FunctionContext): boolean {
    if (row.textTypes === null) return false;
    const expr = slot.kind === 'argument' && slot.path === undefined ? call.arguments[slot.index]?.value : undefined;
    // the declared type of a name wins: `XxlJobInfo info = mapper.load(id)` holds what the call returned
    const declared = expr?.kind === 'name' ? (ctx.types.get(expr.name) ?? null) : expr?.kind === 'call' ? this.constructedClass(expr) : null;
    const type = declared ?? value.type;
    if (type !== null) return !row.textTypes.has(type);
    return isBuiltCollection(value);
  }

  private whenHolds(when: NonNullable<SinkRow['when']>, call: CallExpr, receiver: Value, args: readonly Value[], named: ReadonlyMap<string, Value>): boolean {
    if (when.kind === 'named') return named.get(when.named)?.constant === when.equals;
    const setting = this.setting(when.slots, call, receiver, args, named);
    if (setting === 'absent') return when.absent;
    if (setting === 'unknown') return false;
    // A built string whose known start the condition names (`"redirect:" + target` for `^redirect:`).
    if (!hasConstant(setting)) return when.matches !== null && when.matches.source.startsWith('^') && !when.matches.source.endsWith('$') && setting.start !== undefined && when.matches.test(setting.start.text);
    if (when.anyBits !== null) return typeof setting.constant === 'number' && Number.isInteger(setting.constant) && (setting.constant & when.anyBits) !== 0;
    return when.matches?.test(String(setting.constant)) ?? false;
  }

  /**
   * The value of a setting a call gives, read through options objects (`arg2.secure`): the first of
   * `slots` the call gives decides (several spellings or positions of one setting). `absent` when the call leaves it out (the library default holds),
   * `unknown` when it may be there but what it is cannot be seen (an options object from elsewhere,
   * a spread argument).
   */
  private setting(slots: readonly CallSlot[], call: CallExpr, receiver: Value, args: readonly Value[], named: ReadonlyMap<string, Value>): Value | 'absent' | 'unknown' {
    const spread = call.arguments.some((a) => a.spread);
    // An argument that may or may not be the options object: a later slot the call gives decides instead.
    let unsure = false;
    for (const slot of slots) {
      let value: Value | undefined;
      if (slot.kind === 'argument') value = slot.index < args.length && !call.arguments.slice(0, slot.index + 1).some((a) => a.spread) ? args[slot.index] : undefined;
      else if (slot.kind === 'named') value = named.get(slot.name);
      else if (slot.kind === 'receiver') value = receiver;
      else if (slot.kind === 'callee') value = constant(call.calleeText ?? call.callee);
      else return 'unknown';
      if (value === undefined) {
        if (spread) return 'unknown';
        continue;
      }
      const path = 'path' in slot ? (slot.path ?? []) : [];
      let inside: Value | 'absent' | 'unknown' | 'not-a-map' = value;
      for (const key of path) {
        if (typeof inside === 'string') break;
        const next: Value | undefined = inside.slots?.get(key);
        if (next !== undefined) inside = next;
        else if (inside.exact) inside = 'absent';
        // A number or string where an options object could go (`setcookie`'s expiry): another slot says.
        else if (hasConstant(inside)) inside = 'not-a-map';
        else inside = 'unknown';
      }
      // Left out here (or not an options object): another spelling or position may still give it.
      if (inside === 'not-a-map' || inside === 'absent') continue;
      if (inside === 'unknown' && path.length > 0 && value.slots === undefined) {
        // An options object comes last; with more arguments after it, this one is a plain value (setcookie's expiry).
        unsure ||= !(slot.kind === 'argument' && slot.index < args.length - 1);
        continue;
      }
      return inside;
    }
    return unsure ? 'unknown' : 'absent';
  }

  /**
   * The parts of a command given as a program and its arguments that can change what runs: all of
   * them when the program is outside data, a shell, or not known; none when it is a fixed program.
   * A single string is a whole command line and always counts.
   */
  private commandParts(values: readonly Value[]): readonly Value[] {
    const [first, ...rest] = values;
    if (first === undefined) return values;
    const parts = first.elements ? [...first.elements, ...rest] : values;
    if (parts.length <= 1 && !first.elements) return values;
    const program = parts[0];
    if (program === undefined) return values;
    if (hasConstant(program) && typeof program.constant === 'string' && !SHELL_PROGRAM.test(program.constant)) return [];
    return parts;
  }

  private createdObjects(call: CallExpr, receiverType: string | null, constants: readonly (FlowLiteral | undefined)[]): TrackedObject[] {
    const out: TrackedObject[] = [];
    if (this.checkNames !== null && !this.checkNames.has(this.nameKey(calledName(call)))) return out;
    for (const check of this.rows.checks) {
      if (check.kind === 'missing-setting' && callMatches(check.createdBy, call, receiverType, this.file, constants)) out.push({ checkId: check.id, settingsDone: new Set(), line: call.line });
    }
    return out;
  }

  /** The value checks of a call; returns the receiver with the settings the call made on its tracked objects. */
  private checkValues(call: CallExpr, receiver: Value, args: readonly Value[], named: ReadonlyMap<string, Value>, state: State, ctx: FunctionContext, receiverType: string | null): Value {
    if (this.checkNames !== null && !this.checkNames.has(this.nameKey(calledName(call)))) return receiver;
    for (const check of this.rows.checks) {
      if (check.kind === 'weak-value') {
        if (!callMatches(check.call, call, receiverType, this.file, args.map((a) => a.constant))) continue;
        const setting = this.setting(check.slots, call, receiver, args, named);
        if (setting === 'absent' && check.absentIsWeak) {
          const step: PathStep = { role: 'sink', line: call.line, text: renderExpr(call) };
          this.report({ kind: 'check', rowId: check.id, cwe: check.cwe, function: ctx.fn.qualifiedName, line: call.line, column: call.column, path: [{ role: 'source', line: call.line, text: 'setting left out' }, step], callSites: [], sourceRow: null, via: [] });
        }
        for (const value of typeof setting === 'string' ? [] : [setting]) {
          const step: PathStep = { role: 'sink', line: call.line, text: renderExpr(call) };
          if (hasConstant(value) && value.constant !== null && check.weak.test(String(value.constant))) {
            this.report({ kind: 'check', rowId: check.id, cwe: check.cwe, function: ctx.fn.qualifiedName, line: call.line, column: call.column, path: [{ role: 'source', line: call.line, text: `"${value.constant}"` }, step], callSites: [], sourceRow: null, via: [] });
          }
          for (const t of value.taints) if (t.label.startsWith('param:')) ctx.innerSinks.push({ row: null, check, symbolic: withStep(t, step), line: call.line, column: call.column, callSites: [], lines: [call.line] });
        }
        continue;
      }
      // A setting call on a tracked object.
      if (call.receiver !== null && receiver.objects?.some((o) => o.checkId === check.id)) {
        check.settings.forEach((setting, index) => {
          if (!callMatches(setting.call, call, receiverType, this.file)) return;
          const ok = setting.arguments.every((pattern, a) => {
            const value = args[a];
            return value !== undefined && hasConstant(value) && pattern.test(String(value.constant));
          });
          if (!ok || call.receiver === null) return;
          const objects = (receiver.objects ?? []).map((o) => (o.checkId === check.id ? { ...o, settingsDone: new Set([...o.settingsDone, index]) } : o));
          receiver = { ...receiver, objects };
          this.overwrite(call.receiver, receiver, state, ctx);
        });
      }
      if (!callMatches(check.usedBy, call, receiverType, this.file)) continue;
      // In a helper, the data may be a parameter: the use is the callers' to judge (`parseXml(InputStream in)`).
      let onParameters: Taint[] = [];
      if (check.tainted.length > 0) {
        const data = check.tainted.flatMap((slot) => this.slotValues(slot, receiver, args, named)).flatMap(allTaints);
        onParameters = data.filter((t) => t.label.startsWith('param:') && !t.cleared.has('xxe'));
        if (!data.some((t) => taintCounts(t, 'xxe', new Set(['input']))) && onParameters.length === 0) continue;
      }
      for (const value of this.slotValues(check.slot, receiver, args, named)) {
        for (const o of value.objects ?? []) {
          if (o.checkId !== check.id) continue;
          const safe = check.need === 'any' ? o.settingsDone.size > 0 : o.settingsDone.size >= check.settings.length;
          if (safe) continue;
          if (onParameters.length > 0) {
            const step: PathStep = { role: 'sink', line: call.line, text: renderExpr(call) };
            for (const t of onParameters) ctx.innerSinks.push({ row: null, check, symbolic: withStep(t, step), line: call.line, column: call.column, callSites: [], lines: [call.line] });
            continue;
          }
          this.report({ kind: 'check', rowId: check.id, cwe: check.cwe, function: ctx.fn.qualifiedName, line: call.line, column: call.column, path: [{ role: 'source', line: o.line, text: 'created here' }, { role: 'sink', line: call.line, text: renderExpr(call) }], callSites: [], sourceRow: null, via: [] });
        }
      }
    }
    return receiver;
  }
}

const NO_NAMED: ReadonlyMap<string, Value> = new Map();
const NO_LABELS: ReadonlySet<string> = new Set();

/** The taint labels a value carries (a call's receiver, for rows that ask what it holds). */
/** An object or array the code wrote out (`{ data }`, `[a, b]`): its entries are known, so it is not a string. */
function isBuiltCollection(value: Value): boolean {
  return value.slots !== undefined || value.elements !== undefined;
}

function labelsOf(value: Value): ReadonlySet<string> {
  return value === CLEAN ? NO_LABELS : new Set(allTaints(value).map((t) => t.label));
}

/**
 * Every name a call of one of the value checks' calls (the checked call, the object's maker, its
 * settings, its use) is called by; null when one takes any name. A call by another name is none of
 * theirs, so the checks need not look at it.
 */
function checkCallNames(rows: FlowRows, key: NameKey): ReadonlySet<string> | null {
  const names = new Set<string>();
  for (const check of rows.checks) {
    const matchers = check.kind === 'weak-value' ? [check.call] : [check.createdBy, check.usedBy, ...check.settings.map((s) => s.call)];
    for (const matcher of matchers) for (const name of matcher.names) names.add(key(name));
  }
  return names.has('*') ? null : names;
}

/** Analyse one lowered file: findings from every function (or from `only`), and the functions past their budget. */
export function analyseFile(file: FlowFile, options: AnalyseOptions, only: ReadonlySet<string> | null = null): FileAnalysis {
  return new FileAnalyser(file, options).analyse(only);
}
