/**
 * Removed checks: a change that deletes a check (a guard call, a refusal, a decorator or attribute)
 * from a function on a finding's path leaves the operation below it unguarded. The finding is then
 * reported on the change like any other; this module says why: the removed line, where it stood, read
 * as a check by the same rows (dischargers, declared guards, the project's own helpers) that recognise
 * checks in code.
 */
import type { Facts } from './facts.js';
import { nodeAt, nodesUnderClassHead, normaliseReceiver, type Program } from './resolution.js';
import type { ProverFinding } from './types.js';

/** Lines a change removed, per file, at the new-side line where each stood. */
export type RemovedLines = ReadonlyMap<string, readonly { line: number; text: string }[]>;

export interface RemovedCheckInput {
  program: Program;
  facts: Facts;
  removed: RemovedLines;
  /** Names that are checks in this repository: declared guards and the helpers the witnesses name. */
  checkNames: ReadonlySet<string>;
}

/** Calls written on a line: `name(`, `a.b(`, `$this->authorize(`, `Gate::allows(`. */
const CALL = /([A-Za-z_$][\w$]*(?:(?:\?\.|\.|->|::)[A-Za-z_$][\w$]*)*)\s*\(/g;
/** A decorator, annotation or attribute line (`@login_required`, `#[IsGranted('x')]`). */
export const DECORATOR = /^\s*(?:@([\w.]+(?:\(.*\))?)|#\[(.+)\]\s*$)/;

/**
 * A refusal written as a statement: an access-denied exception raised or thrown (`raise PermissionDenied`,
 * `throw new AuthorizationException`), an abort or a response with 401/403. Its condition is the check;
 * the refusal is the line that makes it one, whatever the test was called.
 */
const REFUSAL = /\b(raise|throw)\b[^;]*\b\w*(PermissionDenied|Forbidden|AccessDenied|Unauthori[sz]ed|AuthorizationException|NotAuthorized)\w*|\babort\(\s*40[13]\b|\.(status|sendStatus)\(\s*40[13]\s*\)|\bHttpResponseForbidden\(/;

/** Whether a removed line is a check, by the rows of its file's language. */
function isCheck(text: string, rows: Facts[keyof Facts]['dischargers'], checkNames: ReadonlySet<string>): boolean {
  if (REFUSAL.test(text) || rows.some((row) => row.kind !== 'public' && row.comparisons.some((re) => re.test(text)))) return true;
  const decorator = DECORATOR.exec(text);
  if (decorator) {
    const written = decorator[1] ?? decorator[2] ?? '';
    if (rows.some((row) => row.decorators.some((re) => re.test(written)))) return true;
  }
  for (const match of text.matchAll(CALL)) {
    const signature = normaliseReceiver(match[1] ?? '');
    const name = signature.slice(signature.lastIndexOf('.') + 1);
    if (checkNames.has(name) || checkNames.has(signature)) return true;
    if (rows.some((row) => row.kind !== 'csrf_guard' && row.kind !== 'public' && row.calls.some((re) => re.test(signature) || re.test(name)) && (row.line === null || row.line.test(text)))) return true;
  }
  return false;
}

/** Each finding with the checks the change removed from its path's functions (entry, hops, the operation's function). */
export function withRemovedChecks(findings: readonly ProverFinding[], input: RemovedCheckInput): ProverFinding[] {
  if (input.removed.size === 0) return [...findings];
  // removed checks, by the function (path and qualified name) they stood in
  const byFunction = new Map<string, { path: string; line: number; text: string }[]>();
  for (const [path, lines] of input.removed) {
    const file = input.program.byPath.get(path);
    if (!file) continue;
    const rows = input.facts[file.factsLanguage].dischargers;
    for (const removed of lines) {
      if (removed.text.trim() === '' || !isCheck(removed.text, rows, input.checkNames)) continue;
      // a check in a function, or one written on a class's head, which stood before each of its methods
      const node = nodeAt(input.program, file.ir, removed.line);
      for (const governed of node ? [node] : nodesUnderClassHead(input.program, file.ir, removed.line)) {
        const key = `${path}\u0000${governed.fn.qualifiedName}`;
        const list = byFunction.get(key) ?? [];
        list.push({ path, line: removed.line, text: removed.text.trim().slice(0, 200) });
        byFunction.set(key, list);
      }
    }
  }
  if (byFunction.size === 0) return [...findings];
  return findings.map((f) => {
    const onPath = [`${f.entry.path}\u0000${f.entry.function}`, ...f.hops.map((h) => `${h.path}\u0000${h.function}`), `${f.path}\u0000${f.function}`];
    const removed = [...new Set(onPath)].flatMap((key) => byFunction.get(key) ?? []);
    return removed.length === 0 ? f : { ...f, removedChecks: removed };
  });
}
