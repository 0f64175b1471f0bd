/**
 * A middleware's denial of a user without a role, written on the user itself rather than through a
 * gate (pixelfed's `Admin` middleware: `if (Auth::check() == false || Auth::user()->is_admin == false)
 * return redirect(...)`). One disjunct of the denial's condition tests that the current user lacks a
 * role flag or role predicate; the request goes on only for users that hold it, so the middleware is a
 * permission check. Only names that say a role count (admin, super user, staff, moderator, a role or
 * permission predicate, `can...`): `is_active` or `isVerified()` says nothing about permissions.
 */

/** A user member that names a role: `is_admin`, `isAdmin()`, `admin`, `is_superuser`, `hasRole(...)`, `can(...)`. */
const ROLE_MEMBER = String.raw`->\s*(?:(?:is_?)?(?:admin|super_?admin|super_?user|superuser|staff|moderator|mod|owner)\w*(?:\s*\([^)]*\))?|has(?:Any)?(?:Role|Permission)s?\w*\s*\([^)]*\)|can\w*\s*\([^)]*\))`;

/** A disjunct true when the current user lacks the role: negated, or compared with false/0/not true. */
export function roleTestDenial(currentUsers: readonly RegExp[]): (disjunct: string) => boolean {
  const users = currentUsers.map((re) => re.source).join('|');
  if (users === '') return () => false;
  const member = `(?:${users})${ROLE_MEMBER}`;
  const negated = new RegExp(String.raw`^!\s*(?:${member})\s*\)*$`, 'i');
  const comparedFalse = new RegExp(String.raw`^\(*\s*(?:${member})\s*(?:===?\s*(?:false|0)|!==?\s*(?:true|1))\s*\)*$`, 'i');
  const falseFirst = new RegExp(String.raw`^\(*\s*(?:false|0)\s*===?\s*(?:${member})\s*\)*$`, 'i');
  return (disjunct) => {
    const text = disjunct.trim();
    return negated.test(text) || comparedFalse.test(text) || falseFirst.test(text);
  };
}
