/**
 * A refusal under a flag: `if not rw: raise PermissionDenied`, `if not writable: return
 * HttpResponseForbidden()`. The flag's name says nothing, so what the refusal proves is read from where
 * the flag was set, in the function or in the repository function that answered it
 * (`check, rw = _get_check_for_user(request, code)`):
 *
 * - `True` set (or returned) under a test of the caller: that test's kind (`if request.user.is_superuser:
 *   return check, True` is a role, `if request.user.id == check.project.owner_id:` the caller's ownership);
 * - a lookup keyed by the caller (`get_object_or_404(Member, project=p, user=request.user)`), or a field of
 *   one (`membership.is_rw`): the caller's own membership;
 * - a comparison that names the caller's role or ownership;
 * - `False`/`None` deny and add nothing.
 *
 * Every value the flag can take must be one of these: a flag also set from anything else (a form's
 * answer, a parameter, a setting) proves nothing, and the weakest kind of its values is what it proves.
 */
import type { FunctionIR } from '../syntax/ir-types.js';
import type { Program } from './resolution.js';
import type { DischargeKind, ProgramFile } from './types.js';

/** How a test's words are read (python-web-checks.ts owns both). */
export interface TestReader {
  testKind(condition: string, status: string | null): DischargeKind | null;
  branchHead(file: ProgramFile, fn: FunctionIR, line: number): { line: number; text: string; positive: boolean } | null;
}

/** The framework's own access refusal: Django's `PermissionDenied` and 403 response, Flask's `abort(403)`. */
export const FLAG_REFUSAL = /^\s*(?:raise\s+(?:\w+\.)?PermissionDenied\b|return\s+HttpResponseForbidden\(|abort\(\s*403\b)/;
/** `not rw`, `not (rw)` (an `else:` arm's refusal of `if rw:`). */
const FLAG_TEST = /^\s*not\s+\(?\s*([a-z_]\w*)\s*\)?\s*$/;
/** A lookup keyed by the caller (`created_by=request.user`, `owner=current_user`): whose the record is. */
export const CALLER_KEYED = /\b\w+\s*=\s*(request\.user|current_user|self\.request\.user)\b/;
const DENIES = /^(False|None|0)$/;
const STRENGTH: readonly DischargeKind[] = ['authn', 'ownership_check', 'path_guard'];
const MAX_DEPTH = 4;

type ValueKind = DischargeKind | 'denies' | null;

interface Scope {
  program: Program;
  reader: TestReader;
  file: ProgramFile;
  fn: FunctionIR;
}

/** The kind a refusal under the test `condition` proves through its flag, or null when it is no flag or the flag proves nothing. */
export function flagTestKind(program: Program, reader: TestReader, file: ProgramFile, fn: FunctionIR, condition: string, line: number): DischargeKind | null {
  const name = FLAG_TEST.exec(condition)?.[1];
  if (name === undefined) return null;
  const kind = nameKind({ program, reader, file, fn }, name, line, 0);
  return kind === 'denies' ? null : kind;
}

function weakest(kinds: readonly ValueKind[]): ValueKind {
  let out: ValueKind = 'denies';
  for (const kind of kinds) {
    if (kind === null) return null;
    if (kind === 'denies') continue;
    if (out === 'denies' || STRENGTH.indexOf(kind) < STRENGTH.indexOf(out)) out = kind;
  }
  return out;
}

/** Open parentheses and brackets less closed ones. */
export function depthOf(text: string): number {
  return (text.match(/[([{]/g)?.length ?? 0) - (text.match(/[)\]}]/g)?.length ?? 0);
}

/** The statement from `line` to its closing parenthesis, joined. */
function statement(file: ProgramFile, line: number, last: number): string {
  let text = file.lines[line - 1] ?? '';
  for (let next = line + 1; next <= last && depthOf(text) > 0; next++) text += ` ${(file.lines[next - 1] ?? '').trim()}`;
  return text;
}

/** Every value given to `name` above `line` in the function: plain and tuple assignments. */
function nameKind(scope: Scope, name: string, line: number, depth: number): ValueKind {
  if (depth > MAX_DEPTH) return null;
  const target = /^\s*((?:[a-z_]\w*\s*,\s*)*[a-z_]\w*)\s*,?\s*=(?!=)(.*)$/;
  const values: ValueKind[] = [];
  for (let l = scope.fn.bodyStartLine; l < line; l++) {
    const match = target.exec(scope.file.lines[l - 1] ?? '');
    const names = match?.[1]?.split(',').map((n) => n.trim()) ?? [];
    const position = names.indexOf(name);
    if (position < 0) continue;
    const value = statement(scope.file, l, line - 1).replace(/^[^=]*=/, '').trim();
    values.push(valueKind(scope, value, l, names.length > 1 ? position : null, depth));
  }
  return values.length === 0 ? null : weakest(values);
}

/** What one value of the flag proves: `position` is its place in a tuple the value unpacks. */
function valueKind(scope: Scope, value: string, line: number, position: number | null, depth: number): ValueKind {
  const call = /^([A-Za-z_]\w*)\(.*\)$/.exec(value);
  if (position !== null) return call ? returnedKind(scope, call[1] ?? '', position, depth) : null;
  if (DENIES.test(value)) return 'denies';
  if (value === 'True') {
    const head = scope.reader.branchHead(scope.file, scope.fn, line);
    return head?.positive === true ? scope.reader.testKind(head.text, null) : null;
  }
  if (CALLER_KEYED.test(value)) return 'ownership_check';
  const field = /^([a-z_]\w*)(?:\.\w+)?$/.exec(value);
  if (field) return nameKind(scope, field[1] ?? '', line, depth + 1);
  if (/==|!=|\bin\b/.test(value)) {
    const kind = scope.reader.testKind(value, null);
    return kind === 'authn' ? null : kind;
  }
  return call ? returnedKind(scope, call[1] ?? '', null, depth) : null;
}

/** Top-level comma-separated parts of a tuple (`check, True`, `(a, b)`). */
function tupleParts(text: string): string[] {
  const body = /^\((.*)\)$/.exec(text)?.[1] ?? text;
  const parts: string[] = [];
  let level = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '(' || c === '[' || c === '{') level++;
    else if (c === ')' || c === ']' || c === '}') level--;
    else if (c === ',' && level === 0) {
      parts.push(body.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(body.slice(start).trim());
  return parts.filter((p) => p !== '');
}

/** What the values a repository function returns (at `position` of its tuples) prove: one function of that name, in Python. */
function returnedKind(scope: Scope, name: string, position: number | null, depth: number): ValueKind {
  const candidates = (scope.program.byName.get(name) ?? []).filter((ref) => scope.program.byPath.get(ref.path)?.factsLanguage === 'python');
  const ref = candidates.length === 1 ? candidates[0] : undefined;
  const file = ref ? scope.program.byPath.get(ref.path) : undefined;
  if (!ref || !file || depth >= MAX_DEPTH) return null;
  const inner: Scope = { ...scope, file, fn: ref.fn };
  const values: ValueKind[] = [];
  for (let l = ref.fn.bodyStartLine; l <= ref.fn.endLine; l++) {
    const returned = /^\s*return\s+(.*)$/.exec(statement(file, l, ref.fn.endLine))?.[1]?.trim();
    if (returned === undefined) continue;
    const parts = position === null ? [returned] : tupleParts(returned);
    const part = position === null ? returned : parts.length > position ? parts[position] : undefined;
    values.push(part === undefined ? null : valueKind(inner, part, l, null, depth + 1));
  }
  return values.length === 0 ? null : weakest(values);
}
