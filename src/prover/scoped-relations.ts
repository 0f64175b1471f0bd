/**
 * Relation reads that skip the project's visibility scope (docs/prover.md, "Relation reads past a
 * visibility scope"). A Laravel project that declares a visibility scope on a model (`scopeVisible`, the
 * header's `visibility_scopes`) and applies it in its queries (`Page::visible()`, `->scopes('visible')`)
 * reads those records only through it: whoever calls sees what they may see. An Eloquent relation to such
 * a model (`Chapter::pages()` returning `$this->hasMany(Page::class)`) loads every related row, so reading
 * it as a property (`$chapter->pages`) and answering with it hands out records the caller may not view
 * (BookStack's book API listing a chapter's pages, 9aa3442a1). The read is an operation only where it goes
 * into the answer (a `return` line, or a variable or loop the function returns), from an entry whose hops
 * each return what the next gives back. A permission or a login on the path says nothing about which rows
 * the caller sees; only an administrator's role (the row's `held_by`) does.
 */
import type { Facts } from './facts.js';
import { nodeAt, type Program } from './resolution.js';
import type { OperationSite, ProgramFile } from './types.js';

/** At least this many uses of a scope make it the project's norm (one could be a test helper's). */
const MIN_SCOPE_USES = 2;
/** Every entry answers with what it returns: the hops' returns are what `onlyFrom` asks for. */
const ANY_ENTRY = /(?:)/;

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The name a scope method is applied by: `scopeVisible` → `visible`. */
function appliedName(method: string): string {
  const rest = method.replace(/^scope/, '');
  return rest.charAt(0).toLowerCase() + rest.slice(1);
}

/** Model classes (by simple name) with a visibility scope of their own or inherited, which the project applies. */
function scopedClasses(files: readonly ProgramFile[], scopes: readonly RegExp[]): Set<string> {
  const classes = new Map<string, { superclass: string | null; methods: string[] }>();
  for (const file of files) for (const c of file.ir.classes) classes.set(c.name, { superclass: c.superclass?.split('\\').pop() ?? null, methods: c.methods });
  const used = new Map<string, boolean>();
  const applied = (method: string): boolean => {
    const known = used.get(method);
    if (known !== undefined) return known;
    const name = escape(appliedName(method));
    const use = new RegExp(String.raw`(->|::)${name}\s*\(|scopes\(\s*\[?\s*['"]${name}['"]`, 'g');
    let count = 0;
    for (const file of files) count += file.text.match(use)?.length ?? 0;
    used.set(method, count >= MIN_SCOPE_USES);
    return count >= MIN_SCOPE_USES;
  };
  const out = new Set<string>();
  for (const name of classes.keys()) {
    let current: string | null = name;
    for (let depth = 0; current !== null && depth < 8; depth++) {
      const c = classes.get(current);
      if (!c) break;
      if (c.methods.some((m) => scopes.some((re) => re.test(m)) && applied(m))) {
        out.add(name);
        break;
      }
      current = c.superclass;
    }
  }
  return out;
}

/** Relation methods (name → related class) declared by the row's calls on a scoped class, without applying a scope themselves. */
function unscopedRelations(program: Program, files: readonly ProgramFile[], declaring: readonly RegExp[], scoped: ReadonlySet<string>, scopes: readonly RegExp[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const file of files) {
    for (const call of file.ir.calls) {
      const signature = call.receiver === null ? call.callee : `${call.receiver.replace(/->|::/g, '.')}.${call.callee}`;
      if (!declaring.some((re) => re.test(signature))) continue;
      const related = /^\s*\(?\s*\\?([\w\\]+)::class/.exec(call.text.slice(call.text.indexOf('(') + 1))?.[1]?.split('\\').pop();
      const owner = nodeAt(program, file.ir, call.line);
      if (!related || !scoped.has(related) || !owner || owner.fn.isLambda) continue;
      // A relation that applies the scope itself (`->visible()` after `hasMany(...)`) is scoped.
      const statement = file.lines.slice(call.line - 1, Math.min(owner.fn.endLine, call.line + 3)).join(' ').split(';')[0] ?? '';
      if (scopes.some((re) => [...statement.matchAll(/->(\w+)\s*\(/g)].some((m) => re.test(`scope${(m[1] ?? '').charAt(0).toUpperCase()}${(m[1] ?? '').slice(1)}`)))) continue;
      out.set(owner.fn.name, related);
    }
  }
  return out;
}

/** True when what `line` reads goes into the function's answer: a return line, or a variable (or a loop's accumulator) a later return mentions. */
function answered(file: ProgramFile, line: number, endLine: number, text: string): boolean {
  if (/^\s*return\b/.test(text)) return true;
  const returned = (name: string): boolean => {
    const mention = new RegExp(String.raw`\$${name}\b`);
    for (let l = line + 1; l <= endLine; l++) if (/^\s*return\b/.test(file.lines[l - 1] ?? '') && mention.test(file.lines[l - 1] ?? '')) return true;
    return false;
  };
  const assigned = /^\s*\$(\w+)\s*=(?!=)/.exec(text)?.[1];
  if (assigned) return returned(assigned);
  if (!/^\s*foreach\s*\(/.test(text)) return false;
  // The loop's body, by indentation: the variables it accumulates into (`$text .= ...`, `$list[] = ...`).
  const indent = /^\s*/.exec(text)?.[0].length ?? 0;
  for (let l = line + 1; l <= endLine; l++) {
    const body = file.lines[l - 1] ?? '';
    if (body.trim() !== '' && (/^\s*/.exec(body)?.[0].length ?? 0) <= indent) break;
    const target = /^\s*\$(\w+)\s*(\.=|\[\]\s*=|\+=)/.exec(body)?.[1];
    if (target && returned(target)) return true;
  }
  return false;
}

/** The relation reads past a visibility scope that go into a function's answer, as operation sites. */
export function unscopedRelationReadSites(program: Program, facts: Facts): OperationSite[] {
  const php = facts.php;
  const row = php.operations.find((o) => o.judgedAs === 'scoped-relation');
  if (!row || php.visibilityScopes.length === 0) return [];
  const files = program.files.filter((f) => f.factsLanguage === 'php');
  const scoped = scopedClasses(files, php.visibilityScopes);
  if (scoped.size === 0) return [];
  const relations = unscopedRelations(program, files, row.calls, scoped, php.visibilityScopes);
  if (relations.size === 0) return [];
  // A property read on a local or parameter (`$chapter->pages`), not a service's property (`$this->queries->pages`) or a call.
  const read = new RegExp(String.raw`(?<![\w>])\$(?!this\b)\w+->(${[...relations.keys()].map(escape).join('|')})\b(?!\s*\()`);
  const sites: OperationSite[] = [];
  for (const file of files) {
    if (!read.test(file.text)) continue;
    file.lines.forEach((text, i) => {
      const m = read.exec(text);
      if (!m?.[1]) return;
      const node = nodeAt(program, file.ir, i + 1);
      if (!node || !answered(file, i + 1, node.fn.endLine, text)) return;
      sites.push({
        operationId: row.id,
        kind: row.kind,
        functionId: node.id,
        path: file.path,
        line: i + 1,
        call: text.trim(),
        handlerNamed: false,
        requires: row.requires,
        severity: row.severity,
        cwe: row.cwe,
        onlyFrom: row.entries.length > 0 ? row.entries : [ANY_ENTRY],
        answerThroughLocals: true,
        ...(row.heldBy ? { heldBy: row.heldBy } : {}),
      });
    });
  }
  return sites;
}
