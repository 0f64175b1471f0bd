/**
 * Checks of the Python web frameworks (Django/DRF, Flask, FastAPI) that are not a call in the handler's
 * own body:
 *
 * - refusals written without a call: `return {...}, 403` (Flask), a bare `raise PermissionDenied`, or
 *   `raise credentials_exception` where that variable holds an `HTTPException`; the condition above
 *   says what was tested (a role, the caller's ownership, a login). These are statement witnesses, so
 *   helper summaries and class hooks carry them on (`refusalWitnesses`, run before them);
 * - the repository's own decorators, judged by their body: `admins_only` checks when its wrapper calls
 *   the wrapped view only under a test, or refuses before calling it, and the test says the kind;
 * - Django mixins in a view's bases (leftmost, as Django requires), DRF `permission_classes` (the
 *   class's, an ancestor's, `@permission_classes` on an `@api_view`, else the settings' default),
 *   wrappers written in the URLconf (`login_required(views.x)`) and `LoginRequiredMiddleware`;
 * - Flask `before_request` hooks of the view's blueprint (or the app) that refuse;
 * - FastAPI dependencies (parameters' `Depends`/`Security`, the decorator's and the router's
 *   `dependencies=[...]`) whose function refuses, through sub-dependencies.
 *
 * Which names count is data (the discharger rows' `decorators`, `bases`, `class_attributes`,
 * `middleware`); how the code is read is here.
 */
import type { DischargerFact, LanguageFacts } from './facts.js';
import { conditionalReach, indentOf } from './branches.js';
import { ancestorNames, lookupClass, moduleFiles, superChain, type Program } from './resolution.js';
import { urlConfViews } from './recognisers/django.js';
import { fastapiRoute } from './recognisers/fastapi.js';
import { aliasDependencyTexts } from './fastapi-annotated-aliases.js';
import { classDependencyFunctions } from './fastapi-class-dependencies.js';
import { REDIRECT_REFUSAL, redirectRefusalKind } from './python-redirect-refusals.js';
import { flaskRoute } from './recognisers/flask.js';
import { raisedRefusal } from './python-refusal-exceptions.js';
import { CALLER_KEYED, depthOf, FLAG_REFUSAL, flagTestKind, type TestReader } from './python-refusal-flags.js';
import { principalMismatchKind } from './python-request-principals.js';
import { permissionClassChecks, KIND_WORDS } from './drf-permission-classes.js';
import { actionPermissions, bracketed, classAttribute, classMethodDecorators } from './python-class-policies.js';
import type { DischargeKind, EntryPoint, FunctionRef, ProgramFile, Witness } from './types.js';
import type { FunctionIR } from '../syntax/ir-types.js';

/** What a test is about, by its words: a role or permission, the caller's own object, a login. */
const ROLE_TEST = /admin|staff|superuser|role|perm|scope|allowed|authoriz|can_|has_|moderator|privileg/i;
const OWNER_TEST = /(!=|==|\bis not\b|\bnot in\b|\bin\b)\s*[^:]*(\b(request\.user|current_user|get_current_user\(\)|get_jwt_identity|user\.id|user_id|self\.request\.user)\b|\bsession\[)|\b(request\.user|current_user|user\.id|user_id)\b[^:]*(!=|==|\bnot in\b)/;
const LOGIN_TEST = /is_authenticated|is_anonymous|authed\s*\(|logged_in|\bcurrent_user\b|\brequest\.user\b|\buser\b|token|jwt|session/i;
/** A refusal without a call: a Flask `(body, 403)` answer, a bare exception class, an exception variable. */
const TUPLE_REFUSAL = /^\s*return\b.*,\s*(401|403)\s*\)?\s*$/;
/** The status line of a `return (\n {...},\n 403,\n)` written over several lines. */
const STATUS_LINE = /^\s*(401|403)\s*,?\s*\)?\s*$/;
/** A lookup that leaves on a miss (`get_object_or_404(Model, pk=x)`): the model and the key's value. */
const KEYED_LOOKUP = /\bget_object_or_404\(\s*([A-Z]\w*)\s*,\s*(?:pk|id)\s*=\s*([a-z_]\w*)\s*\)/;
/** A primary key nobody can guess: a random string or UUID the record was given. */
const RANDOM_KEY = /^\s*(id|pk|uuid)\s*=\s*models\.(CharField|UUIDField)\([^)]*primary_key\s*=\s*True/;
const BARE_REFUSAL = /^\s*raise\s+(PermissionDenied|Forbidden|Unauthorized|NotAuthenticated|PermissionError)\s*$|^\s*return\s+self\.handle_no_permission\(\)\s*$/;
const RAISED_NAME = /^\s*raise\s+([a-z_]\w*)\s*$/;
const EXIT = /^\s*(return|raise|abort\b|redirect\b)|\babort\(|\bredirect\(/;
const DJANGO_VIEW_BASE = /^(View|\w+View|\w*APIView|\w*ViewSet)$/;
const DRF_VIEW = /^(APIView|GenericAPIView|\w+APIView|\w*ViewSet|ViewSetMixin)$/;
const MAX_DEPTH = 3;

/** The kind a refusal's test proves, or null when its words name none of them. */
export function testKind(condition: string, status: string | null): DischargeKind | null {
  if (ROLE_TEST.test(condition)) return 'path_guard';
  if (OWNER_TEST.test(condition)) return 'ownership_check';
  if (LOGIN_TEST.test(condition) || status === '401') return 'authn';
  return null;
}

/** An `if` test written over several lines (`if not a and \\` or an open parenthesis), joined up to the line before `until`. */
function continuedHead(file: ProgramFile, line: number, until: number): string {
  let text = file.lines[line - 1] ?? '';
  for (let l = line + 1; l < until && /^\s*(if|elif)\b/.test(text) && !/:\s*(#.*)?$/.test(text); l++) text = `${text.replace(/\\\s*$/, '')} ${(file.lines[l - 1] ?? '').trim()}`;
  return text;
}

/** The `if`/`elif` line a statement on `line` is the branch of (the nearest shallower line above), with its text. */
function branchHead(file: ProgramFile, fn: FunctionIR, line: number): { line: number; text: string; positive: boolean } | null {
  const indent = indentOf(file.lines[line - 1] ?? '');
  for (let l = line - 1; l > fn.startLine - 1 && l >= fn.bodyStartLine - 1; l--) {
    const text = file.lines[l - 1] ?? '';
    if (text.trim() === '' || indentOf(text) >= indent) continue;
    // `if (\n    a\n    and b\n):` or `if not allowed(\n    user\n):` closes at the `if`'s own indent: the test starts at that `if`.
    if (/^\s*\)[\w.()]*\s*:\s*(#.*)?$/.test(text)) {
      let open = l - 1;
      while (open > fn.bodyStartLine && indentOf(file.lines[open - 1] ?? '') > indentOf(text)) open--;
      if (/^\s*(if|elif)\b.*[([{]\s*$/.test(file.lines[open - 1] ?? '')) l = open;
    }
    const head = /^\s*(if|elif)\b(.*):\s*(#.*)?$/.exec(continuedHead(file, l, line));
    if (head) return { line: l, text: head[2] ?? '', positive: true };
    // An `else:` arm refuses what its `if` allowed: the test is the `if` above at the same indent.
    if (/^\s*else\s*:/.test(text)) {
      for (let k = l - 1; k >= fn.bodyStartLine - 1; k--) {
        const above = file.lines[k - 1] ?? '';
        if (above.trim() === '' || indentOf(above) > indentOf(text)) continue;
        const ifHead = /^\s*(if|elif)\b(.*):\s*(#.*)?$/.exec(above);
        return ifHead && indentOf(above) === indentOf(text) ? { line: k, text: `not (${ifHead[2] ?? ''})`, positive: false } : null;
      }
    }
    return null;
  }
  return null;
}

const READER: TestReader = { testKind, branchHead };

/** An `if` whose condition allows only the owner or a role (`if obj.user == request.user:`): no negation, no alternative. */
const ALLOWING_IF = /^\s*(?:if|elif)\s+(?!.*\b(not|or)\b)(?!.*!=)(.+):\s*(#.*)?$/;

/**
 * Branch witnesses: the block of an `if` that tests the caller's ownership or role runs only when the
 * test holds (`if self.get_object().user == request.user: self.get_object().delete()`).
 */
function allowingBranches(file: ProgramFile, fn: FunctionIR, ref: FunctionRef, out: Witness[]): void {
  for (let line = fn.bodyStartLine; line <= fn.endLine; line++) {
    const text = file.lines[line - 1] ?? '';
    const condition = ALLOWING_IF.exec(text)?.[2];
    if (condition === undefined) continue;
    const kind = /==|\bin\b/.test(condition) && OWNER_TEST.test(condition) ? 'ownership_check' : ROLE_TEST.test(condition) && /\b(request\.user|current_user|user)\b/.test(condition) ? 'path_guard' : null;
    if (kind === null) continue;
    const indent = indentOf(text);
    let until = line;
    for (let l = line + 1; l <= fn.endLine; l++) {
      const next = file.lines[l - 1] ?? '';
      if (next.trim() === '') continue;
      if (indentOf(next) <= indent) break;
      until = l;
    }
    out.push({ kind, scope: 'statement', functionId: ref.id, line, dischargerId: 'python.allowing-branch', evidence: text.trim(), until });
  }
}

/** Statement witnesses for the Python refusals that are no call (added with the other statement witnesses). */
export function refusalWitnesses(program: Program): Witness[] {
  const out: Witness[] = [];
  for (const file of program.files) {
    if (file.factsLanguage !== 'python') continue;
    const refuses = /\b(401|403)\b|\braise\s+[A-Za-z_]|\breturn\s+(redirect|HttpResponseRedirect|HttpResponseForbidden)\(|\bhandle_no_permission\(/.test(file.text);
    for (const fn of file.ir.functions) {
      const ref = program.nodeOf.get(fn);
      if (!ref || ref.fn !== fn) continue;
      allowingBranches(file, fn, ref, out);
      if (!refuses) continue;
      const exceptionVariables = new Set<string>();
      for (let line = fn.bodyStartLine; line <= fn.endLine; line++) {
        const own = file.lines[line - 1] ?? '';
        // A multi-line `return (body, 403)` is judged at its `return`.
        const text = STATUS_LINE.test(own) ? multiLineReturn(file, line) ?? own : own;
        const assigned = /^\s*([a-z_]\w*)\s*=\s*(HTTPException|HTTPError|PermissionDenied)\(/.exec(text);
        if (assigned?.[1]) exceptionVariables.add(assigned[1]);
        if (program.nodeOf.get(fn) !== nodeOfLine(program, file, line)) continue;
        const status = TUPLE_REFUSAL.exec(text)?.[1] ?? STATUS_LINE.exec(own)?.[1] ?? null;
        if (STATUS_LINE.test(own) && text !== own) {
          const at = line - (text.split('\n').length - 1);
          const head = branchHead(file, fn, at);
          const kind = head ? testKind(head.text, status) : null;
          if (head && kind !== null) out.push({ kind, scope: 'statement', functionId: ref.id, line: at, dischargerId: 'python.refusal', evidence: `${(file.lines[head.line - 1] ?? '').trim()} return ..., ${status ?? ''}` });
          continue;
        }
        if (REDIRECT_REFUSAL.test(text)) {
          const head = branchHead(file, fn, line);
          const kind = head ? redirectRefusalKind(head.text, (condition) => testKind(condition, null)) : null;
          if (head && kind !== null) out.push({ kind, scope: 'statement', functionId: ref.id, line, dischargerId: 'python.redirect-refusal', evidence: `${(file.lines[head.line - 1] ?? '').trim()} ${text.trim()}` });
          continue;
        }
        const raised = RAISED_NAME.exec(text)?.[1];
        const subclass = raisedRefusal(program, file.path, text);
        const worded = TUPLE_REFUSAL.test(text) || BARE_REFUSAL.test(text) || (raised !== undefined && exceptionVariables.has(raised)) || subclass !== undefined;
        const flagForm = FLAG_REFUSAL.test(text);
        if (!worded && !flagForm) continue;
        const head = branchHead(file, fn, line);
        if (!head) continue;
        const wordedKind = worded ? testKind(head.text, status ?? subclass ?? (raised !== undefined && /401|UNAUTHORIZED/.test(file.text) ? '401' : null)) : null;
        // A 403 under a flag (`if not rw:`) proves what the flag was set from; one under a mismatch with a
        // principal a decorator put on the request is ownership.
        const kind = wordedKind ?? (flagForm ? flagTestKind(program, READER, file, fn, head.text, head.line) ?? principalMismatchKind(program, file, fn, head.text) : null);
        if (kind === null) continue;
        const blockEnd = conditionalReach(file, fn, line, text.trim().split(/\s+/)[1] ?? 'return');
        out.push({ kind, scope: 'statement', functionId: ref.id, line, dischargerId: 'python.refusal', evidence: `${(file.lines[head.line - 1] ?? '').trim()} ${text.trim()}`, ...(blockEnd === undefined ? {} : { blockEnd }) });
      }
    }
  }
  return out;
}

/** The `return (` statement a status line closes (up to 15 lines up), as text from the `return` to the status, or null. */
function multiLineReturn(file: ProgramFile, line: number): string | null {
  const indent = indentOf(file.lines[line - 1] ?? '');
  for (let l = line - 1; l >= Math.max(1, line - 15); l--) {
    const text = file.lines[l - 1] ?? '';
    if (text.trim() === '' || indentOf(text) >= indent) continue;
    return /^\s*return\s*\(\s*$/.test(text) ? file.lines.slice(l - 1, line).join('\n') : null;
  }
  return null;
}

/**
 * Lookups by a key nobody can guess (a model whose primary key is a random string or UUID, the key of a
 * link mailed to its owner) that leave on a miss: the request holds the record's secret, as with a
 * token, so what it acts on is its own (an ownership witness at the lookup).
 */
export function capabilityLookups(program: Program): Witness[] {
  const out: Witness[] = [];
  const randomKeyed = new Map<string, boolean>();
  const isRandomKeyed = (model: string, near: string): boolean => {
    let known = randomKeyed.get(model);
    if (known === undefined) {
      const cls = lookupClass(program.table, model, near);
      const chain = cls === null ? [] : [cls, ...[...ancestorNames(program.table, cls)].map((n) => lookupClass(program.table, n, cls.path)).filter((r) => r !== null)];
      known = chain.some((record) => {
        const home = program.byPath.get(record.path);
        const own = home?.ir.classes.find((c) => c.name === record.name);
        return home !== undefined && own !== undefined && home.lines.slice(own.startLine, own.endLine).some((t) => RANDOM_KEY.test(t));
      });
      randomKeyed.set(model, known);
    }
    return known;
  };
  for (const file of program.files) {
    if (file.factsLanguage !== 'python' || !file.text.includes('get_object_or_404')) continue;
    file.lines.forEach((text, index) => {
      const lookup = KEYED_LOOKUP.exec(text);
      if (!lookup?.[1] || !isRandomKeyed(lookup[1], file.path)) return;
      const node = nodeOfLine(program, file, index + 1);
      if (!node || !node.fn.parameters.some((p) => p.name === lookup[2])) return;
      out.push({ kind: 'ownership_check', scope: 'statement', functionId: node.id, line: index + 1, dischargerId: 'django.random-key-lookup', evidence: `${text.trim()} (${lookup[1]}'s primary key is random: the URL is the owner's secret link)` });
    });
  }
  return out;
}

function nodeOfLine(program: Program, file: ProgramFile, line: number): FunctionRef | undefined {
  let best: FunctionIR | undefined;
  for (const fn of file.ir.functions) {
    if (fn.startLine <= line && fn.endLine >= line && (!best || fn.startLine >= best.startLine)) best = fn;
  }
  return best ? program.nodeOf.get(best) : undefined;
}

/** Input of `pythonWebWitnesses`. */
interface WebCheckInput {
  program: Program;
  facts: LanguageFacts;
  entries: readonly EntryPoint[];
  /** Witnesses found so far (statement witnesses, helper summaries, decorators), by function. */
  byFunction: ReadonlyMap<string, readonly Witness[]>;
}

/** What the framework-level checks add: witnesses, and entries declared public (DRF `AllowAny`). */
export interface WebChecks {
  witnesses: Witness[];
  publicEntries: string[];
  /**
   * Decorators written above a Flask view's route decorator, by function id: they wrap the function
   * after it was registered, so the registered view runs without them (their witnesses are dropped).
   */
  outsideRoute: Map<string, Set<string>>;
}

/** A check a decorator, a dependency or a hook proves, with where it was seen. */
interface Proof {
  kind: DischargeKind;
  dischargerId: string;
  evidence: string;
}

/** Router and class witnesses of Django, DRF, Flask and FastAPI entries. */
export function pythonWebWitnesses(input: WebCheckInput): WebChecks {
  const out: WebChecks = { witnesses: [], publicEntries: [], outsideRoute: new Map() };
  const python = input.entries.filter((e) => e.framework === 'django' || e.framework === 'flask' || e.framework === 'fastapi');
  if (python.length === 0) return out;
  const judged = new Map<string, Proof[]>();
  const decoratorProofs = (home: ProgramFile, text: string): Proof[] => {
    const name = /^([A-Za-z_][\w.]*)/.exec(text)?.[1]?.split('.').pop() ?? '';
    const key = `${home.path}:${name}`;
    let proofs = judged.get(key);
    if (!proofs) {
      judged.set(key, []);
      const fn = repositoryFunction(input.program, home, name);
      proofs = fn ? judgeDecorator(input, fn, 0) : [];
      judged.set(key, proofs);
    }
    return proofs;
  };
  const settings = drfDefault(input);
  const middleware = loginMiddleware(input);
  const hooks = beforeRequestHooks(input);
  for (const entry of python) {
    const ref = input.program.functions.get(entry.functionId);
    const file = input.program.byPath.get(entry.path);
    if (!ref || !file) continue;
    const add = (proof: Proof, scope: Witness['scope']): void => {
      out.witnesses.push({ kind: proof.kind, scope, functionId: entry.functionId, line: null, dischargerId: proof.dischargerId, evidence: proof.evidence });
    };
    // The repository's own decorators on the view; Flask registers the function its route decorator
    // receives, so a decorator above that one never runs for the request.
    const routeAt = entry.framework === 'flask' ? ref.fn.decorators.findIndex((d) => flaskRoute(file, [d]) !== null) : -1;
    if (routeAt > 0) out.outsideRoute.set(entry.functionId, new Set(ref.fn.decorators.slice(0, routeAt).map((d) => `@${d}`)));
    for (const text of ref.fn.decorators.slice(Math.max(routeAt, 0))) for (const proof of decoratorProofs(file, text)) add(proof, 'decorator');
    if (entry.framework === 'django') {
      const classChecks = djangoClassChecks(input, file, ref, settings);
      for (const proof of classChecks.proofs) add(proof, 'class');
      if (classChecks.public) out.publicEntries.push(entry.functionId);
      if (middleware && !ref.fn.decorators.some((d) => /^login_not_required\b/.test(d))) add(middleware, 'router');
    }
    if (entry.framework === 'flask') {
      for (const use of classMethodDecorators(input.program, ref)) {
        const row = rowFor(input.facts, (d) => d.decorators, use.text);
        const proofs = row ? [{ kind: row.kind, dischargerId: row.id, evidence: `${use.text} in ${use.where}` }] : decoratorProofs(use.file, use.text);
        for (const proof of proofs) if (proof.kind !== 'public') add(proof, 'class');
      }
      const route = flaskRoute(file, ref.fn.decorators) ?? classRoute(input.program, file, ref);
      for (const hook of hooks) {
        if (hook.receiver !== 'app' && (route === null || route.receiver !== hook.receiver || !sameBinding(input.program, file, hook.file, hook.receiver))) continue;
        for (const proof of hook.proofs) add(proof, 'router');
      }
    }
    if (entry.framework === 'fastapi') for (const proof of dependencyProofs(input, file, ref, 0, new Set())) add(proof, 'router');
  }
  // Wrappers written around a view in the URLconf.
  for (const file of input.program.files) {
    if (file.factsLanguage !== 'python') continue;
    for (const site of urlConfViews(input.program, file)) {
      if (site.view.wrappers.length === 0) continue;
      const targets = site.view.fn ? [site.view.fn] : site.view.cls ? classHandlers(input, site.view.cls.name) : [];
      for (const wrapper of site.view.wrappers) {
        const row = rowFor(input.facts, (d) => d.decorators, wrapper);
        const proofs = row ? [{ kind: row.kind, dischargerId: row.id, evidence: `${wrapper}(...) around the view in ${file.path}:${site.line}` }] : decoratorProofs(file, wrapper);
        for (const target of targets) for (const proof of proofs) if (proof.kind !== 'public') out.witnesses.push({ kind: proof.kind, scope: 'router', functionId: target.id, line: null, dischargerId: proof.dischargerId, evidence: proof.evidence });
      }
    }
  }
  return out;
}

/** Re-exports followed: `from plane.app.permissions import allow_permission`, whose `__init__.py` imports it from `.base`. */
const MAX_REEXPORTS = 2;

/** `name` as `file` defines it or imports it (through at most MAX_REEXPORTS package re-exports), or null. */
function importedFunction(program: Program, file: ProgramFile, name: string, reexports: number): FunctionRef | null {
  const own = program.moduleFunctions.get(file.path)?.get(name)?.find((f) => f.fn.qualifiedName === name);
  if (own) return own;
  if (reexports > MAX_REEXPORTS) return null;
  for (const imp of file.ir.imports) {
    if (!imp.names.includes(name)) continue;
    for (const target of moduleFiles(program, file.path, imp.module)) {
      const found = target.path === file.path ? null : importedFunction(program, target, name, reexports + 1);
      if (found) return found;
    }
  }
  return null;
}

/** The first discharger row one of whose patterns (chosen by `field`) matches `text`. */
function rowFor(facts: LanguageFacts, field: (d: DischargerFact) => RegExp[], text: string): DischargerFact | null {
  return facts.dischargers.find((d) => field(d).some((re) => re.test(text))) ?? null;
}

/** Every row matching `text` through `field`. */
function rowsFor(facts: LanguageFacts, field: (d: DischargerFact) => RegExp[], text: string): DischargerFact[] {
  return facts.dischargers.filter((d) => field(d).some((re) => re.test(text)));
}

/** A module-level function of the repository named `name` as `file` sees it: its own, an imported one, or the only one. */
export function repositoryFunction(program: Program, file: ProgramFile, name: string): FunctionRef | null {
  if (name === '') return null;
  const imported = importedFunction(program, file, name, 0);
  if (imported) return imported;
  const all = (program.byName.get(name) ?? []).filter((f) => f.fn.qualifiedName === name);
  if (all.length === 1) return all[0] ?? null;
  // Imported from a package whose `__init__.py` re-exports it (and was not read): the one defined inside that package.
  const packages = file.ir.imports.filter((imp) => imp.names.includes(name) && /^\w+(\.\w+)*$/.test(imp.module)).map((imp) => `${imp.module.replaceAll('.', '/')}/`);
  const inPackage = all.filter((f) => packages.some((dir) => f.path.startsWith(dir) || f.path.includes(`/${dir}`)));
  return inPackage.length === 1 ? (inPackage[0] ?? null) : null;
}

/** The functions written inside `outer` (its closures), innermost last. */
function nestedFunctions(program: Program, file: ProgramFile, outer: FunctionIR): FunctionIR[] {
  return file.ir.functions.filter((fn) => fn !== outer && fn.startLine > outer.startLine && fn.endLine <= outer.endLine && !fn.isLambda && program.nodeOf.has(fn));
}

/**
 * What a repository decorator proves: its wrapper calls the view (a parameter of the decorator or of
 * a factory around it) only under a test, or after a refusal; the test's words give the kind. Checks
 * the wrapper makes before calling the view (a discharger call, a helper) and decorators on the wrapper
 * (`@jwt_required`) count too.
 */
function judgeDecorator(input: WebCheckInput, decorator: FunctionRef, depth: number): Proof[] {
  const file = input.program.byPath.get(decorator.path);
  if (!file || depth > MAX_DEPTH) return [];
  const proofs: Proof[] = [];
  const params = new Set(decorator.fn.parameters.map((p) => p.name));
  for (const inner of nestedFunctions(input.program, file, decorator.fn)) for (const p of inner.parameters) params.add(p.name);
  const wrappers = nestedFunctions(input.program, file, decorator.fn);
  const returned = factoryCheck(input.facts, file, decorator.fn, wrappers);
  if (returned) proofs.push({ kind: returned.row.kind, dischargerId: returned.row.id, evidence: `decorator ${decorator.fn.name} (${decorator.path}:${decorator.fn.startLine}) returns ${returned.text}` });
  for (const wrapper of wrappers) {
    const callLines = viewCallLines(file, wrapper, params);
    const callLine = callLines[0];
    if (callLine === undefined) continue;
    const where = `${decorator.fn.name} (${decorator.path}:${decorator.fn.startLine})`;
    for (const text of wrapper.decorators) {
      const row = rowFor(input.facts, (d) => d.decorators, text);
      if (row && row.kind !== 'public' && row.kind !== 'csrf_guard') proofs.push({ kind: row.kind, dischargerId: row.id, evidence: `decorator ${where}: @${text}` });
    }
    // Every call of the view must be gated: the decorator proves the weakest of its branches' checks.
    const branches = callLines.map((line) => viewCallGuard(file, wrapper, line));
    if (branches.every((b) => b !== null)) {
      const weakest = branches.reduce((a, b) => (GUARD_STRENGTH.indexOf(b.kind) < GUARD_STRENGTH.indexOf(a.kind) ? b : a));
      proofs.push({ kind: weakest.kind, dischargerId: weakest.dischargerId, evidence: `decorator ${where} ${weakest.why}` });
    }
    const node = input.program.nodeOf.get(wrapper);
    for (const w of node ? (input.byFunction.get(node.id) ?? []) : []) {
      if (w.scope !== 'statement' || w.line === null || w.line >= callLine || w.kind === 'csrf_guard' || w.kind === 'public' || w.until !== undefined || w.blockEnd !== undefined) continue;
      proofs.push({ kind: w.kind, dischargerId: w.dischargerId, evidence: `decorator ${where}: ${w.evidence}` });
    }
  }
  return proofs;
}

/**
 * The framework check a decorator factory hands back (Tandoor's `group_required(*groups)` ends in
 * `return user_passes_test(in_groups, login_url=...)`): the weakest of the rows its own returns match,
 * or null when one of them is no check (`return view`, a plain wrapper), since that branch decorates
 * with nothing.
 */
function factoryCheck(facts: LanguageFacts, file: ProgramFile, factory: FunctionIR, nested: readonly FunctionIR[]): { row: DischargerFact; text: string } | null {
  const found: { row: DischargerFact; text: string }[] = [];
  for (let line = factory.bodyStartLine; line <= factory.endLine; line++) {
    if (nested.some((fn) => line >= fn.startLine && line <= fn.endLine)) continue;
    const text = /^\s*return\s+(.+?)\s*(#.*)?$/.exec(file.lines[line - 1] ?? '')?.[1];
    if (text === undefined) continue;
    const row = rowFor(facts, (d) => d.decorators, text);
    if (!row || row.kind === 'public' || row.kind === 'csrf_guard') return null;
    found.push({ row, text: text.replace(/\(.*$/, '(...)') });
  }
  if (found.length === 0) return null;
  return found.reduce((a, b) => (GUARD_STRENGTH.indexOf(b.row.kind) < GUARD_STRENGTH.indexOf(a.row.kind) ? b : a));
}

/** Weakest first: a branch that only logs in leaves the decorator a login check. */
const GUARD_STRENGTH: readonly DischargeKind[] = ['authn', 'ownership_check', 'path_guard'];

/**
 * What stands before one call of the wrapped view: the test it is the branch of (`if allowed:` then
 * `return view(...)`; a bare name is read through its assignment, `obj = Model.objects.filter(created_by=
 * request.user).exists()`), and the refusals above it in its enclosing blocks (`if not member: return
 * Response(status=403)`). The strongest of them, or null when nothing does.
 */
function viewCallGuard(file: ProgramFile, wrapper: FunctionIR, callLine: number): { kind: DischargeKind; dischargerId: string; why: string } | null {
  const found: { kind: DischargeKind; dischargerId: string; why: string }[] = [];
  const head = branchHead(file, wrapper, callLine);
  if (head?.positive) {
    const bare = /^\s*(not\s+)?([A-Za-z_]\w*)\s*$/.exec(head.text);
    const assigned = bare && !bare[1] ? localAssignment(file, head.line, wrapper, bare[2] ?? '') : null;
    const kind = assigned !== null && CALLER_KEYED.test(assigned) ? 'ownership_check' : ((assigned === null ? null : testKind(assigned, null)) ?? testKind(head.text, null));
    if (kind !== null) found.push({ kind, dischargerId: 'python.decorator-gate', why: `calls the view only when ${head.text.trim()}` });
  }
  const callIndent = indentOf(file.lines[callLine - 1] ?? '');
  for (let line = wrapper.bodyStartLine; line < callLine; line++) {
    const text = file.lines[line - 1] ?? '';
    const indent = indentOf(text);
    if (!/^\s*if\b/.test(text) || indent > callIndent || !branchLeaves(file, line) || !enclosesLater(file, line, callLine)) continue;
    const test = /^\s*if\b(.*):\s*(#.*)?$/.exec(continuedHead(file, line, callLine));
    if (!test) continue;
    const kind = testKind(test[1] ?? '', /\b401\b/.test(file.lines[line] ?? '') ? '401' : null);
    if (kind !== null) found.push({ kind, dischargerId: 'python.decorator-refusal', why: `refuses when ${(test[1] ?? '').replace(/\s+/g, ' ').trim()}` });
  }
  if (found.length === 0) return null;
  return found.reduce((a, b) => (GUARD_STRENGTH.indexOf(b.kind) > GUARD_STRENGTH.indexOf(a.kind) ? b : a));
}

/** True when the `if` block on `line` ends before `callLine` and `callLine` runs after it in the same block. */
function enclosesLater(file: ProgramFile, line: number, callLine: number): boolean {
  const indent = indentOf(file.lines[line - 1] ?? '');
  let inBlock = true;
  for (let l = line + 1; l <= callLine; l++) {
    const text = file.lines[l - 1] ?? '';
    if (text.trim() === '' || /^\s*#/.test(text)) continue;
    if (indentOf(text) < indent) return false;
    if (indentOf(text) === indent && !/^\s*\)/.test(text)) inBlock = false;
    // A test continued over lines closes at the `if`'s own indent (`).exists():`): still the head.
  }
  return !inBlock;
}

/** The text assigned to `name` nearest above `line` in `fn` (`obj = ...`), or null. */
function localAssignment(file: ProgramFile, line: number, fn: FunctionIR, name: string): string | null {
  const assignment = new RegExp(String.raw`^\s*${name}\s*=(?!=)(.*)$`);
  for (let l = line - 1; l >= fn.bodyStartLine; l--) {
    const match = assignment.exec(file.lines[l - 1] ?? '');
    if (!match) continue;
    // The statement to its closing parenthesis (`x = (\n  Model.objects.filter(...)\n  .exists()\n)`).
    let text = match[1] ?? '';
    for (let next = l + 1; next < line && depthOf(text) > 0; next++) text += ` ${(file.lines[next - 1] ?? '').trim()}`;
    return text;
  }
  return null;
}

/** The lines where a wrapper calls the wrapped view (`return f(*args, **kwargs)`, `view(instance, request, *args)`). */
function viewCallLines(file: ProgramFile, wrapper: FunctionIR, params: ReadonlySet<string>): number[] {
  const lines: number[] = [];
  for (let line = wrapper.bodyStartLine; line <= wrapper.endLine; line++) {
    const call = /\b([A-Za-z_]\w*)\([^()]*?\*\s*args\b|\b([A-Za-z_]\w*)\([^()]*?\*\*\s*kwargs\b/.exec(file.lines[line - 1] ?? '');
    const name = call?.[1] ?? call?.[2];
    if (name !== undefined && params.has(name)) lines.push(line);
  }
  return lines;
}

/** True when the block of the `if` on `line` leaves (returns, raises, aborts or redirects). */
function branchLeaves(file: ProgramFile, line: number): boolean {
  const indent = indentOf(file.lines[line - 1] ?? '');
  for (let l = line + 1; l <= file.lines.length; l++) {
    const text = file.lines[l - 1] ?? '';
    if (text.trim() === '' || /^\s*#/.test(text)) continue;
    if (indentOf(text) <= indent) return false;
    if (EXIT.test(text)) return true;
  }
  return false;
}

/** Django class checks of a handler method: mixins, `permission_classes` (own, inherited, or the DRF default). */
function djangoClassChecks(input: WebCheckInput, file: ProgramFile, ref: FunctionRef, settings: string | null): { proofs: Proof[]; public: boolean } {
  const proofs: Proof[] = [];
  let attribute: { text: string; where: string } | null = null;
  const decorator = ref.fn.decorators.find((d) => /^permission_classes\(/.test(d));
  if (decorator) attribute = { text: `permission_classes = ${decorator.slice('permission_classes('.length, -1)}`, where: `@${decorator}` };
  attribute ??= actionPermissions(input.program, ref);
  const cls = ref.fn.className === null ? null : lookupClass(input.program.table, ref.fn.className, ref.path);
  let drf = ref.fn.decorators.some((d) => /^api_view\b/.test(d));
  if (cls) {
    for (const record of superChain(input.program.table, cls)) {
      const bases = [record.superclass, ...record.interfaces].filter((b): b is string => b !== null).map((b) => b.split('.').pop() ?? b);
      const viewAt = bases.findIndex((b) => DJANGO_VIEW_BASE.test(b) && !rowFor(input.facts, (d) => d.bases, b));
      bases.forEach((base, at) => {
        if (DRF_VIEW.test(base)) drf = true;
        // Django runs a mixin's dispatch only when it comes before the view in the bases.
        if (viewAt >= 0 && at > viewAt) return;
        for (const row of rowsFor(input.facts, (d) => d.bases, base)) proofs.push({ kind: row.kind, dischargerId: row.id, evidence: `${base} in the bases of ${record.name}` });
      });
      const home = input.program.byPath.get(record.path);
      if (attribute === null && home) {
        const own = home.ir.classes.find((c) => c.name === record.name);
        const text = own ? classAttribute(home, own.startLine, own.endLine, 'permission_classes') : null;
        if (text !== null) attribute = { text, where: `${record.name}.permission_classes` };
      }
    }
  }
  if (attribute === null && drf && settings !== null) attribute = { text: settings, where: 'DEFAULT_PERMISSION_CLASSES' };
  let declaredPublic = false;
  if (attribute !== null) {
    for (const row of rowsFor(input.facts, (d) => d.classAttributes, attribute.text)) {
      if (row.kind === 'public') declaredPublic = true;
      else proofs.push({ kind: row.kind, dischargerId: row.id, evidence: `${attribute.where}: ${attribute.text.replace(/\s+/g, ' ').slice(0, 120)}` });
    }
    // The project's own classes by what their has_permission tests; has_object_permission binds only the object get_object() returns.
    const own = permissionClassChecks(input.program, input.facts, attribute.text, ref.path);
    for (const kind of own?.request ?? []) proofs.push({ kind, dischargerId: 'drf.project-permission', evidence: `${attribute.where}: ${own?.classes.join(', ') ?? ''}.has_permission tests ${KIND_WORDS[kind]}` });
  }
  return { proofs, public: declaredPublic };
}

/** DRF's `DEFAULT_PERMISSION_CLASSES`, read as a `permission_classes = ...` assignment, or null (DRF's default is AllowAny). */
export function drfDefault(input: { program: Program }): string | null {
  for (const file of input.program.files) {
    if (file.factsLanguage !== 'python' || !file.text.includes('DEFAULT_PERMISSION_CLASSES')) continue;
    const line = file.lines.findIndex((t) => /['"]DEFAULT_PERMISSION_CLASSES['"]\s*:/.test(t));
    if (line < 0) continue;
    const text = bracketed(file, line + 1);
    return `permission_classes = ${text.slice(text.indexOf(':') + 1).trim()}`;
  }
  return null;
}

/** Django's `LoginRequiredMiddleware` in a settings module's `MIDDLEWARE`, as a proof, or null. */
function loginMiddleware(input: WebCheckInput): Proof | null {
  for (const file of input.program.files) {
    if (file.factsLanguage !== 'python' || !/^MIDDLEWARE\s*[+]?=/m.test(file.text)) continue;
    for (const match of file.text.matchAll(/['"]([\w.]+)['"]/g)) {
      const row = rowFor(input.facts, (d) => d.middleware, match[1] ?? '');
      if (row && row.kind !== 'public') return { kind: row.kind, dischargerId: row.id, evidence: `${match[1] ?? ''} in MIDDLEWARE (${file.path})` };
    }
  }
  return null;
}

/** The handler methods of a view class that are entries. */
function classHandlers(input: WebCheckInput, className: string): FunctionRef[] {
  return input.entries.filter((e) => e.function.startsWith(`${className}.`)).map((e) => input.program.functions.get(e.functionId)).filter((r): r is FunctionRef => r !== undefined);
}

/** A Flask `before_request` hook and what it proves. */
interface Hook {
  receiver: string;
  file: ProgramFile;
  proofs: Proof[];
}

/** `@bp.before_request` functions (and `bp.before_request(fn)`) that refuse on every request they judge. */
function beforeRequestHooks(input: WebCheckInput): Hook[] {
  const hooks: Hook[] = [];
  for (const file of input.program.files) {
    if (file.factsLanguage !== 'python' || !file.text.includes('before_request')) continue;
    const found: { receiver: string; fn: FunctionRef }[] = [];
    for (const fn of file.ir.functions) {
      const ref = input.program.nodeOf.get(fn);
      const receiver = fn.decorators.map((d) => /^([A-Za-z_]\w*)\.before_request$/.exec(d)?.[1]).find((r) => r !== undefined);
      if (ref && ref.fn === fn && receiver !== undefined) found.push({ receiver, fn: ref });
    }
    for (const call of file.ir.calls) {
      const name = call.callee === 'before_request' && call.receiver !== null ? /\(\s*([A-Za-z_]\w*)\s*\)/.exec(call.text)?.[1] : undefined;
      const fn = name === undefined ? null : repositoryFunction(input.program, file, name);
      if (fn && call.receiver !== null) found.push({ receiver: call.receiver, fn });
    }
    for (const { receiver, fn } of found) {
      const proofs = (input.byFunction.get(fn.id) ?? [])
        .filter((w) => w.scope === 'statement' && w.kind !== 'csrf_guard' && w.kind !== 'public' && w.until === undefined && w.blockEnd === undefined)
        .map((w) => ({ kind: w.kind, dischargerId: w.dischargerId, evidence: `${receiver}.before_request ${fn.fn.name}() (${fn.path}:${fn.fn.startLine}): ${w.evidence}` }));
      if (proofs.length > 0) hooks.push({ receiver, file, proofs });
    }
  }
  return hooks;
}

/** The route decorator of a Flask-RESTX resource method's class (`@ns.route("/x")` on the class). */
function classRoute(program: Program, file: ProgramFile, ref: FunctionRef): { receiver: string } | null {
  const cls = file.ir.classes.find((c) => c.name === ref.fn.className);
  const text = cls?.decorators.find((d) => /^[A-Za-z_]\w*\.route\(/.test(d));
  return text === undefined ? null : { receiver: text.slice(0, text.indexOf('.')) };
}

/** True when `name` in `from` and in `hookFile` is the same object: the same file, or one imports it from the other or from a shared module. */
function sameBinding(program: Program, from: ProgramFile, hookFile: ProgramFile, name: string): boolean {
  if (from.path === hookFile.path) return true;
  const source = (file: ProgramFile): string[] => file.ir.imports.filter((imp) => imp.names.includes(name)).flatMap((imp) => moduleFiles(program, file.path, imp.module).map((f) => f.path));
  const a = source(from);
  const b = source(hookFile);
  return a.includes(hookFile.path) || b.includes(from.path) || a.some((p) => b.includes(p));
}

/** The declaration of a function from its decorators to the line before its body (parameters with their defaults). */
function declarationOf(file: ProgramFile, fn: FunctionIR): string {
  return file.lines.slice(fn.startLine - 1, Math.max(fn.startLine, fn.bodyStartLine - 1)).join('\n');
}

/** What the FastAPI dependencies of a path operation (or of a dependency) prove. */
function dependencyProofs(input: WebCheckInput, file: ProgramFile, ref: FunctionRef, depth: number, visited: Set<string>): Proof[] {
  if (depth > MAX_DEPTH || visited.has(ref.id)) return [];
  visited.add(ref.id);
  let text = declarationOf(file, ref.fn);
  // The router's own dependencies: `router = APIRouter(..., dependencies=[Depends(x)])` in the same file.
  const route = depth === 0 ? fastapiRoute(file, ref.fn.decorators) : null;
  if (route) {
    const at = file.lines.findIndex((t) => new RegExp(String.raw`^${route.receiver}\s*=\s*(APIRouter|FastAPI)\(`).test(t));
    if (at >= 0) text += `\n${bracketed(file, at + 1)}`;
  }
  const proofs: Proof[] = [];
  // Parameter types that are `Annotated[...]` aliases carry their dependencies (written in the alias's file).
  const declarations = [{ file, text }, ...aliasDependencyTexts(input.program, ref.fn)];
  for (const declaration of declarations) for (const match of declaration.text.matchAll(/\b(Depends|Security)\(\s*([A-Za-z_][\w.]*)/g)) {
    const name = (match[2] ?? '').split('.').pop() ?? '';
    const own = repositoryFunction(input.program, declaration.file, name);
    // `Depends(RoleChecker([...]))`: the instance's `__call__` and the classes handed to it.
    const dependencies = own ? [own] : classDependencyFunctions(input.program, declaration.file, declaration.text, name, (match.index ?? 0) + match[0].length);
    for (const dependency of dependencies) {
      const home = input.program.byPath.get(dependency.path);
      if (!home) continue;
      for (const w of input.byFunction.get(dependency.id) ?? []) {
        if (w.scope !== 'statement' || w.kind === 'csrf_guard' || w.kind === 'public' || w.until !== undefined) continue;
        proofs.push({ kind: w.kind, dischargerId: w.dischargerId, evidence: `${match[1] ?? 'Depends'}(${name}) (${dependency.path}:${dependency.fn.startLine}): ${w.evidence}` });
      }
      for (const inner of dependencyProofs(input, home, dependency, depth + 1, visited)) proofs.push({ ...inner, evidence: `${match[1] ?? 'Depends'}(${name}) → ${inner.evidence}` });
    }
  }
  return proofs;
}
