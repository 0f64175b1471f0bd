/**
 * A Django or Flask view that sends a caller it refuses elsewhere: `if not request.user.is_authenticated:
 * return redirect("/login/?next=...")`, `if not current_user.is_admin: return redirect(url_for("index"))`.
 * The returned redirect ends the request, so the branch is a refusal, as a `raise PermissionDenied`
 * under the same test is (python-web-checks.ts, refusalWitnesses). A redirect is also how a view answers
 * success (`if form.is_valid(): ... return redirect(...)`) or sends a logged-in user past a login page
 * (`if request.user.is_authenticated: return redirect("/")`), so only a test of the caller that fails
 * for the refused one counts: a negated test of the caller, or a test that the caller is anonymous.
 */
import type { DischargeKind } from './types.js';

/** A `return` of a redirect response. */
export const REDIRECT_REFUSAL = /^\s*return\s+(redirect|HttpResponseRedirect|redirect_to_login)\(/;

/** The logged-in caller as Django and Flask views see it. */
const CALLER = /\b(self\.request\.user|request\.user|current_user|g\.user)\b/;
/** The caller tested for failing: `not request.user...`, or the caller known to be anonymous. */
const FAILED_CALLER_TEST = /\bnot\s+\(?\s*(self\.request\.user|request\.user|current_user|g\.user)\b|\bis_anonymous\b/;

/**
 * The kind a redirect under `condition` (the branch head's test, an `else` arm's as `not (...)`) proves,
 * or null when the test is not the caller's own failing test. `kindOf` reads what the test is about.
 */
export function redirectRefusalKind(condition: string, kindOf: (condition: string) => DischargeKind | null): DischargeKind | null {
  if (!CALLER.test(condition) || !FAILED_CALLER_TEST.test(condition)) return null;
  return kindOf(condition);
}
