/**
 * TypeScript/JavaScript refusals whose kind is their test's. First those written as a returned value,
 * not a call: a service or controller that
 * answers `if (tag?.ownerId !== userId) return { response: 'Permission denied.', status: 401 }` and
 * leaves its handler to send `res.status(result.status)`. The function stops there, so what follows in
 * it runs only when the test passed; the test, not the status, says what was checked (an owner id
 * compared with the caller's → ownership, a role or permission test → role, a null test of the caller
 * → login), as for Python's `return {...}, 403` (python-web-checks.ts, refusalWitnesses).
 *
 * Then refusals answered by a call (`return res.status(401).json(...)`, `new Response(..., { status: 401 })`),
 * which the `ts.respond-*` and `ts.express-status-*` rows of ruleset/obligations/typescript.toml read
 * by their status alone (a 401 as a login check): under an owner comparison they are ownership checks.
 *
 * Only the refusing function is guarded: a returned value goes to its caller, which goes on, so these
 * witnesses are never carried to call sites (enforcement.ts's helper summaries skip them).
 */
import { closing, splitBoolean } from './branches.js';
import type { DischargeKind } from './types.js';

export const RETURNED_REFUSAL = 'ts.refusal-kind-by-test';

/** `return {` opening an object literal (a call's argument is not this: `return json({...})`). */
const RETURNED_OBJECT = /\breturn\s*\{/;
/**
 * A refusal answered by a call (`return res.status(401).json(...)`, `throw new Response(..., { status: 401 })`):
 * the `ts.respond-*`/`ts.express-status-*` rows read it by its status alone, so a 401 is a login check
 * there; under an owner comparison it is that comparison's refusal.
 */
const RESPONDED = /\b(?:return|throw)\b[\s\S]*?(?:\.(?:status|sendStatus)\(\s*(40[134])\s*\)|\bstatus\s*:\s*(40[134])\b)/;
/** The refusal statuses: 401 and 403; 404 ("not found or not yours") only under an ownership test. */
const STATUS = /\bstatus\s*:\s*(40[134])\b/;
/** The caller's own id as code names it: a `userId` parameter, `user.id`, `session.user.id`, `req.user.id`. */
const CALLER_ID = String.raw`(?:(?:current|session|auth|logged[Ii]n|request|req)?[Uu]ser[Ii]d|(?:(?:req|request|ctx|session|auth)\??\.)?(?:user|currentUser|sessionUser|authUser|me|viewer)\??\.id)\b`;
/** A record's id read from it (`tag?.ownerId`, `link.collection.userId`, `post.authorId`). */
const RECORD_ID = String.raw`[\w$]+(?:\??\.[\w$]+)*\??\.(?:\w*Id|id)\b`;
const MISMATCH = new RegExp(String.raw`${RECORD_ID}\s*!==?\s*${CALLER_ID}|${CALLER_ID}\s*!==?\s*${RECORD_ID}`);
const MATCH = new RegExp(String.raw`${RECORD_ID}\s*===?\s*${CALLER_ID}|${CALLER_ID}\s*===?\s*${RECORD_ID}`);
const ROLE_TEST = /\b(is|has)?(admin|Admin|superuser|Superuser|staff|Staff)\b|\brole(s)?\b|\.role\b|[Pp]ermission|\bcan[A-Z]\w*|\bhas(Role|Permission|Access)\w*/;
/** A test that the caller is missing: `!user`, `!session?.user`, `userId == null`. */
const MISSING_CALLER = /^\s*!\s*(user|session|currentUser|userId|token)\b[\w$?.]*\s*$|^\s*(user|session|currentUser|userId)\b[\w$?.]*\s*===?\s*(null|undefined)\s*$/;

/** A refusal in an `if`'s failing arm: its status, and whether it is a returned value or a response call. */
export interface ArmRefusal {
  status: string;
  form: 'value' | 'call';
}

/**
 * The refusal in `arm` (the text of an `if`'s failing branch; `rest`, the function's text after it,
 * where an object literal the branch opens may go on), or null when the arm refuses with no such status.
 */
export function armRefusal(arm: string, rest: string): ArmRefusal | null {
  const at = RETURNED_OBJECT.exec(arm);
  if (!at) {
    const status = RESPONDED.exec(arm)?.slice(1).find((s) => s !== undefined);
    return status === undefined ? null : { status, form: 'call' };
  }
  // The literal's own keys: the text up to its closing brace, nested objects included.
  const text = `${arm}\n${rest}`;
  const close = closing(text, at.index + at[0].length - 1);
  const end = close < 0 ? text.length : close;
  const status = STATUS.exec(text.slice(at.index, end))?.[1];
  return status === undefined ? null : { status, form: 'value' };
}

/** A permit the caller lacks (`!memberHasAccess`, `!isAdmin(user)`): the other ways a refusal lets a caller through. */
const LACKED_PERMIT = /^\s*!\s*[\w$]+(?:\??\.[\w$]+)*(?:\([^()]*\))?\s*$/;

/**
 * What a failing test proves when its arm returns a refusal with `status`, or null when it names none.
 * `owner !== me && !permit` refuses unless the caller owns the record or holds the permit, so it is an
 * ownership test too; any other `&&` narrows where the refusal applies, which proves nothing.
 */
export function returnedRefusalKind(condition: string, refusal: ArmRefusal): DischargeKind | null {
  const kind = testedKind(condition, refusal.status);
  // A response call is read by its status already (the rows above); only an owner comparison says more.
  return refusal.form === 'call' && kind !== 'ownership_check' ? null : kind;
}

function testedKind(condition: string, status: string): DischargeKind | null {
  const terms = splitBoolean(condition, '&&');
  if (terms.length > 1) {
    const owner = terms.filter((t) => MISMATCH.test(t));
    return owner.length === 1 && terms.every((t) => owner.includes(t) || LACKED_PERMIT.test(t)) ? 'ownership_check' : null;
  }
  const negatedMatch = /^\s*!\s*\(/.test(condition) && MATCH.test(condition);
  if (MISMATCH.test(condition) || negatedMatch) return 'ownership_check';
  if (status === '404') return null;
  if (ROLE_TEST.test(condition)) return 'path_guard';
  if (MISSING_CALLER.test(condition)) return 'authn';
  return null;
}
