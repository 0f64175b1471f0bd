/** A small glob matcher for exempt globs: `*`, `?`, `**` and `**\/`. No RegExp; bounded work. */

function segmentMatches(pattern: string, text: string): boolean {
  // classic two-pointer wildcard match: linear in practice, O(n·m) at worst on tiny inputs
  let p = 0;
  let t = 0;
  let starP = -1;
  let starT = 0;
  while (t < text.length) {
    if (p < pattern.length && (pattern[p] === '?' || pattern[p] === text[t])) {
      p++;
      t++;
    } else if (p < pattern.length && pattern[p] === '*') {
      starP = p++;
      starT = t;
    } else if (starP >= 0) {
      p = starP + 1;
      t = ++starT;
    } else return false;
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}

/** Does a `/`-separated path match a glob? Both should already be lowercased. */
export function globMatches(glob: string, path: string): boolean {
  const patternParts = glob.split('/').filter((part, index) => part.length > 0 || index === 0);
  const pathParts = path.split('/').filter((part, index) => part.length > 0 || index === 0);
  const memo = new Map<string, boolean>();
  const match = (pi: number, ti: number): boolean => {
    const key = `${pi},${ti}`;
    const cached = memo.get(key);
    if (cached !== undefined) return cached;
    let result: boolean;
    if (pi === patternParts.length) result = ti === pathParts.length;
    else if (patternParts[pi] === '**') result = match(pi + 1, ti) || (ti < pathParts.length && match(pi, ti + 1));
    else result = ti < pathParts.length && segmentMatches(patternParts[pi] as string, pathParts[ti] as string) && match(pi + 1, ti + 1);
    memo.set(key, result);
    return result;
  };
  return match(0, 0);
}
