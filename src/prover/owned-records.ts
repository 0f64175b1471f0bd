/**
 * Django records that belong to a user (docs/prover.md, "Records owned by a user", ADR 0043). A model
 * with a foreign key to the user model (`Bookmark.user = models.ForeignKey(AUTH_USER_MODEL)`) says each
 * row is someone's. A write or deletion of such a row looked up by a key the request chose
 * (`get_object_or_404(Bookmark, id=id)` then `bookmark.delete()`) with no filter on the logged-in user
 * is bound to nobody: a staff check lets every staff member in, and Django staff status is access to
 * the admin site, not a permission on the model (the admin itself asks `has_delete_permission` per
 * model). A superuser test, a Django permission (`permission_required`, `has_perm`,
 * `PermissionRequiredMixin`), a test against the logged-in user, or a lookup filtered by the user
 * still discharges it. Textual, like resource-binding.ts.
 */
import { blankStrings } from './string-literals.js';
import type { LanguageFacts } from './facts.js';
import { lookupClass, type Program } from './resolution.js';
import type { UnboundResource } from './resource-binding.js';
import type { FunctionRef, OperationSite, PathRecord, ProgramFile, Witness } from './types.js';

/** A model field that is a foreign key (or one-to-one) to another model: its name and target as written. */
const RELATION_FIELD = /^\s*(\w+)\s*=\s*(?:models\.)?(?:ForeignKey|OneToOneField)\(\s*(?:to\s*=\s*)?([\w.'"]+(?:\(\))?)/;
/** The user model as Django projects name it. */
const USER_MODEL = /^(settings\.AUTH_USER_MODEL|AUTH_USER_MODEL|get_user_model\(\)|User|\w*\.User|['"]auth\.User['"]|['"]users?\.\w*User['"])$/;
/** A module variable holding the user model (`user_model = getattr(settings, 'AUTH_USER_MODEL', 'auth.User')`). */
const USER_MODEL_VARIABLE = /^(\w+)\s*=\s*.*\b(AUTH_USER_MODEL|get_user_model\(\))/;
/** A lookup of one model's rows: `get_object_or_404(Model, ...)`, `Model.objects.get(...)`, `Model.objects.filter(...)`. */
const LOOKUP = /\b(?:get_object_or_404|get_list_or_404)\(\s*([A-Z]\w*)\b(.*)$|\b([A-Z]\w*)\.objects\.\w+\((.*)$/;
/** A check that lets staff members in: Django staff status, not a permission on any model. */
const STAFF_CHECK = /staff/i;
/** What outranks staff status: a superuser test or a Django permission. */
const STRONGER_CHECK = /superuser|perm/i;

/** A row of a model with an owner, looked up by the request without the logged-in user. */
export interface OwnedLookup {
  /** The variable holding the row (`bookmark`), or the lookup itself when the operation is on it. */
  variable: string;
  model: string;
  /** The owner field (`user`). */
  field: string;
  /** The lookup as written, and its line. */
  lookup: string;
  line: number;
}

/** The foreign key of a repository Django model to the user model (`user`), or null. */
export function ownerField(program: Program, model: string, nearPath: string): string | null {
  const record = lookupClass(program.table, model, nearPath);
  const file = record ? program.byPath.get(record.path) : undefined;
  const cls = file?.ir.classes.find((c) => c.name === model);
  if (!file || !cls) return null;
  const userVariables = new Set(file.lines.map((l) => USER_MODEL_VARIABLE.exec(l)?.[1]).filter((n): n is string => n !== undefined));
  for (let line = cls.startLine + 1; line <= cls.endLine; line++) {
    const text = file.lines[line - 1] ?? '';
    // `models.ForeignKey(` with its target on the next line.
    const m = RELATION_FIELD.exec(/\($/.test(text.trim()) ? `${text.trim()}${(file.lines[line] ?? '').trim()}` : text);
    const target = m?.[2]?.trim() ?? '';
    if (m?.[1] && (USER_MODEL.test(target) || userVariables.has(target))) return m[1];
  }
  return null;
}

/** True when the text names a parameter of the function other than the request or `self`, or reads the request's data. */
function requestKeyed(written: string, fn: FunctionRef['fn']): boolean {
  // A quoted name (`order_by("id")`) is no parameter.
  const text = blankStrings(written, '""', false);
  if (/\brequest\.(GET|POST|data|query_params|json|form|args)\b|\bself\.kwargs\b/.test(text)) return true;
  return fn.parameters.some((p) => !/^(self|cls|request|\*.*)$/.test(p.name) && new RegExp(String.raw`\b${p.name}\b`).test(text));
}

/**
 * The owned row an operation of function `ref` acts on, when `ref` looked it up by a key the request chose and
 * not by the logged-in user; null otherwise (a row of a model with no owner, one filtered by the user, or one
 * the code found by other means).
 */
export function unscopedOwnedLookup(program: Program, facts: LanguageFacts, ref: FunctionRef, file: ProgramFile, op: OperationSite): OwnedLookup | null {
  const receiver = /^([a-z_]\w*)\.(delete|save|update)\(/.exec(op.call)?.[1];
  let lookup: { text: string; line: number } | null = LOOKUP.test(op.call) ? { text: op.call, line: op.line } : null;
  if (lookup === null && receiver !== undefined) {
    const assignment = new RegExp(String.raw`^\s*${receiver}\s*=\s*(.+)$`);
    for (let line = op.line - 1; line > ref.fn.startLine && lookup === null; line--) {
      const m = assignment.exec(file.lines[line - 1] ?? '');
      if (m?.[1]) lookup = { text: m[1], line };
    }
  }
  const m = lookup === null ? null : LOOKUP.exec(lookup.text);
  const model = m?.[1] ?? m?.[3];
  const keys = m?.[2] ?? m?.[4] ?? '';
  if (!lookup || model === undefined || !requestKeyed(keys, ref.fn) || facts.currentUser.some((re) => re.test(keys))) return null;
  const field = ownerField(program, model, file.path);
  return field === null ? null : { variable: receiver ?? lookup.text, model, field, lookup: lookup.text.trim(), line: lookup.line };
}

/** True for a check whose words let staff members in and name no superuser or permission. */
export function staffOnly(w: Witness): boolean {
  // The refusal's own words (`raise PermissionDenied`) name no permission.
  const words = w.evidence.replace(/\bPermissionDenied\b/g, '');
  return STAFF_CHECK.test(words) && !STRONGER_CHECK.test(words);
}

/** What is left of the checks once the staff checks are set aside, and why they do not cover the row. */
export interface StaffOnlyRecord {
  remaining: Witness[];
  unbound: UnboundResource;
}

/**
 * For a Python write or deletion of an owned row the request chose: when the only permission checks before it
 * are staff checks, those checks set aside and the sentence saying why; null when something else binds it.
 */
export function staffOnOwnedRecord(program: Program, facts: LanguageFacts | undefined, path: PathRecord, op: OperationSite, dominating: readonly Witness[]): StaffOnlyRecord | null {
  if (!facts || facts.language !== 'python' || (op.kind !== 'data_deletion' && op.kind !== 'data_write')) return null;
  if (dominating.some((w) => w.kind === 'ownership_check')) return null;
  const guards = dominating.filter((w) => w.kind === 'path_guard');
  const staff = guards.filter(staffOnly);
  if (staff.length === 0 || staff.length < guards.length) return null;
  const last = path.hops[path.hops.length - 1];
  const ref = last ? program.functions.get(last.functionId) : undefined;
  const file = ref ? program.byPath.get(ref.path) : undefined;
  const owned = ref && file ? unscopedOwnedLookup(program, facts, ref, file, op) : null;
  if (!owned) return null;
  const checks = staff.map((w) => `\`${w.evidence}\``).join(', ');
  const sentence =
    `\`${owned.variable}\` is the ${owned.model} looked up by the request's key (\`${owned.lookup}\`, line ${owned.line}) with no filter on the logged-in user, ` +
    `and ${owned.model}.${owned.field} says each one belongs to a user; ${checks} lets every staff member in, not only its owner, and grants no permission on ${owned.model} ` +
    `(a lookup by \`${owned.field}=request.user\`, an owner test, a superuser test or a Django permission on the model would).`;
  return { remaining: dominating.filter((w) => !staff.includes(w)), unbound: { variable: owned.variable, sentence } };
}
