/**
 * Whether a statement check comes before an operation on every path: judged on the control-flow graph
 * of the function (cfg.ts) where one can be built, else by statement order (the check's line above the
 * bound, within the reach branches.ts read from the text), and then the finding says so.
 *
 * The graphs are built only for the functions that need them (a hop of a complete path holding a
 * statement check), from a second parse of their files, lowered by the data-flow front ends.
 */
import type { FlowFile, FlowFunction } from '../flow/ir.js';
import { lowerText } from '../flow/index.js';
import { buildCfg, covers, coversEachElement, decisionAt, nodesAt, type Cfg, type Decision, type Uncovered } from './cfg.js';
import type { Program } from './resolution.js';
import type { PathRecord, Witness } from './types.js';

/** The graphs of a run's functions, by function id, or why a function has none. */
export interface ControlFlow {
  graphs: Map<string, FunctionGraphs | { unavailable: string }>;
  /** Judgements already made (`functionId`, bound line, last hop): many paths share a hop. */
  judged?: Map<string, HopJudgement>;
}

/** The graph of a program node's own function and of the closures written in it. */
export interface FunctionGraphs {
  /** The node's function, then its closures (innermost last). */
  functions: FlowFunction[];
  /** Built on first use. */
  cfgs: Map<FlowFunction, Cfg>;
  throwsAt: (line: number) => boolean;
}

/** What a statement check needs for the graph: the call that is the check (or null for a comparison). */
export interface CheckShape {
  callee: string | null;
  /** The check's boolean is what protects: a branch must read it. */
  value: boolean;
}

/**
 * Build the graphs of every function on `paths` that holds a statement check. `throwsAt` says whether
 * a line of a function calls a project helper that always throws (enforcement.ts).
 */
export async function controlFlowFor(program: Program, paths: readonly PathRecord[], witnesses: ReadonlyMap<string, readonly Witness[]>, throwsAt: (functionId: string) => (line: number) => boolean, deadline?: { remainingMs(): number }): Promise<ControlFlow> {
  const wanted = new Set<string>();
  for (const path of paths) {
    if (!path.complete) continue;
    for (const hop of path.hops) if ((witnesses.get(hop.functionId) ?? []).some(judgedByGraph)) wanted.add(hop.functionId);
  }
  const byPath = new Map<string, string[]>();
  for (const id of wanted) {
    const ref = program.functions.get(id);
    if (ref) byPath.set(ref.path, [...(byPath.get(ref.path) ?? []), id]);
  }
  const graphs: ControlFlow['graphs'] = new Map();
  for (const [path, ids] of [...byPath].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const file = program.byPath.get(path);
    if (!file) continue;
    const left = deadline?.remainingMs();
    const lowered = left === 0 ? { ok: false as const, reason: 'the deadline passed before the control-flow graph was built' } : await lowerText(path, file.language, file.text, Date.now() + (left ?? 20_000));
    for (const id of ids) {
      if (lowered === null) graphs.set(id, { unavailable: `no control-flow graph for ${file.language}` });
      else if (!lowered.ok) graphs.set(id, { unavailable: lowered.reason });
      else {
        const ref = program.functions.get(id);
        const own = ref ? flowFunctionOf(lowered.file, ref.fn) : null;
        if (!ref || !own) graphs.set(id, { unavailable: `the function at line ${ref?.fn.startLine ?? 0} was not lowered` });
        else graphs.set(id, { functions: [own, ...closuresOf(lowered.file, own)], cfgs: new Map(), throwsAt: throwsAt(id) });
      }
    }
  }
  return { graphs };
}

/** A statement witness whose place decides it: not part of the operation's own call. */
function judgedByGraph(w: Witness): boolean {
  return w.scope === 'statement' && w.line !== null && w.sameLine !== true;
}

function flowFunctionOf(file: FlowFile, fn: { name: string; startLine: number; bodyStartLine: number; endLine: number }): FlowFunction | null {
  const candidates = file.functions.filter((f) => f.endLine === fn.endLine && f.line >= fn.startLine && f.line <= Math.max(fn.bodyStartLine, fn.startLine));
  return candidates.find((f) => f.name === fn.name) ?? candidates[0] ?? null;
}

/** Functions written inside `own` (closures and nested functions), by the enclosing-function chain. */
function closuresOf(file: FlowFile, own: FlowFunction): FlowFunction[] {
  const inside = new Set([own.qualifiedName]);
  const out: FlowFunction[] = [];
  for (const f of file.functions) {
    if (f.enclosingFunction !== null && inside.has(f.enclosingFunction)) {
      inside.add(f.qualifiedName);
      out.push(f);
    }
  }
  return out;
}

/** The innermost of `graphs.functions` whose lines hold `line`. */
function innermostFunction(graphs: FunctionGraphs, line: number): FlowFunction | null {
  return enclosingFunctions(graphs, line)[0] ?? null;
}

function cfgOf(graphs: FunctionGraphs, fn: FlowFunction): Cfg {
  let cfg = graphs.cfgs.get(fn);
  if (!cfg) {
    const ends = new Map(graphs.functions.map((f) => [f.qualifiedName, f.endLine]));
    cfg = buildCfg(fn, { throwsAt: graphs.throwsAt, nestedEnd: (name) => ends.get(name) });
    graphs.cfgs.set(fn, cfg);
  }
  return cfg;
}

/** Whether `inner` is `outer` or written inside it. */
function within(graphs: FunctionGraphs, inner: FlowFunction, outer: FlowFunction): boolean {
  const byName = new Map(graphs.functions.map((f) => [f.qualifiedName, f]));
  for (let at: FlowFunction | undefined = inner; at; at = at.enclosingFunction === null ? undefined : byName.get(at.enclosingFunction)) if (at === outer) return true;
  return false;
}

/** Order dominance: the check's line before the bound, within the reach read from the text. */
export function dominatesByOrder(w: Witness, boundLine: number, lastHop: boolean): boolean {
  if (w.scope !== 'statement' || w.line === null) return true;
  if (w.until !== undefined && boundLine > w.until) return false;
  if (w.blockEnd !== undefined && boundLine > w.blockEnd) return false;
  if (w.line < boundLine) return true;
  return lastHop && w.sameLine === true && w.line === boundLine;
}

/** What the judgement of one hop's checks found. */
export interface HopJudgement {
  dominating: Witness[];
  /** Why some check was judged by order (no graph, or its line not in it), or null. */
  byOrder: string | null;
  /** Checks of the graph that do not cover the bound, each with why (for the finding's text). */
  uncovered: { witness: Witness; why: string }[];
}

/**
 * The checks of one hop that come before `boundLine` on every path. `shapeOf` gives a check's call (for
 * the graph: which call in a condition is the check, and whether its value must be branched on).
 */
export function judgeHop(control: ControlFlow | undefined, functionId: string, list: readonly Witness[], boundLine: number, lastHop: boolean, shapeOf: (w: Witness) => CheckShape): HopJudgement {
  const key = `${functionId}\0${boundLine}\0${lastHop}`;
  const known = control?.judged?.get(key);
  if (known) return known;
  const out = judgeHopOnce(control, functionId, list, boundLine, lastHop, shapeOf);
  if (control) (control.judged ??= new Map()).set(key, out);
  return out;
}

function judgeHopOnce(control: ControlFlow | undefined, functionId: string, list: readonly Witness[], boundLine: number, lastHop: boolean, shapeOf: (w: Witness) => CheckShape): HopJudgement {
  const out: HopJudgement = { dominating: [], byOrder: null, uncovered: [] };
  const graphs = control?.graphs.get(functionId);
  const pending: { w: Witness; cfg: Cfg; decision: Decision; targets: ReturnType<typeof nodesAt> }[] = [];
  for (const w of list) {
    if (!judgedByGraph(w) || !Number.isFinite(boundLine) || control === undefined) {
      if (dominatesByOrder(w, boundLine, lastHop)) out.dominating.push(w);
      continue;
    }
    const placed = graphs && !('unavailable' in graphs) ? place(graphs, w, boundLine, shapeOf(w)) : { unavailable: graphs && 'unavailable' in graphs ? graphs.unavailable : 'no control-flow graph was built' };
    if ('unavailable' in placed) {
      out.byOrder ??= placed.unavailable;
      if (dominatesByOrder(w, boundLine, lastHop)) out.dominating.push(w);
      continue;
    }
    if ('outside' in placed) {
      out.uncovered.push({ witness: w, why: `${w.evidence} at line ${w.line ?? 0} runs in a closure that line ${boundLine} is not in` });
      continue;
    }
    const why = covers(placed.cfg, [placed.decision], placed.targets);
    if (why === null || (why.why === 'not_dominating' && coversEachElement(placed.cfg, placed.decision, placed.targets))) out.dominating.push(w);
    else {
      pending.push({ w, ...placed });
      out.uncovered.push({ witness: w, why: `${w.evidence} at line ${w.line ?? 0} ${uncoveredInWords(why, boundLine)}` });
    }
  }
  // Checks that cover together: one in every arm of a switch, or of an if and its else.
  const groups = new Map<string, typeof pending>();
  for (const p of pending) {
    const key = `${p.w.kind}\0${p.cfg.nodes.length}\0${p.targets.map((t) => t.id).join(',')}`;
    groups.set(key, [...(groups.get(key) ?? []), p]);
  }
  for (const group of groups.values()) {
    const first = group[0];
    if (!first || group.length < 2 || group.some((p) => p.cfg !== first.cfg)) continue;
    if (covers(first.cfg, group.map((p) => p.decision), first.targets) !== null) continue;
    out.dominating.push(...group.map((p) => p.w));
    out.uncovered = out.uncovered.filter((u) => !group.some((p) => p.w === u.witness));
  }
  return out;
}

function uncoveredInWords(why: Uncovered, boundLine: number): string {
  if (why.why === 'no_decision') return `decides nothing on the way to line ${boundLine} (no branch reads its value)`;
  if (why.why === 'failing_arm_reaches') return `does not stop line ${boundLine}: its failing arm at line ${why.from} reaches it`;
  const context = why.context.length > 0 ? ` (line ${boundLine} is in the ${why.context[why.context.length - 1] ?? ''})` : '';
  return `is not on every path to line ${boundLine}${context}`;
}

/** The check and the bound in one graph: the decision and the bound's nodes, or why the graph cannot say. */
function place(graphs: FunctionGraphs, w: Witness, boundLine: number, shape: CheckShape): { cfg: Cfg; decision: Decision; targets: ReturnType<typeof nodesAt> } | { unavailable: string } | { outside: true } {
  const line = w.line ?? 0;
  const boundFn = innermostFunction(graphs, boundLine);
  // The innermost function whose own statements make the check (a closure may start on the check's line).
  for (const checkFn of enclosingFunctions(graphs, line)) {
    const cfg = cfgOf(graphs, checkFn);
    const decision = decisionAt(cfg, line, { callee: shape.callee, value: shape.value, positive: w.until !== undefined });
    if (decision === null) continue;
    if (!boundFn || !within(graphs, boundFn, checkFn)) return { outside: true };
    const targets = nodesAt(cfg, boundLine);
    if (targets.length === 0) return { unavailable: `line ${boundLine} has no statement in the control-flow graph` };
    return { cfg, decision, targets };
  }
  return { unavailable: `the check at line ${line} has no statement in the control-flow graph` };
}

/** The functions of `graphs` whose lines hold `line`, innermost first. */
function enclosingFunctions(graphs: FunctionGraphs, line: number): FlowFunction[] {
  return graphs.functions.filter((f) => f.line <= line && f.endLine >= line).sort((a, b) => b.line - a.line || a.endLine - b.endLine);
}
