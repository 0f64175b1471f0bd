/**
 * The checker: an operation reached from an entry on a path with no dominating witness of a kind the
 * operation requires is a finding. A statement witness dominates when, on the control-flow graph of its
 * function (dominance.ts, cfg.ts), it decides every path to the operation (or to the call to the next
 * hop in an earlier hop's function) and its failing arm cannot reach it; where no graph can be built,
 * when it sits before it by statement order, and the finding says so. Decorator, class, router and
 * baseline witnesses cover their whole function. A declared-public entry drops `path_guard` from what is required (and only that),
 * and with it the kinds a row lists as `alternatives`.
 * Entries are assumed protected (`assumeEntriesProtected`): with no declared policy and no sibling norm the
 * finding is labelled `unguarded_path`; when other handlers of the same class check, `sibling_norm`; when
 * only a login check guards an operation that needs more, `authn_only`.
 */
import { createHash } from 'node:crypto';
import type { Facts } from './facts.js';
import { collectionChecks } from './checked-collections.js';
import { operatedOwner, type PossessionCheck } from './ownership.js';
import type { Program } from './resolution.js';
import { unboundResource, type UnboundResource } from './resource-binding.js';
import type { WitnessSet } from './enforcement.js';
import { judgeGrant } from './privilege-grants.js';
import { authenticationBookkeeping } from './credential-bookkeeping.js';
import { staffOnOwnedRecord } from './owned-records.js';
import { fileDeclaresPermissions } from './sibling-norm.js';
import { objectCheckNorm } from './object-check-norm.js';
import { otherVerbChecks } from './verb-norm.js';
import { judgeHop, type CheckShape, type ControlFlow, type HopJudgement } from './dominance.js';
import { handlerWorkLines, judgeHandler } from './handler-operations.js';
import { sufficientChecks } from './permission-strength.js';
import { missingHierarchy } from './role-hierarchy.js';
import { withoutMemberships } from './tenant-access.js';
import type { DischargeKind, EntryPoint, FindingLabel, OperationSite, PathRecord, ProverFinding, Witness } from './types.js';

export const PROVER_RULE = 'jscr/prover-unguarded-operation';

/** Input of `checkObligations`. */
export interface CheckInput {
  program: Program;
  entries: ReadonlyMap<string, EntryPoint>;
  /** Complete paths, each ending at a function that holds operations. */
  paths: readonly PathRecord[];
  /** Function id → the operations it holds. */
  operations: ReadonlyMap<string, OperationSite[]>;
  witnesses: WitnessSet;
  /** Label undischarged operations on recognised entries as findings even with no declared policy (default true). */
  assumeEntriesProtected?: boolean;
  /** Change mode: keep only paths through one of these functions (or operations on these lines). */
  touched?: { functions: ReadonlySet<string>; lines: ReadonlyMap<string, ReadonlySet<number>> } | null;
  /** The facts, for ownership through the current user (without them that discharge is not tried). */
  facts?: Facts;
  /** Control-flow graphs of the functions with statement checks (dominance.ts); without them, order dominance. */
  control?: ControlFlow;
}

/** What the graph needs of a statement check: its call, and whether its value must be branched on. */
export function shapeOf(w: Witness): CheckShape {
  return { callee: w.callee ?? null, value: w.valueChecked === true };
}

/** Output of `checkObligations`. */
export interface CheckOutput {
  findings: ProverFinding[];
  /** Operation site keys reached by at least one complete path. */
  checked: Set<string>;
  /** Of those, the ones every path discharges. */
  discharged: Set<string>;
}

/** A stable key of an operation site. */
export function siteKey(op: OperationSite): string {
  return `${op.functionId}#${op.line}#${op.operationId}`;
}

function describe(w: Witness): string {
  return `${w.evidence} (${w.kind})`;
}

/**
 * Ownership proved against a current user that is the guest account when nobody is logged in
 * (guest-users.ts) holds only where a login check dominates too: an anonymous visitor is that guest.
 */
export function dropGuestOpenOwnership(dominating: Witness[]): void {
  if (dominating.some((w) => w.kind === 'authn')) return;
  for (let i = dominating.length - 1; i >= 0; i--) if (dominating[i]!.guestOpen === true) dominating.splice(i, 1);
}

/** Judge every (path, operation) pair. */
export function checkObligations(input: CheckInput): CheckOutput {
  const assume = input.assumeEntriesProtected ?? true;
  const out: CheckOutput = { findings: [], checked: new Set(), discharged: new Set() };
  const undischarged = new Set<string>();
  const reported = new Set<string>();
  const callFindingEntries = new Set<string>();
  const handlerNamed: { op: OperationSite; path: PathRecord; finding: ProverFinding }[] = [];

  for (const path of input.paths) {
    const entry = input.entries.get(path.entry);
    if (!entry || !path.complete) continue;
    const last = path.hops[path.hops.length - 1];
    if (!last) continue;
    const ops = input.operations.get(last.functionId) ?? [];
    for (const op of ops) {
      // A handler-named operation is the entry itself; it is reached only when the entry is the target.
      if (op.handlerNamed && (path.hops.length !== 1 || op.functionId !== entry.functionId)) continue;
      if (input.touched && !pathTouches(path, op, input.touched)) continue;
      if (op.onlyFrom && !answersWith(input, entry, path, op.onlyFrom, op.answerThroughLocals === true)) continue;
      if (op.siblingNorm && !fileDeclaresPermissions(input.program, input.entries, input.witnesses.byFunction, entry, normBody(input, op))) continue;
      if (op.verbNorm && !otherVerbChecks(input.program, input.witnesses.byFunction, entry)) continue;
      const key = siteKey(op);
      out.checked.add(key);
      const isPublic = entry.access === 'public' || input.witnesses.publicEntries.has(entry.functionId);
      const needed = op.requires.filter((k) => !(isPublic && k === 'path_guard'));
      if (needed.length === 0) continue;
      // What else discharges it counts only where something is still needed (a declared-public entry's file write needs nothing).
      const required = isPublic ? needed : [...needed, ...(op.alternatives ?? [])];
      // A login, registration or SSO callback creating or updating the account it authenticates does what it is for.
      if (input.witnesses.authFlows.get(entry.functionId)?.actsOn.has(op.kind) || authenticationBookkeeping(input.program, path, op)) continue;
      let dominating: Witness[] = [];
      const seen: Witness[] = [];
      let byOrder: string | null = null;
      const uncovered: HopJudgement['uncovered'] = [];
      // The facts of the operation's language, read once for the handler's work lines and the row's permissions.
      const opFacts = input.facts?.[input.program.byPath.get(op.path)?.factsLanguage ?? 'java'];
      path.hops.forEach((hop, i) => {
        const isLast = i === path.hops.length - 1;
        const list = input.witnesses.byFunction.get(hop.functionId) ?? [];
        seen.push(...list);
        // A handler-named operation is what the method does: its checks must come before each line of work.
        const judged = isLast && op.handlerNamed ? judgeHandler(input.control, hop.functionId, list, handlerWorkLines(input.program, opFacts, hop.functionId, list), shapeOf) : judgeHop(input.control, hop.functionId, list, isLast ? op.line : (hop.callLine ?? 0), isLast, shapeOf);
        dominating.push(...judged.dominating);
        // A batch acting on the items a check let through: the check covers each item added (checked-collections.ts).
        if (!op.handlerNamed && !judged.dominating.some((w) => required.includes(w.kind))) dominating.push(...collectionChecks(input.program, hop.functionId, isLast ? op.line : (hop.callLine ?? 0), (line) => judgeHop(input.control, hop.functionId, list, line, false, shapeOf).dominating));
        byOrder ??= judged.byOrder;
        uncovered.push(...judged.uncovered);
      });
      dropGuestOpenOwnership(dominating);
      // A check on a permission that does not grant the operation (Item/Build for using a secret) discharges nothing.
      const row = opFacts?.operations.find((o) => o.id === op.operationId);
      const permissions = row?.insufficientPermissions ?? [];
      if (permissions.length > 0) dominating.splice(0, dominating.length, ...sufficientChecks(input.program, permissions, dominating));
      // Writing a tenant's groups, members or tokens needs a role there, not a membership (tenant-access.ts).
      const tenant = row?.administersTenant === true ? withoutMemberships(input.program, op, dominating) : null;
      if (tenant) dominating.splice(0, dominating.length, ...tenant.remaining);
      // A privilege grant is settled only by a check of the caller's own privilege (privilege-grants.ts).
      if (op.heldBy) {
        const grant = judgeGrant(input.program, input.witnesses.byFunction, path, op, dominating);
        if (grant.discharged) continue;
        dominating = grant.remaining;
      }
      // A user's own record the request picked is not settled by staff status (owned-records.ts).
      const staffOnly = staffOnOwnedRecord(input.program, opFacts, path, op, dominating);
      if (staffOnly) dominating = staffOnly.remaining;
      // A resource-bound operation on an object the request chose needs a check bound to that object.
      // A class whose other handlers check objects one by one leaves no object to a permission naming none (object-check-norm.ts).
      const unbound = dominating.some((w) => required.includes(w.kind)) ? (resourceUnbound(input, entry, path, op, dominating, required) ?? objectCheckNorm(input.program, opFacts, input.entries, entry, path, op)) : undefined;
      // A role-guarded write to access rows the project ranks by role needs the ranks compared too (role-hierarchy.ts).
      const hierarchy = unbound === null && tenant && dominating.some((w) => w.kind === 'path_guard') ? missingHierarchy(input.program, path, op) : null;
      if (unbound === null && hierarchy === null) continue;
      // Acting on one's own object is ownership: the logged-in user's records (provided someone must be
      // logged in), a row this request created, the caller's session, a record whose secret was verified.
      // Unless the class's other actions declare a permission this one lacks: then acting on one's own
      // data does not settle it (the report the siblings guard is exported here without its permission).
      if (required.includes('ownership_check') && (tenant?.memberships.length ?? 0) === 0 && hierarchy === null && ownsObject(input, path, op, dominating) && !declaredPermissionNorm(input, entry, dominating)) continue;
      undischarged.add(key);
      const reportKey = `${entry.functionId}\0${key}`;
      if (reported.has(reportKey)) continue;
      reported.add(reportKey);
      const finding = makeProverFinding(input, entry, path, op, required, dominating, seen, unbound ?? staffOnly?.unbound);
      finding.weakerChecks.push(...(tenant?.memberships ?? []), ...(hierarchy === null ? [] : [hierarchy]));
      if (hierarchy !== null) finding.label = 'sibling_norm';
      if (input.control !== undefined) {
        // A check of a required kind the graph saw, and why it does not cover the operation.
        finding.weakerChecks.push(...uncovered.filter((u) => required.includes(u.witness.kind)).map((u) => u.why));
        finding.dominance = byOrder === null ? { judgedBy: 'control_flow' } : { judgedBy: 'order', reason: byOrder };
      }
      if (op.handlerNamed) handlerNamed.push({ op, path, finding });
      else {
        callFindingEntries.add(entry.functionId);
        out.findings.push(finding);
      }
    }
  }
  // A handler-named operation speaks only when no listed operation was found behind the same entry.
  for (const { finding, op } of handlerNamed) {
    if (!callFindingEntries.has(op.functionId)) out.findings.push(finding);
  }
  for (const key of out.checked) if (!undischarged.has(key)) out.discharged.add(key);
  if (!assume) out.findings = out.findings.filter((f) => f.label !== 'unguarded_path');
  out.findings.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line || (a.entry.function < b.entry.function ? -1 : 1)));
  return out;
}

/**
 * True when what the operation reads goes into the answer of an entry a read row names: the entry's
 * handler name matches, and each hop returns what the next one gives back (`return helper(context);`).
 * A read a helper uses for itself (looking an endpoint up to build a credentials query) is no answer.
 */
function answersWith(input: CheckInput, entry: EntryPoint, path: PathRecord, names: readonly RegExp[], throughLocals: boolean): boolean {
  const name = input.program.functions.get(entry.functionId)?.fn.name ?? '';
  if (!names.some((re) => re.test(name))) return false;
  return path.hops.slice(0, -1).every((hop) => {
    const ref = input.program.functions.get(hop.functionId);
    const file = input.program.byPath.get(ref?.path ?? '');
    if (hop.callLine === null || !file || !ref) return false;
    const line = file.lines[hop.callLine - 1] ?? '';
    if (/^\s*return\b/.test(line)) return true;
    // `$text = $formatter->toMarkdown($chapter);` then `return download($text);`: a local the hop returns.
    const local = throughLocals ? /^\s*\$(\w+)\s*=(?!=)/.exec(line)?.[1] : undefined;
    return local !== undefined && file.lines.slice(hop.callLine, ref.fn.endLine).some((l) => /^\s*return\b/.test(l) && new RegExp(String.raw`\$${local}\b`).test(l));
  });
}

/** For a resource-bound operation: null when a check binds its object (or the request did not choose it), else what is unchecked. */
function resourceUnbound(input: CheckInput, entry: EntryPoint, path: PathRecord, op: OperationSite, dominating: readonly Witness[], required: readonly DischargeKind[]): UnboundResource | null {
  const language = input.program.byPath.get(op.path)?.factsLanguage;
  if (!input.facts || !language) return null;
  return unboundResource({ program: input.program, facts: input.facts[language], entry, path, op, dominating, required, byFunction: input.witnesses.byFunction });
}

/** The operation acts on the caller's own object (see ownership.ts). */
function ownsObject(input: CheckInput, path: PathRecord, op: OperationSite, dominating: readonly Witness[]): boolean {
  const language = input.program.byPath.get(op.path)?.factsLanguage;
  if (!input.facts || !language) return false;
  const facts = input.facts[language];
  const possessionRows = new Set(facts.dischargers.filter((d) => d.possession).map((d) => d.id));
  const possession = new Map<string, PossessionCheck[]>();
  for (const w of dominating) {
    if (w.line === null || !possessionRows.has(w.dischargerId)) continue;
    possession.set(w.functionId, [...(possession.get(w.functionId) ?? []), { line: w.line }]);
  }
  const owner = operatedOwner(input.program, facts, path, op, possession);
  return owner !== null && (!owner.viaLogin || dominating.some((w) => w.kind === 'authn'));
}

function pathTouches(path: PathRecord, op: OperationSite, touched: NonNullable<CheckInput['touched']>): boolean {
  if (touched.lines.get(op.path)?.has(op.line)) return true;
  return path.hops.some((hop) => touched.functions.has(hop.functionId));
}

export function makeProverFinding(
  input: CheckInput,
  entry: EntryPoint,
  path: PathRecord,
  op: OperationSite,
  required: DischargeKind[],
  dominating: Witness[],
  seen: Witness[],
  unbound: UnboundResource | undefined,
): ProverFinding {
  const { program } = input;
  // The framework's own login baseline is not a check the developer wrote: it does not earn `authn_only`.
  const authnOnly = dominating.some((w) => w.kind === 'authn' && w.scope !== 'baseline');
  let label: FindingLabel = 'unguarded_path';
  if (unbound) label = 'resource_unbound';
  else if (authnOnly) label = 'authn_only';
  else if (siblingNorm(input, entry, required)) label = 'sibling_norm';
  const confidence = label === 'sibling_norm' || label === 'resource_unbound' ? 0.8 : label === 'authn_only' ? 0.7 : 0.6;
  const weaker = [...new Set([...seen.filter((w) => !required.includes(w.kind)).map(describe)])];
  for (const hop of path.hops) for (const inert of input.witnesses.inert.get(hop.functionId) ?? []) weaker.push(inert);
  const opFn = program.functions.get(op.functionId);
  const file = program.byPath.get(op.path);
  const evidence = (file?.lines[op.line - 1] ?? op.call).trim();
  const id = createHash('sha256').update(`${PROVER_RULE}\0${entry.functionId}\0${op.functionId}\0${op.operationId}\0${evidence}`).digest('hex').slice(0, 12);
  return {
    id,
    rule: PROVER_RULE,
    label,
    path: op.path,
    line: op.line,
    function: opFn?.fn.qualifiedName ?? op.functionId,
    entry: { path: entry.path, function: entry.function, line: entry.line, framework: entry.framework, evidence: entry.evidence },
    hops: path.hops.slice(0, -1).map((hop) => {
      const fn = program.functions.get(hop.functionId);
      return { function: fn?.fn.qualifiedName ?? hop.functionId, path: fn?.path ?? '', callLine: hop.callLine ?? 0 };
    }),
    operation: { id: op.operationId, kind: op.kind, line: op.line, call: op.call },
    missing: required.join('|'),
    weakerChecks: weaker,
    severity: op.severity,
    confidence,
    cwe: unbound ? 'CWE-639' : missingCheckCwe(required),
    evidence,
    ...(unbound ? { unboundResource: unbound } : {}),
  };
}

/**
 * A prover finding is a missing check, whatever the operation does: CWE-862 (missing authorization)
 * when a permission check is wanted, CWE-639 when only the object's owner is unchecked, CWE-306 when
 * only a login is. The operation's own CWE (CWE-78 for a process start) would read as injection.
 */
function missingCheckCwe(required: readonly DischargeKind[]): string {
  if (required.includes('path_guard')) return 'CWE-862';
  if (required.includes('ownership_check')) return 'CWE-639';
  if (required.includes('authn')) return 'CWE-306';
  return 'CWE-862';
}

/**
 * True when every other entry of the entry's class declares a permission (a decorator or attribute
 * check: `#[IsGranted('report:x')]`) and the entry itself has no permission check on its path.
 */
function declaredPermissionNorm(input: CheckInput, entry: EntryPoint, dominating: readonly Witness[]): boolean {
  if (dominating.some((w) => w.kind === 'path_guard')) return false;
  const own = input.program.functions.get(entry.functionId);
  const className = own?.fn.className;
  if (!own || !className) return false;
  const siblings = [...input.entries.values()].filter((other) => other.functionId !== entry.functionId && other.path === entry.path && input.program.functions.get(other.functionId)?.fn.className === className);
  return siblings.length > 0 && siblings.every((other) => (input.witnesses.byFunction.get(other.functionId) ?? []).some((w) => w.scope === 'decorator' && w.kind === 'path_guard'));
}

/** True when other entries of the same class carry a check of a required kind: the class's own norm. */
function siblingNorm(input: CheckInput, entry: EntryPoint, required: DischargeKind[]): boolean {
  const own = input.program.functions.get(entry.functionId);
  const className = own?.fn.className;
  if (!own || !className) return false;
  for (const other of input.entries.values()) {
    if (other.functionId === entry.functionId || other.path !== entry.path) continue;
    const fn = input.program.functions.get(other.functionId);
    if (fn?.fn.className !== className) continue;
    const checks = input.witnesses.byFunction.get(other.functionId) ?? [];
    if (checks.some((w) => (w.scope === 'statement' || w.scope === 'decorator') && required.includes(w.kind))) return true;
  }
  return false;
}

/** What a sibling-norm row says the handler reads (its `body`): the class norm compares the handlers that read alike. */
function normBody(input: CheckInput, op: OperationSite): RegExp | null {
  const language = input.program.byPath.get(op.path)?.factsLanguage;
  return (language && input.facts?.[language].operations.find((row) => row.id === op.operationId)?.body) || null;
}
