/**
 * The caller index (built once per run over the repository's own files) and `composePaths`, which walks
 * callers backwards from a target function to the entry points that reach it, within a depth and a
 * fan-out bound. Paths come out entry first; targets no entry reaches are listed as unreached.
 */
import { nodeAt, resolveCall, type Program } from './resolution.js';
import type { Hop, PathRecord } from './types.js';

/** One call site of a function: the calling node and the line of the call. */
interface CallerSite {
  callerId: string;
  line: number;
}

/** Callee function id → its call sites; callee id → functions it calls (for walking down). */
export interface CallerIndex {
  callers: Map<string, CallerSite[]>;
  callees: Map<string, Set<string>>;
  /** Reason → count of calls that could not be bound to a repository function. */
  unresolved: Record<string, number>;
}

/** Resolve every call of every file once. */
export function buildCallerIndex(program: Program): CallerIndex {
  const index: CallerIndex = { callers: new Map(), callees: new Map(), unresolved: {} };
  const seen = new Set<string>();
  for (const file of program.files) {
    // Calls on one line share their enclosing function: looked up once per line, not once per call
    // (a minified file has every call on line 1, and each lookup scans the file's functions).
    const callerByLine = new Map<number, ReturnType<typeof nodeAt>>();
    for (const call of file.ir.calls) {
      let caller = callerByLine.get(call.line);
      if (caller === undefined) callerByLine.set(call.line, (caller = nodeAt(program, file.ir, call.line)));
      if (!caller) continue;
      // Prefilter: a name no repository function carries cannot reach one.
      if (call.kind !== 'new' && !program.byName.has(call.callee)) continue;
      const resolution = resolveCall(program, file, caller.fn, call);
      // Counted apart: an untyped receiver followed by its name alone (one project method has it), one not
      // followed (several have it), and a library object whose method shares a project method's name.
      const reason = resolution.unresolved === 'receiver_unresolved' && resolution.targets.length > 0 ? 'receiver_followed_by_name' : resolution.unresolved;
      if (reason === 'receiver_unresolved' || reason === 'receiver_followed_by_name' || reason === 'library_receiver') index.unresolved[reason] = (index.unresolved[reason] ?? 0) + 1;
      for (const target of resolution.targets) {
        if (target.id === caller.id) continue; // recursion adds no path
        const key = `${target.id}\0${caller.id}\0${call.line}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const list = index.callers.get(target.id);
        if (list) list.push({ callerId: caller.id, line: call.line });
        else index.callers.set(target.id, [{ callerId: caller.id, line: call.line }]);
        let down = index.callees.get(caller.id);
        if (!down) index.callees.set(caller.id, (down = new Set()));
        down.add(target.id);
      }
    }
  }
  for (const list of index.callers.values()) list.sort((a, b) => (a.callerId < b.callerId ? -1 : a.callerId > b.callerId ? 1 : a.line - b.line));
  return index;
}

/** Input of `composePaths`. */
export interface ComposeInput {
  callers: (functionId: string) => readonly CallerSite[];
  entries: ReadonlySet<string>;
  targets: readonly string[];
  /** Most call edges between an entry and a target (default 3). */
  maxDepth?: number;
  /** Most callers followed from one function (default 25); the rest are cut and counted. */
  fanOut?: number;
  /** Most paths kept per target (default 200). */
  maxPathsPerTarget?: number;
}

/** Output of `composePaths`. */
export interface ComposeResult {
  /** Complete paths (first hop is an entry), entry first; the last hop is the target. */
  paths: PathRecord[];
  /** Targets no entry reaches within the bounds. */
  unreached: string[];
  /** Functions whose callers were cut by the fan-out bound. */
  fanOutCuts: number;
  /** Walks that stopped at the depth bound while callers remained. */
  depthCuts: number;
  /** Targets whose paths were cut by the per-target path limit. */
  pathLimitCuts: number;
}

/** Every complete path from an entry to each target, within the bounds. */
export function composePaths(input: ComposeInput): ComposeResult {
  const maxDepth = input.maxDepth ?? 3;
  const fanOut = input.fanOut ?? 25;
  const limit = input.maxPathsPerTarget ?? 200;
  const result: ComposeResult = { paths: [], unreached: [], fanOutCuts: 0, depthCuts: 0, pathLimitCuts: 0 };
  const cutCounted = new Set<string>();
  for (const target of input.targets) {
    const found: PathRecord[] = [];
    let limited = false;
    // Depth-first walk up the callers; `suffix` holds the hops below the current function, target last.
    const walk = (fnId: string, suffix: Hop[], onPath: Set<string>): void => {
      if (found.length >= limit) {
        limited = true;
        return;
      }
      if (input.entries.has(fnId)) found.push({ hops: suffix, entry: fnId, complete: true });
      const depth = suffix.length - 1;
      const sites = input.callers(fnId);
      if (sites.length === 0) return;
      if (depth >= maxDepth) {
        result.depthCuts++;
        return;
      }
      if (sites.length > fanOut && !cutCounted.has(fnId)) {
        cutCounted.add(fnId);
        result.fanOutCuts++;
      }
      for (const site of sites.slice(0, fanOut)) {
        if (onPath.has(site.callerId)) continue;
        onPath.add(site.callerId);
        walk(site.callerId, [{ functionId: site.callerId, callLine: site.line }, ...suffix], onPath);
        onPath.delete(site.callerId);
      }
    };
    walk(target, [{ functionId: target, callLine: null }], new Set([target]));
    if (limited) result.pathLimitCuts++;
    if (found.length === 0) result.unreached.push(target);
    // Shortest first, so the first unguarded path reported is the most direct one.
    found.sort((a, b) => a.hops.length - b.hops.length);
    result.paths.push(...found);
  }
  return result;
}
