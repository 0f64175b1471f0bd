/**
 * Django middleware that checks in `process_view`. Django calls `process_view(request, view_func,
 * view_args, view_kwargs)` of every class in the settings' `MIDDLEWARE` before the view; a refusal
 * there (raising `PermissionDenied`, a `..._or_403` helper) ends the request before the view runs. So a
 * middleware's checks are checks of the views it judges:
 *
 * - every view, when `process_view` refuses with no early `return` before the refusals (but one for a
 *   request without a resolved URL, or one by the request's path, which no view of the URLconf is
 *   told apart by here);
 * - only the views whose URL name (`name=` in the URLconf) is a key of a map, when it looks the URL name
 *   up and leaves for a miss: `checks = URL_PERMISSIONS.get(request.resolver_match.url_name)` then `if
 *   not checks: return`, or `if url_name not in PROTECTED: return`;
 * - every view but the named ones, for `if url_name in EXEMPT: return`.
 *
 * The middleware's kind is the weakest of the checks after that gate (the map's values choose which
 * run). A middleware class the repository does not define, or an early return of another test, proves
 * nothing here.
 */
import { moduleFiles, type Program } from './resolution.js';
import { callArgumentsOf, callText } from './recognisers/python-views.js';
import { urlConfViews } from './recognisers/django.js';
import type { DischargeKind, EntryPoint, FunctionRef, ProgramFile, Witness } from './types.js';

/** `checks = URL_PERMISSIONS.get(request.resolver_match.url_name)` (or `...get(url_name)`): the variable and the map. */
const MAP_LOOKUP = /^\s*([A-Za-z_]\w*)\s*=\s*([A-Za-z_]\w*)\.get\(\s*[\w.]*\burl_name\s*[,)]/;
/** An early `return` of `process_view` and the test above it, on one line or the next. */
const RETURN = /^\s*return\b/;
const IF_TEST = /^\s*if\s+(.*?):\s*(return\b.*)?$/;
/** Tests an early return may make without telling views apart: no resolved URL, the request's path or method. */
const NEUTRAL_TEST = /^(not\s+)?[\w.]*resolver_match(\s+is(\s+not)?\s+None)?$|^[\w.]*request\.(path|path_info|method)\b/;
/** The order kinds are weaker in: a login is weaker than a role or an ownership check. */
const STRENGTH: readonly DischargeKind[] = ['authn', 'ownership_check', 'path_guard'];

/** What a `process_view` judges: every view, only the named ones, or all but the named ones. */
type Judged = { all: true } | { names: ReadonlySet<string>; except: boolean };

/** A settings line that registers middleware: `MIDDLEWARE` (or the older `MIDDLEWARE_CLASSES`) assigned, added to, or grown by a call. */
const MIDDLEWARE_SETTING = /^(MIDDLEWARE(?:_CLASSES)?)\s*(?:\+?=|\.(?:append|insert|extend)\()/;
const DOTTED_PATH = /['"]([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)['"]/g;

/** The middleware dotted paths the settings modules register (`NAME = OTHER` reads OTHER's list). */
export function middlewarePaths(program: Program): string[] {
  const out = new Set<string>();
  for (const file of program.files) {
    if (file.factsLanguage !== 'python' || !/^MIDDLEWARE/m.test(file.text)) continue;
    const listedFrom = (at: number, aliases: Set<string>): void => {
      const alias = /=\s*([A-Z_][A-Z0-9_]*)\s*$/.exec(file.lines[at] ?? '')?.[1];
      if (alias !== undefined) {
        // an alias chain that loops back names no list
        const target = file.lines.findIndex((t) => new RegExp(String.raw`^${alias}\s*[+]?=`).test(t));
        if (target >= 0 && !aliases.has(alias)) listedFrom(target, aliases.add(alias));
        return;
      }
      for (let l = at; l < file.lines.length; l++) {
        const text = file.lines[l] ?? '';
        for (const m of text.matchAll(DOTTED_PATH)) out.add(m[1] ?? '');
        if (/^\s*[\])]/.test(text) || (l > at && /^\S/.test(text))) break;
      }
    };
    file.lines.forEach((text, at) => {
      const setting = MIDDLEWARE_SETTING.exec(text)?.[1];
      if (setting !== undefined) listedFrom(at, new Set([setting]));
    });
  }
  return [...out];
}

/** The methods named `names` of the repository class a dotted middleware path names (`hc.accounts.middleware.TeamAccessMiddleware`). */
export function middlewareMethods(program: Program, dotted: string, names: ReadonlySet<string>): { file: ProgramFile; fn: FunctionRef }[] {
  const parts = dotted.split('.');
  const className = parts.pop() ?? '';
  const module = parts.join('/');
  const out: { file: ProgramFile; fn: FunctionRef }[] = [];
  for (const file of program.files) {
    if (file.factsLanguage !== 'python' || ![`${module}.py`, `${module}/__init__.py`].some((tail) => file.path === tail || file.path.endsWith(`/${tail}`))) continue;
    for (const fn of file.ir.functions) {
      if (!names.has(fn.name) || fn.className !== className) continue;
      const ref = program.nodeOf.get(fn);
      if (ref) out.push({ file, fn: ref });
    }
  }
  return out;
}

const PROCESS_VIEW: ReadonlySet<string> = new Set(['process_view']);

/** The top-level string keys of `NAME = {...}` in `file` or a module it imports `NAME` from. */
function mapKeys(program: Program, file: ProgramFile, name: string): Set<string> | null {
  const homes = [file, ...file.ir.imports.filter((i) => i.names.includes(name)).flatMap((i) => moduleFiles(program, file.path, i.module))];
  for (const home of homes) {
    const at = home.lines.findIndex((t) => new RegExp(String.raw`^${name}\s*(:[^=]*)?=\s*[{[(]`).test(t));
    if (at < 0) continue;
    const keys = new Set<string>();
    let depth = 0;
    for (let l = at; l < home.lines.length; l++) {
      const text = home.lines[l] ?? '';
      // A key sits at depth 1 (inside the map's own brace): `"name": [...]` or a set/list member `"name",`.
      if (depth === 1 || l === at) for (const m of text.matchAll(/^\s*(?:[{[(]\s*)?['"](\w[\w:-]*)['"]\s*[:,]/g)) keys.add(m[1] ?? '');
      for (const ch of text.replace(/(['"])(?:\\.|(?!\1).)*\1/g, '""')) {
        if (ch === '{' || ch === '[' || ch === '(') depth++;
        else if (ch === '}' || ch === ']' || ch === ')') depth--;
      }
      if (depth <= 0) break;
    }
    return keys;
  }
  return null;
}

/** Which views a `process_view` judges, and the line its checks start after, or null when that cannot be told. */
function judged(program: Program, file: ProgramFile, fn: FunctionRef): { judged: Judged; from: number } | null {
  let lookup: { variable: string; map: string } | null = null;
  let result: { judged: Judged; from: number } = { judged: { all: true }, from: fn.fn.startLine };
  for (let line = fn.fn.bodyStartLine; line <= fn.fn.endLine; line++) {
    const text = file.lines[line - 1] ?? '';
    const assigned = MAP_LOOKUP.exec(text);
    if (assigned) lookup = { variable: assigned[1] ?? '', map: assigned[2] ?? '' };
    const test = IF_TEST.exec(text);
    if (!test || !(test[2] !== undefined || RETURN.test(file.lines[line] ?? ''))) continue;
    const condition = (test[1] ?? '').trim();
    if (NEUTRAL_TEST.test(condition)) continue;
    const miss = lookup && new RegExp(String.raw`^not\s+${lookup.variable}$|^${lookup.variable}\s+is\s+None$`).test(condition);
    const membership = /^[\w.]*\burl_name\s+(not\s+in|in)\s+([A-Za-z_]\w*)$/.exec(condition);
    const mapName = miss && lookup ? lookup.map : membership?.[2];
    const names = mapName === undefined ? null : mapKeys(program, file, mapName);
    if (names === null || !('all' in result.judged)) return null;
    result = { judged: { names, except: membership?.[1] === 'in' }, from: line };
  }
  return result;
}

/** The weakest of the kinds a middleware's checks prove. */
function weakest(kinds: DischargeKind[]): DischargeKind | null {
  for (const kind of STRENGTH) if (kinds.includes(kind)) return kind;
  return kinds[0] ?? null;
}

/** The URL name each view function of the URLconfs is registered under, by function id (a class: each handler). */
function urlNames(program: Program, entries: readonly EntryPoint[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const add = (id: string, name: string): void => {
    out.set(id, [...(out.get(id) ?? []), name]);
  };
  for (const file of program.files) {
    if (file.factsLanguage !== 'python') continue;
    for (const site of urlConfViews(program, file)) {
      const args = callArgumentsOf(callText(file, site.line, site.callee), site.callee);
      const name = args.map((a) => /^name\s*=\s*['"]([^'"]+)['"]$/.exec(a.trim())?.[1]).find((n) => n !== undefined);
      if (name === undefined) continue;
      if (site.view.fn) add(site.view.fn.id, name);
      const cls = site.view.cls;
      if (cls) for (const e of entries) if (e.path === cls.path && e.function.startsWith(`${cls.name}.`)) add(e.functionId, name);
    }
  }
  return out;
}

/** Router witnesses of the Django views a repository middleware's `process_view` checks before them. */
export function djangoViewMiddlewareWitnesses(program: Program, entries: readonly EntryPoint[], byFunction: ReadonlyMap<string, readonly Witness[]>): Witness[] {
  const django = entries.filter((e) => e.framework === 'django');
  if (django.length === 0) return [];
  const out: Witness[] = [];
  let names: Map<string, string[]> | null = null;
  for (const dotted of middlewarePaths(program)) {
    const found = middlewareMethods(program, dotted, PROCESS_VIEW)[0];
    if (!found) continue;
    const reading = judged(program, found.file, found.fn);
    if (!reading) continue;
    // Past a map's gate the map's values choose the checks (a loop over them, a branch per kind), so
    // those in a block count too; otherwise only the checks every request reaches.
    const gated = 'names' in reading.judged && !reading.judged.except;
    const checks = (byFunction.get(found.fn.id) ?? []).filter(
      (w) => w.scope === 'statement' && w.line !== null && w.line > reading.from && w.kind !== 'csrf_guard' && w.kind !== 'public' && w.until === undefined && (gated || w.blockEnd === undefined),
    );
    const kind = weakest(checks.map((w) => w.kind));
    if (kind === null) continue;
    names ??= urlNames(program, entries);
    const evidence = `${dotted}.process_view (${found.file.path}:${found.fn.fn.startLine}) in MIDDLEWARE: ${checks.map((w) => w.evidence).join('; ')}`;
    for (const entry of django) {
      const judgedHere = 'all' in reading.judged || (names.get(entry.functionId) ?? []).some((n) => ('names' in reading.judged ? reading.judged.names.has(n) !== reading.judged.except : false));
      if (!judgedHere) continue;
      out.push({ kind, scope: 'router', functionId: entry.functionId, line: null, dischargerId: 'python.django-view-middleware', evidence });
    }
  }
  return out;
}
