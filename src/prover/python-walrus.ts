/**
 * Python's assignment expressions (`if (found := Model.objects.filter(owner=request.user).first()):`):
 * the name and the value it takes, so a lookup written inside an `if` or `while` binds its local as the
 * same lookup on a line of its own would (Tandoor's `bookmarklet := BookmarkletImport.objects.filter(pk=b_pk,
 * created_by=request.user).first()`).
 */

/** Each `name := value` in `text` (one statement, possibly over several lines), with the value up to where its bracket or the test closes. */
export function walrusAssignments(text: string): { name: string; value: string; at: number }[] {
  const out: { name: string; value: string; at: number }[] = [];
  for (const match of text.matchAll(/(?<![\w.])([A-Za-z_]\w*)\s*:=(?!=)/g)) {
    const start = (match.index ?? 0) + match[0].length;
    out.push({ name: match[1] ?? '', value: valueFrom(text, start).trim(), at: match.index ?? 0 });
  }
  return out;
}

/** The value from `start` to the bracket that encloses it, a comma beside it, or the `:` ending an `if`. */
function valueFrom(text: string, start: number): string {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const ch = text[i] ?? '';
    if (ch === '"' || ch === "'") {
      const end = text.indexOf(ch, i + 1);
      if (end < 0) break;
      i = end;
    } else if ('([{'.includes(ch)) depth++;
    else if (')]}'.includes(ch)) {
      if (depth === 0) return text.slice(start, i);
      depth--;
    } else if (depth === 0 && (ch === ',' || (ch === ':' && /^\s*(#.*)?$/m.test(text.slice(i + 1).split('\n')[0] ?? '')))) return text.slice(start, i);
  }
  return text.slice(start);
}
