/**
 * The view class's own norm: when a class-based view refuses callers on its page verb (`get` tests the
 * login, a role or the owner, in its body or by a decorator of its own) and its state-changing verb
 * (`post`, `put`, `patch`, `delete`) checks nothing, the author protected the page, not the submission
 * (prover-frameworks.md 0.5): the form posts to the same URL, and whoever skips the page posts anyway
 * (ArchiveBox's `AddLinks.post`, pull request #359). A handler-named row with `verb_norm = true` makes such
 * a submission an obligation; its `requires` are the kinds any check of its own would settle. A
 * submission with any check of its own, or in a class whose page checks nothing, is not under the norm:
 * checks of the whole class (a mixin, a class decorator) cover both verbs alike.
 */
import { lookupClass, type Program } from './resolution.js';
import type { EntryPoint, Witness } from './types.js';

const SUBMISSION_VERBS = new Set(['post', 'put', 'patch', 'delete']);
const PAGE_VERB = 'get';
/** A check the method makes itself: in its body or by a decorator on it. */
const OWN_SCOPES = new Set<Witness['scope']>(['statement', 'decorator']);

function ownChecks(byFunction: ReadonlyMap<string, Witness[]>, functionId: string): Witness[] {
  return (byFunction.get(functionId) ?? []).filter((w) => OWN_SCOPES.has(w.scope) && w.kind !== 'csrf_guard' && w.kind !== 'public');
}

/** True when the entry is a submission verb that checks nothing itself while its class's `get` does. */
export function otherVerbChecks(program: Program, byFunction: ReadonlyMap<string, Witness[]>, entry: EntryPoint): boolean {
  const ref = program.functions.get(entry.functionId);
  if (!ref || !SUBMISSION_VERBS.has(ref.fn.name)) return false;
  if (ownChecks(byFunction, entry.functionId).length > 0) return false;
  const className = ref.fn.qualifiedName.slice(0, Math.max(0, ref.fn.qualifiedName.lastIndexOf('.')));
  if (className === '') return false;
  const cls = lookupClass(program.table, className, entry.path);
  if (!cls || cls.path !== entry.path) return false;
  return cls.methods.some((m) => m.fn.name === PAGE_VERB && ownChecks(byFunction, m.id).length > 0);
}
