/**
 * The control-flow graph of one function, built from the data-flow library's lowered statements
 * (src/flow/ir.ts: if/else, switch, loops, try/catch/finally, return, throw, break, continue, and
 * exit calls), its dominators (Cooper, Harvey and Kennedy's iterative algorithm), and what a check
 * decides: a check discharges a line when the node that decides it dominates the line's node and the
 * line cannot be reached from the check's failing arm without passing the check again.
 *
 * Nodes are statements (and branch heads: an `if` condition, a loop header, a switch subject). A
 * `finally` body is built once per way out of its `try` (fall-through, exception, return, break,
 * continue), so a check in it covers each of them and an operation in it is judged on each. Every
 * statement inside a `try` may raise into its handlers; a check's own failure (an access-denied
 * exception, an abort) is taken to be caught only by a handler that could catch it (no types, a
 * generic exception type, or a type named for access, authorization or HTTP errors).
 */
import type { FlowExpr, FlowFunction, FlowStmt, FlowTarget } from '../flow/ir.js';

export interface CfgNode {
  id: number;
  kind: 'entry' | 'exit' | 'statement' | 'branch' | 'rethrow';
  /** First and last source line of the node's own code (a branch: its condition). */
  from: number;
  to: number;
  stmt: FlowStmt | null;
  /** For a branch: the condition (an `if`, a loop header's condition, a switch subject). */
  condition: FlowExpr | null;
  /** Normal successors; a branch lists `whenTrue` then `whenFalse` (a switch: each arm). */
  succ: number[];
  whenTrue: number | null;
  whenFalse: number | null;
  /** Where an exception raised here goes (the handlers and finally of enclosing `try`s). */
  raises: number[];
  /** Where a failed check here goes when it raises (the handlers that can catch a check's failure, else out). */
  checkRaises: number[];
  /** The constructs around the node, outermost first (`then-arm of the if at line 12`). */
  context: string[];
  /** The statement leaves the function whatever happens (return, throw, an exit call, an always-throwing helper). */
  leaves: boolean;
}

export interface Cfg {
  nodes: CfgNode[];
  entry: number;
  exit: number;
  /** Immediate dominator of each node (the entry's is itself; -1 when the entry does not reach it). */
  idom: number[];
}

/** Options of `buildCfg`. */
export interface CfgOptions {
  /** True when the statement on `line` calls a project helper that always throws (`$this->denyAccess()`). */
  throwsAt?: (line: number) => boolean;
  /** Line ranges of the functions written inside this one (closures), so a statement's span covers them. */
  nestedEnd?: (qualifiedName: string) => number | undefined;
}

/** Calls that end the request where they stand (branches.ts EXIT names them in text; conditional assertions are not among them). */
const EXIT_CALLS = /^(abort|exit|die|redirect|send_error|finish|forbidden|unauthorized|notFound|panic|Exit|Fatal\w*)$/;
/** A handler of these types can catch a check's failure (an access-denied or HTTP exception). */
const CATCHES_CHECK_FAILURE = /^(Exception|Throwable|Error|RuntimeException|BaseException|StandardError|HttpException\w*|\w*(Access|Auth|Permission|Forbidden|Denied|Unauthori[sz]ed|Security)\w*)$/i;

interface Targets {
  breakTo: number | null;
  continueTo: number | null;
  returnTo: number;
  /** Handlers (and exception copies of finally) an exception here reaches. */
  raise: number[];
  /** The subset a check's failure reaches. */
  checkRaise: number[];
  context: string[];
}

/** Build the CFG of `fn`'s body. */
export function buildCfg(fn: FlowFunction, options: CfgOptions = {}): Cfg {
  const nodes: CfgNode[] = [];
  const make = (kind: CfgNode['kind'], from: number, to: number, stmt: FlowStmt | null, t: Targets | null): CfgNode => {
    const node: CfgNode = { id: nodes.length, kind, from, to: Math.max(from, to), stmt, condition: null, succ: [], whenTrue: null, whenFalse: null, raises: t?.raise ?? [], checkRaises: t?.checkRaise ?? [], context: t?.context ?? [], leaves: kind === 'statement' && (stmt?.kind === 'return' || stmt?.kind === 'throw') };
    nodes.push(node);
    return node;
  };
  const entry = make('entry', fn.line, fn.line, null, null);
  const exit = make('exit', fn.endLine, fn.endLine, null, null);
  const lastLine = (value: unknown): number => maxLine(value, options.nestedEnd);

  const within = (t: Targets, what: string): Targets => ({ ...t, context: [...t.context, what] });

  const sequence = (stmts: readonly FlowStmt[], next: number, t: Targets): number => {
    let at = next;
    for (let i = stmts.length - 1; i >= 0; i--) {
      const stmt = stmts[i];
      if (stmt) at = statement(stmt, at, t);
    }
    return at;
  };

  const statement = (stmt: FlowStmt, next: number, t: Targets): number => {
    switch (stmt.kind) {
      case 'if': {
        const head = make('branch', stmt.line, lastLine(stmt.condition), stmt, t);
        head.condition = stmt.condition;
        head.whenTrue = sequence(stmt.then, next, within(t, `then-arm of the if at line ${stmt.line}`));
        head.whenFalse = sequence(stmt.otherwise, next, within(t, `else-arm of the if at line ${stmt.line}`));
        head.succ = [head.whenTrue, head.whenFalse];
        return head.id;
      }
      case 'switch': {
        const head = make('branch', stmt.line, lastLine(stmt.subject), stmt, t);
        head.condition = stmt.subject;
        const arms = within({ ...t, breakTo: next }, `switch at line ${stmt.line}`);
        const entries: number[] = [];
        let following = next;
        for (let i = stmt.cases.length - 1; i >= 0; i--) {
          const arm = stmt.cases[i];
          if (!arm) continue;
          following = sequence(arm.body, arm.fallsThrough ? following : next, arms);
          entries.unshift(following);
        }
        const hasDefault = stmt.cases.some((c) => c.values.length === 0);
        head.succ = hasDefault ? entries : [...entries, next];
        return head.id;
      }
      case 'loop': {
        const head = make('branch', stmt.line, lastLine([stmt.condition, stmt.iterable, stmt.target]), stmt, t);
        head.condition = stmt.condition;
        const update = sequence(stmt.update, head.id, t);
        const body = sequence(stmt.body, update, within({ ...t, breakTo: next, continueTo: update }, `loop at line ${stmt.line}`));
        const forever = (stmt.condition === null && stmt.iterable === null) || (stmt.condition?.kind === 'literal' && stmt.condition.value === true);
        head.whenTrue = body;
        head.whenFalse = forever ? null : next;
        head.succ = forever ? [body] : [body, next];
        return sequence(stmt.init, head.id, t);
      }
      case 'try':
        return tryStatement(stmt, next, t);
      case 'with': {
        const node = make('statement', stmt.line, lastLine(stmt.resources), stmt, t);
        node.succ = [sequence(stmt.body, next, t)];
        return node.id;
      }
      case 'return': {
        const node = make('statement', stmt.line, lastLine(stmt), stmt, t);
        node.succ = [t.returnTo];
        return node.id;
      }
      case 'throw': {
        const node = make('statement', stmt.line, lastLine(stmt), stmt, t);
        node.succ = t.raise.length > 0 ? [...t.raise] : [exit.id];
        return node.id;
      }
      case 'break':
      case 'continue': {
        const node = make('statement', stmt.line, stmt.line, stmt, t);
        node.succ = [(stmt.kind === 'break' ? t.breakTo : t.continueTo) ?? next];
        return node.id;
      }
      default: {
        const node = make('statement', stmt.line, lastLine(stmt), stmt, t);
        // An exit call or an always-throwing helper leaves (through the handlers that catch a refusal).
        const leaves = endsRequest(stmt) || options.throwsAt?.(stmt.line) === true;
        node.succ = leaves ? (t.checkRaise.length > 0 ? [...t.checkRaise] : [exit.id]) : [next];
        node.leaves = leaves;
        return node.id;
      }
    }
  };

  const tryStatement = (stmt: Extract<FlowStmt, { kind: 'try' }>, next: number, t: Targets): number => {
    // One copy of `finally` per way out, each ending where that way goes.
    const copies = new Map<number, number>();
    const through = (target: number): number => {
      if (stmt.finally.length === 0) return target;
      const known = copies.get(target);
      if (known !== undefined) return known;
      const copy = sequence(stmt.finally, target, within(t, `finally at line ${stmt.line}`));
      copies.set(target, copy);
      return copy;
    };
    const rethrow = make('rethrow', stmt.line, stmt.line, null, t);
    rethrow.succ = t.checkRaise.length > 0 ? [...t.checkRaise] : [exit.id];
    const outRaise = stmt.finally.length > 0 ? [through(rethrow.id)] : t.raise.length > 0 ? t.raise : [];
    const outCheckRaise = stmt.finally.length > 0 ? [through(rethrow.id)] : t.checkRaise;
    const after = through(next);
    const inHandler: Targets = {
      breakTo: t.breakTo === null ? null : through(t.breakTo),
      continueTo: t.continueTo === null ? null : through(t.continueTo),
      returnTo: through(t.returnTo),
      raise: outRaise,
      checkRaise: outCheckRaise,
      context: t.context,
    };
    const handlers = stmt.handlers.map((h) => ({ entry: sequence(h.body, after, within(inHandler, `catch at line ${stmt.line}`)), catchesCheck: h.types.length === 0 || h.types.some((type) => CATCHES_CHECK_FAILURE.test(simpleName(type))) }));
    const catchAll = stmt.handlers.some((h) => h.types.length === 0 || h.types.some((type) => /^(Exception|Throwable|BaseException)$/.test(simpleName(type))));
    const inBody: Targets = {
      ...inHandler,
      raise: [...handlers.map((h) => h.entry), ...(catchAll ? [] : outRaise)],
      checkRaise: [...handlers.filter((h) => h.catchesCheck).map((h) => h.entry), ...(catchAll ? [] : outCheckRaise)],
      context: [...t.context, `try at line ${stmt.line}`],
    };
    return sequence(stmt.body, after, inBody);
  };

  const top: Targets = { breakTo: null, continueTo: null, returnTo: exit.id, raise: [], checkRaise: [], context: [] };
  entry.succ = [sequence(fn.body, exit.id, top)];
  return { nodes, entry: entry.id, exit: exit.id, idom: dominators(nodes, entry.id) };
}

/** A type's own name, without namespace or package (`\\Symfony\\...\\AccessDeniedException`, `java.lang.Exception`). */
function simpleName(type: string): string {
  return type.trim().split(/[\\.]/).pop() ?? '';
}

/** Successors of a node, exceptional ones included. */
function edges(node: CfgNode): number[] {
  return node.raises.length === 0 ? node.succ : [...node.succ, ...node.raises];
}

/** Cooper, Harvey and Kennedy: "A Simple, Fast Dominance Algorithm" (2001). */
function dominators(nodes: readonly CfgNode[], entry: number): number[] {
  const order: number[] = [];
  const seen = new Set<number>([entry]);
  // Iterative post-order.
  const stack: { id: number; next: number }[] = [{ id: entry, next: 0 }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    if (!top) break;
    const out = edges(nodes[top.id] as CfgNode);
    if (top.next < out.length) {
      const child = out[top.next++] as number;
      if (!seen.has(child)) {
        seen.add(child);
        stack.push({ id: child, next: 0 });
      }
    } else {
      order.push(top.id);
      stack.pop();
    }
  }
  const rank = new Map(order.map((id, i) => [id, i]));
  const preds = new Map<number, number[]>();
  for (const node of nodes) for (const to of edges(node)) preds.set(to, [...(preds.get(to) ?? []), node.id]);
  const idom = nodes.map(() => -1);
  idom[entry] = entry;
  const reversed = [...order].reverse();
  const intersect = (a: number, b: number): number => {
    while (a !== b) {
      while ((rank.get(a) ?? 0) < (rank.get(b) ?? 0)) a = idom[a] as number;
      while ((rank.get(b) ?? 0) < (rank.get(a) ?? 0)) b = idom[b] as number;
    }
    return a;
  };
  for (let changed = true; changed; ) {
    changed = false;
    for (const id of reversed) {
      if (id === entry) continue;
      let chosen = -1;
      for (const p of preds.get(id) ?? []) {
        if (idom[p] === -1) continue;
        chosen = chosen === -1 ? p : intersect(p, chosen);
      }
      if (chosen !== -1 && idom[id] !== chosen) {
        idom[id] = chosen;
        changed = true;
      }
    }
  }
  return idom;
}

/** True when `a` dominates `b` (every path from the entry to `b` passes `a`). */
export function dominates(cfg: Cfg, a: number, b: number): boolean {
  if (cfg.idom[b] === -1) return false;
  for (let at = b; ; at = cfg.idom[at] as number) {
    if (at === a) return true;
    if (at === cfg.entry) return false;
  }
}

/** The nodes whose own code covers `line` (the innermost statement; several when a `finally` was copied). */
export function nodesAt(cfg: Cfg, line: number): CfgNode[] {
  let best: CfgNode[] = [];
  for (const node of cfg.nodes) {
    if ((node.kind !== 'statement' && node.kind !== 'branch') || node.from > line || node.to < line) continue;
    const first = best[0];
    if (!first || node.from > first.from || (node.from === first.from && node.to < first.to)) best = [node];
    else if (node.from === first.from && node.to === first.to) best.push(node);
  }
  return best;
}

/** A check in the graph: the nodes that decide it and, from each, the arms taken when it fails. */
export interface Decision {
  nodes: CfgNode[];
  failing: Map<number, number[]>;
}

/**
 * What a check on `line` decides. `callee` names the check's call (null for a comparison written as
 * the condition itself); `value`: the check's boolean must be branched on (`$ok = can(x)` counts only
 * where a branch reads `$ok`); `positive`: whether the condition's true arm is the allowed one
 * (`if (can(x)) { ... }`), as branches.ts read it, for conditions that do not say by themselves.
 * Null when no node holds the line (or, with a callee, no node on the line calls it).
 */
export function decisionAt(cfg: Cfg, line: number, check: { callee: string | null; value: boolean; positive: boolean }): Decision | null {
  const at = nodesAt(cfg, line);
  const callee = check.callee;
  const holding = callee === null ? at.filter((n) => n.kind === 'branch') : at.filter((n) => containsCall(n.stmt, callee));
  const nodes = holding.length > 0 || callee !== null ? holding : at;
  if (nodes.length === 0) return null;
  const failing = new Map<number, number[]>();
  const decided: CfgNode[] = [];
  for (const node of nodes) {
    if (node.kind === 'branch' && node.condition !== null && node.whenTrue !== null) {
      const atom = check.callee === null ? null : findCall(node.condition, check.callee, line);
      failing.set(node.id, armsFor(node, failingValues(node.condition, atom, check.positive)));
      decided.push(node);
      continue;
    }
    if (node.kind === 'branch') {
      // A switch on the check's value, or a loop over it: not a decision this reading follows.
      failing.set(node.id, node.succ);
      decided.push(node);
      continue;
    }
    const variable = check.value ? assignedName(node.stmt) : null;
    if (check.value && variable !== null) {
      // The value is stored: the branches that read it decide (each must be passed to go on).
      for (const reader of cfg.nodes) {
        if (reader.kind !== 'branch' || reader.condition === null || reader.whenTrue === null || !dominates(cfg, node.id, reader.id)) continue;
        const atom = findName(reader.condition, variable);
        if (atom === null) continue;
        failing.set(reader.id, armsFor(reader, failingValues(reader.condition, atom, check.positive)));
        decided.push(reader);
      }
      continue;
    }
    if (check.value && node.stmt?.kind === 'return') continue;
    // A refusal (`if (!session) unauthorized();`, `return new Response(null, { status: 403 })`): the
    // branch that leads to it is the check, and the arm holding it the failing one.
    const guard = node.leaves || (answersRequest(node.stmt) && leavesStraight(cfg, node)) ? guardingBranch(cfg, node) : null;
    if (guard !== null) {
      failing.set(guard.branch.id, [guard.arm]);
      decided.push(guard.branch);
      continue;
    }
    failing.set(node.id, node.checkRaises);
    decided.push(node);
  }
  return { nodes: decided, failing };
}

/**
 * The values of a condition when its check fails. Where the condition alone does not say (the check is
 * one term of a compound test: `a && !can(x)`, a case split on a null test, `!can(a) && !can(b)`), the
 * reading of branches.ts decides, which already judged those shapes: a denial (`positive` false) fails
 * into its true arm, a guarded branch into its false arm.
 */
function failingValues(condition: FlowExpr, atom: FlowExpr | null, positive: boolean): Set<boolean> {
  const values = atom === null ? new Set<boolean>() : valuesWhenFalse(condition, atom);
  return values.size === 1 ? values : new Set([!positive]);
}

const enteredCache = new WeakMap<Cfg, Map<number, number>>();

/** How many normal edges enter each node, counted once per graph. */
function enteredCounts(cfg: Cfg): Map<number, number> {
  let entered = enteredCache.get(cfg);
  if (!entered) {
    entered = new Map<number, number>();
    for (const n of cfg.nodes) for (const s of n.succ) entered.set(s, (entered.get(s) ?? 0) + 1);
    enteredCache.set(cfg, entered);
  }
  return entered;
}

/** Calls that send the response (`res.status(401).json(...)`, `reply.code(403).send()`, `res.writeHead(401)`). */
const ANSWER_CALLS = /^(status|sendStatus|code|writeHead|json|send|end)$/;

/** The statement sends an answer: a call chain with a response call in it. A check that throws is not one. */
function answersRequest(stmt: FlowStmt | null): boolean {
  if (stmt?.kind !== 'expr') return false;
  for (let e: FlowExpr | null = stmt.expr; e?.kind === 'call'; e = e.receiver) if (ANSWER_CALLS.test(e.callee)) return true;
  return false;
}

/**
 * A statement that answers the request and is followed, with nothing in between that branches or is
 * entered from elsewhere, by one that leaves: `{ res.status(401).json(...); return; }`. The answer is
 * the refusal even though its own statement goes on; without the `return` the arm falls through and the
 * answer decides nothing (a response sent, then the handler carries on).
 */
function leavesStraight(cfg: Cfg, node: CfgNode): boolean {
  const entered = enteredCounts(cfg);
  let at = node;
  for (let step = 0; step < 8; step++) {
    if (at.kind !== 'statement' || at.succ.length !== 1) return false;
    const next = cfg.nodes[at.succ[0] ?? -1];
    if (next === undefined || next.kind !== 'statement' || entered.get(next.id) !== 1) return false;
    if (next.leaves) return true;
    at = next;
  }
  return false;
}

/** The nearest branch above `node` (by dominance) one of whose arms leads only to it, with that arm. */
function guardingBranch(cfg: Cfg, node: CfgNode): { branch: CfgNode; arm: number } | null {
  for (let at = cfg.idom[node.id] ?? -1; at !== -1 && at !== cfg.entry; at = cfg.idom[at] ?? -1) {
    const head = cfg.nodes[at];
    if (head?.kind !== 'branch') continue;
    const arms = head.succ.filter((s) => dominates(cfg, s, node.id));
    if (arms.length === 1 && new Set(head.succ).size > 1 && arms[0] !== undefined) return { branch: head, arm: arms[0] };
  }
  return null;
}

function armsFor(node: CfgNode, values: ReadonlySet<boolean>): number[] {
  const arms: number[] = [];
  if (values.has(true) && node.whenTrue !== null) arms.push(node.whenTrue);
  if (values.has(false) && node.whenFalse !== null) arms.push(node.whenFalse);
  return arms;
}

/** Why a decision does not cover a line, or null when it does. */
export type Uncovered = { why: 'no_decision' } | { why: 'not_dominating'; context: string[] } | { why: 'failing_arm_reaches'; from: number };

/**
 * Whether the decisions together cover every node of `targets`: no path from the entry reaches one
 * without passing a decision's allowing arm. One decision that covers must also dominate.
 */
export function covers(cfg: Cfg, decisions: readonly Decision[], targets: readonly CfgNode[], start = cfg.entry): Uncovered | null {
  const deciding = new Map<number, number[]>();
  for (const d of decisions) for (const node of d.nodes) deciding.set(node.id, d.failing.get(node.id) ?? []);
  if (deciding.size === 0) return { why: 'no_decision' };
  const wanted = new Set(targets.map((t) => t.id));
  const seen = new Set<number>([start]);
  const queue: { id: number; failedAt: number | null }[] = [{ id: start, failedAt: null }];
  for (let i = 0; i < queue.length; i++) {
    const { id, failedAt } = queue[i] as { id: number; failedAt: number | null };
    if (wanted.has(id)) {
      const node = cfg.nodes[id] as CfgNode;
      return failedAt === null ? { why: 'not_dominating', context: node.context } : { why: 'failing_arm_reaches', from: failedAt };
    }
    const failing = deciding.get(id);
    const next = failing ?? edges(cfg.nodes[id] as CfgNode);
    for (const to of next) {
      if (seen.has(to)) continue;
      seen.add(to);
      queue.push({ id: to, failedAt: failing !== undefined ? (cfg.nodes[id] as CfgNode).from : failedAt });
    }
  }
  return null;
}

/** Methods that change a collection in place. */
const GROWS = /^(push|unshift|splice|fill|copyWithin|add|set|append|extend|insert|concat)$/;

/**
 * A check inside a for-each over a collection that the bound's statement, after the loop, acts on as a
 * whole (`for (const id of ids) { if (!mine(id)) return 401 }`, then `deleteMany({ where: { id: { in:
 * ids } } })`). The loop may not run, so the check is not on every path; but then the collection is
 * empty and the statement acts on none of it. The check covers the bound when every pass through the
 * body goes through it (its failing arm leaves), nothing breaks out of the loop, the loop comes before
 * the bound on every path, and the collection is not assigned after the loop starts nor changed in place.
 */
export function coversEachElement(cfg: Cfg, decision: Decision, targets: readonly CfgNode[]): boolean {
  for (const head of cfg.nodes) {
    const loop = head.stmt;
    if (head.kind !== 'branch' || loop?.kind !== 'loop' || loop.iterable?.kind !== 'name' || head.whenTrue === null || head.whenFalse === null) continue;
    const collection = loop.iterable.name;
    const label = `loop at line ${loop.line}`;
    const inLoop = (n: CfgNode): boolean => n.context.includes(label);
    if (decision.nodes.length === 0 || !decision.nodes.every(inLoop)) continue;
    const after = (t: CfgNode): boolean => !inLoop(t) && dominates(cfg, head.id, t.id) && statementExpressions(t.stmt).some((e) => findName(e, collection) !== null);
    if (targets.length === 0 || !targets.every(after)) continue;
    const exit = head.whenFalse;
    if (cfg.nodes.some((n) => inLoop(n) && n.succ.includes(exit))) continue;
    if (cfg.nodes.some((n) => changes(n, collection) && (inLoop(n) || dominates(cfg, head.id, n.id)))) continue;
    if (cfg.nodes.some((n) => statementExpressions(n.stmt).some((e) => callsOn(e, collection)))) continue;
    if (covers(cfg, [decision], [head], head.whenTrue) === null) return true;
  }
  return false;
}

/** The statement assigns `name` (`ids = ...`, `[ids] = ...`). */
function changes(node: CfgNode, name: string): boolean {
  const stmt = node.stmt;
  if (stmt?.kind === 'assign') return stmt.targets.some((t) => t.kind === 'name' && t.name === name);
  return stmt?.kind === 'loop' && stmt.target?.kind === 'name' && stmt.target.name === name;
}

/** `e` calls a method that changes `name` in place (`ids.push(x)`). */
function callsOn(e: FlowExpr, name: string): boolean {
  if (e.kind === 'call' && e.receiver?.kind === 'name' && e.receiver.name === name && GROWS.test(e.callee)) return true;
  return children(e).some((c) => callsOn(c, name));
}

/** The values a condition can take when `atom` is false, the other terms free. */
export function valuesWhenFalse(condition: FlowExpr, atom: FlowExpr): Set<boolean> {
  const both = new Set([true, false]);
  const walk = (e: FlowExpr): Set<boolean> => {
    if (e === atom) return new Set([false]);
    if (!contains(e, atom)) return both;
    if (e.kind === 'unary' && /^(!|not)$/.test(e.operator.trim())) return new Set([...walk(e.operand)].map((v) => !v));
    if (e.kind === 'binary') {
      const op = e.operator.trim().toLowerCase();
      if (op === '&&' || op === 'and') return combine(walk(e.left), walk(e.right), (a, b) => a && b);
      if (op === '||' || op === 'or') return combine(walk(e.left), walk(e.right), (a, b) => a || b);
      const literal = e.right.kind === 'literal' ? e.right : e.left.kind === 'literal' ? e.left : null;
      const inner = literal === e.right ? e.left : e.right;
      if (literal !== null && typeof literal.value === 'boolean' && /^(===?|!==?|is|is not)$/.test(op)) {
        const negates = (literal.value === false) !== /^(!==?|is not)$/.test(op);
        return new Set([...walk(inner)].map((v) => (negates ? !v : v)));
      }
    }
    if (e.kind === 'assignment') return walk(e.value);
    // A flag of the check's result (`verification.verified`, `$decision->isAllowed()`) is the result.
    if ((e.kind === 'field' || e.kind === 'index') && contains(e.object, atom)) return walk(e.object);
    if (e.kind === 'call' && e.receiver !== null && contains(e.receiver, atom) && atom.kind === 'name') return walk(e.receiver);
    if (e.kind === 'cast' && /^bool/i.test(e.type)) return walk(e.value);
    return both;
  };
  return walk(condition);
}

function combine(a: ReadonlySet<boolean>, b: ReadonlySet<boolean>, f: (x: boolean, y: boolean) => boolean): Set<boolean> {
  const out = new Set<boolean>();
  for (const x of a) for (const y of b) out.add(f(x, y));
  return out;
}

/** The sub-expressions of an expression (not into nested functions). */
function children(e: FlowExpr): FlowExpr[] {
  switch (e.kind) {
    case 'field':
    case 'index':
      return e.kind === 'index' ? [e.object, e.index] : [e.object];
    case 'call':
      return [...(e.receiver ? [e.receiver] : []), ...e.arguments.map((a) => a.value), ...e.named.map((n) => n.value)];
    case 'binary':
      return [e.left, e.right];
    case 'unary':
      return [e.operand];
    case 'conditional':
      return [e.condition, e.then, e.otherwise];
    case 'template':
      return e.parts;
    case 'collection':
      return [...e.elements.map((x) => x.value), ...e.entries.flatMap((x) => (x.key ? [x.key, x.value] : [x.value]))];
    case 'cast':
      return [e.value];
    case 'assignment':
      return [e.value];
    case 'unknown':
      return e.children;
    default:
      return [];
  }
}

function contains(e: FlowExpr, atom: FlowExpr): boolean {
  return e === atom || children(e).some((c) => contains(c, atom));
}

/** The call to `callee` in `e` on `line` (the outermost one, so `can(x)` is found before its arguments). */
function findCall(e: FlowExpr, callee: string, line: number): FlowExpr | null {
  if (e.kind === 'call' && e.callee === callee && e.line <= line) return e;
  for (const c of children(e)) {
    const found = findCall(c, callee, line);
    if (found) return found;
  }
  return null;
}

function findName(e: FlowExpr, name: string): FlowExpr | null {
  if (e.kind === 'name' && e.name === name) return e;
  for (const c of children(e)) {
    const found = findName(c, name);
    if (found) return found;
  }
  return null;
}

/** The expressions a simple statement evaluates. */
function statementExpressions(stmt: FlowStmt | null): FlowExpr[] {
  if (stmt === null) return [];
  switch (stmt.kind) {
    case 'assign':
      return [stmt.value];
    case 'expr':
      return [stmt.expr];
    case 'return':
    case 'throw':
      return stmt.value ? [stmt.value] : [];
    case 'if':
      return [stmt.condition];
    case 'switch':
      return [stmt.subject];
    case 'loop':
      return [stmt.condition, stmt.iterable].filter((e): e is FlowExpr => e !== null);
    case 'with':
      return stmt.resources.map((r) => r.value);
    case 'unknown':
      return stmt.expressions;
    default:
      return [];
  }
}

function containsCall(stmt: FlowStmt | null, callee: string): boolean {
  return statementExpressions(stmt).some((e) => findCall(e, callee, Number.POSITIVE_INFINITY) !== null);
}

/** The variable a statement stores its value in (`$ok = ...`, `const ok = ...`). */
function assignedName(stmt: FlowStmt | null): string | null {
  if (stmt?.kind !== 'assign' || stmt.operator !== '=') return null;
  const target: FlowTarget | undefined = stmt.targets[0];
  return target?.kind === 'name' ? target.name : null;
}

/** A statement that ends the request: `exit`, `die`, `abort(403)`, `process.exit()`, a redirect. */
function endsRequest(stmt: FlowStmt): boolean {
  if (stmt.kind === 'unknown') return /^\s*(exit|die)\b/.test(stmt.text);
  if (stmt.kind !== 'expr' || stmt.expr.kind !== 'call') return false;
  return EXIT_CALLS.test(stmt.expr.callee) && !(stmt.expr.callee === 'Exit' && stmt.expr.receiver?.kind === 'name' && stmt.expr.receiver.name !== 'os');
}

/** The last line any position in `value` names (nested functions to their end). */
function maxLine(value: unknown, nestedEnd: CfgOptions['nestedEnd']): number {
  let best = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) {
      for (const x of v) stack.push(x);
      continue;
    }
    const record = v as Record<string, unknown>;
    if (typeof record.line === 'number' && record.line > best) best = record.line;
    if (record.kind === 'function' && typeof record.qualifiedName === 'string') best = Math.max(best, nestedEnd?.(record.qualifiedName) ?? 0);
    // Only expressions and simple statements come here (a compound statement's bodies are nodes of their
    // own): a conditional expression's `then`/`otherwise` are part of the span.
    for (const x of Object.values(record)) if (typeof x === 'object') stack.push(x);
  }
  return best;
}
