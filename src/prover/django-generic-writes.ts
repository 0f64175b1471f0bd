/**
 * The write handlers a Django generic edit view inherits (docs/prover.md, "Django's generic edit views",
 * ADR 0043). A `DeleteView` answers POST with the library's `post()`, which deletes `self.get_object()`
 * (`DeletionMixin`, Django 4's `form_valid`); an `UpdateView` saves a form over it. The object is the one
 * the URL's key picks, and no line of the repository does the write, so the checker sees no operation.
 * When the object belongs to a user (its model has a foreign key to the user model, or a handler of the
 * class compares it with the logged-in user), the inherited write needs what binds it to the caller:
 * a `get_queryset()` kept to the user's rows, a `get_object()` or `dispatch()` override that decides or
 * refuses, a permission mixin (`UserPassesTestMixin.test_func`, `PermissionRequiredMixin`), a
 * permission decorator on the class or around it in the URLconf. A login (`LoginRequiredMixin`) is not
 * one, nor a staff check (owned-records.ts), nor a test written in the class's own `get()`: GET and
 * POST are different handlers. Overriding `post()` (or the write hook) without `super()` puts the write
 * in the repository, where the checker judges it. DRF's generic views and model viewsets are read the same
 * way: `destroy()`/`update()` inherited from `DestroyAPIView`, `ModelViewSet`... write `self.get_object()`,
 * and the nearest `permission_classes` (else `DEFAULT_PERMISSION_CLASSES`; DRF's default is `AllowAny`)
 * binds it unless it is only `IsAuthenticated`; a `get_permissions()` override is taken as deciding.
 */
import { createHash } from 'node:crypto';
import { PROVER_RULE, type CheckInput } from './check.js';
import { userScopedQuerysetOf } from './django-querysets.js';
import type { Facts, LanguageFacts, OperationFact } from './facts.js';
import { ownerField, staffOnly } from './owned-records.js';
import { drfDefault } from './python-web-checks.js';
import { KIND_WORDS, permissionClassChecks } from './drf-permission-classes.js';
import { classAttribute, pythonBases } from './python-class-policies.js';
import { lineageNames } from './recognisers/python-views.js';
import { urlConfViews } from './recognisers/django.js';
import { lookupClass, type ClassRecord, type Program } from './resolution.js';
import type { ClassIR } from '../syntax/ir-types.js';
import type { FunctionRef, ProgramFile, ProverFinding, Witness } from './types.js';

const DJANGO = /^django(\.|$)/;
const DRF = /^rest_framework(\.|$)/;
/** A refusal or a decision in an override: it raises, answers 403/404, or redirects. */
const REFUSES = /\braise\b|\bHttpResponseForbidden\b|\bHttp404\b|\bPermissionDenied\b|\bredirect\(|\bhas_perm/;

/** A view class the rule judges: its file, IR and class record. */
interface ViewClass {
  file: ProgramFile;
  cls: ClassIR;
  record: ClassRecord;
  chain: ClassRecord[];
  /** The `class X(...)` line. */
  line: number;
}

/** Every inherited write of a Django generic edit view that nothing binds to the caller, as findings. */
export function inheritedWriteFindings(input: CheckInput & { facts: Facts }): ProverFinding[] {
  const facts = input.facts.python;
  const rows = facts.operations.filter((o) => o.judgedAs === 'django-generic-write');
  if (rows.length === 0) return [];
  const findings: ProverFinding[] = [];
  for (const file of input.program.files) {
    if (file.factsLanguage !== 'python') continue;
    for (const cls of file.ir.classes) {
      if (input.touched && !touchesClass(input.touched.lines.get(file.path), cls)) continue;
      const names = lineageNames(input.program, cls.name, file.path).filter((n) => n !== cls.name);
      const row = rows.find((r) => names.some((n) => r.calls.some((re) => re.test(n))));
      const record = row ? lookupClass(input.program.table, cls.name, file.path) : null;
      if (!row || !record) continue;
      const chain = pythonBases(input.program, record);
      // The library view itself, imported from Django or DRF (wagtail's own `ModelViewSet` is another class).
      if (!libraryBase(input.program, chain, row)) continue;
      const line = classLine(file, cls);
      const found = judgeView(input, facts, row, { file, cls, record, chain, line });
      if (found) findings.push(found);
    }
  }
  return findings;
}

/** True when a class of the chain names one of the row's views as a base imported from Django (or DRF, for its rows). */
function libraryBase(program: Program, chain: readonly ClassRecord[], row: OperationFact): boolean {
  const roots = row.id.startsWith('python.drf-') ? DRF : DJANGO;
  return chain.some((record) => {
    const home = program.byPath.get(record.path);
    // The bases as written (`viewsets.ModelViewSet`); the class table keeps the bare names.
    const own = home?.ir.classes.find((c) => c.name === record.name);
    if (!home || !own) return false;
    return [own.superclass, ...own.interfaces].some((base) => {
      const name = base?.split('.').pop() ?? '';
      if (base === null || !row.calls.some((re) => re.test(name))) return false;
      // `DeleteView` bound by its import, or `generic.DeleteView` through its module's.
      const bound = base.includes('.') ? base.slice(0, base.lastIndexOf('.')).split('.')[0] ?? base : base;
      return home.ir.imports.some((imp) => roots.test(imp.module) && (imp.names.includes(bound) || imp.module === bound || imp.module.startsWith(`${bound}.`)));
    });
  });
}

function touchesClass(lines: ReadonlySet<number> | undefined, cls: ClassIR): boolean {
  if (!lines) return false;
  for (let line = cls.startLine; line <= cls.endLine; line++) if (lines.has(line)) return true;
  return false;
}

function classLine(file: ProgramFile, cls: ClassIR): number {
  const declaration = new RegExp(String.raw`^\s*class\s+${cls.name}\b`);
  for (let line = cls.startLine; line <= cls.endLine; line++) if (declaration.test(file.lines[line - 1] ?? '')) return line;
  return cls.startLine;
}

/** The nearest definition of a method in the class chain (Python's lookup, depth first). */
function methodOf(view: ViewClass, name: string): FunctionRef | null {
  for (const record of view.chain) {
    const found = record.methods.find((m) => m.fn.name === name);
    if (found) return found;
  }
  return null;
}

function bodyOf(program: Program, ref: FunctionRef): string {
  const lines = program.byPath.get(ref.path)?.lines ?? [];
  return lines.slice(ref.fn.bodyStartLine - 1, ref.fn.endLine).join('\n');
}

/** A class-body attribute of one class record, as written (`model = Post`), or null. */
function classAttributeOf(program: Program, record: ClassRecord, name: string): string | null {
  const home = program.byPath.get(record.path);
  const own = home?.ir.classes.find((c) => c.name === record.name);
  return home && own ? classAttribute(home, own.startLine, own.endLine, name) : null;
}

/** The model the view's object is of: `model = X`, or `queryset = X.objects...`, from the class chain. */
function modelOf(program: Program, view: ViewClass): string | null {
  for (const record of view.chain) {
    const model = classAttributeOf(program, record, 'model');
    const queryset = classAttributeOf(program, record, 'queryset');
    // The attribute comes back as written (`model = Post`).
    const name = /^model\s*=\s*([A-Z]\w*)\s*$/.exec(model ?? '')?.[1] ?? /^queryset\s*=\s*([A-Z]\w*)\.objects\b/.exec(queryset ?? '')?.[1];
    if (name !== undefined) return name;
  }
  return null;
}

/** A statement check in another handler of the class (its own `get()`): it covers that handler only. */
function handlerTest(input: CheckInput, view: ViewClass, written: ReadonlySet<string>): { ref: FunctionRef; witness: Witness } | null {
  for (const record of view.chain) {
    for (const ref of record.methods) {
      if (written.has(ref.fn.name) || !input.entries.has(ref.id)) continue;
      const witness = (input.witnesses.byFunction.get(ref.id) ?? []).find((w) => w.scope === 'statement' && w.functionId === ref.id && (w.kind === 'ownership_check' || w.kind === 'path_guard'));
      if (witness) return { ref, witness };
    }
  }
  return null;
}

/** Checks declared for the whole view: mixins in the bases, decorators on the class, wrappers in the URLconf. */
function declaredChecks(program: Program, facts: LanguageFacts, view: ViewClass, drf: boolean): { kind: Witness['kind']; evidence: string }[] {
  const out: { kind: Witness['kind']; evidence: string }[] = [];
  // DRF: the nearest `permission_classes`, else DEFAULT_PERMISSION_CLASSES (DRF's own default is AllowAny).
  const permissions = drf ? (view.chain.map((r) => classAttributeOf(program, r, 'permission_classes')).find((t) => t !== null) ?? drfDefault({ program })) : null;
  if (permissions !== null) for (const row of facts.dischargers.filter((d) => d.classAttributes.some((re) => re.test(permissions)))) out.push({ kind: row.kind, evidence: permissions.replace(/\s+/g, ' ').slice(0, 120) });
  // The project's own classes by their body: get_object() runs has_object_permission on the very object written here.
  const own = permissions === null ? null : permissionClassChecks(program, facts, permissions, view.file.path);
  for (const kind of new Set([...(own?.request ?? []), ...(own?.object ?? [])])) out.push({ kind, evidence: `${own?.classes.join(', ') ?? ''} test ${KIND_WORDS[kind]}` });
  for (const record of view.chain) {
    for (const base of [record.superclass, ...record.interfaces]) {
      const name = base?.split('.').pop() ?? '';
      for (const row of facts.dischargers.filter((d) => d.bases.some((re) => re.test(name)))) out.push({ kind: row.kind, evidence: `${name} in the bases of ${record.name}` });
    }
    const own = program.byPath.get(record.path)?.ir.classes.find((c) => c.name === record.name);
    for (const decorator of own?.decorators ?? []) {
      for (const row of facts.dischargers.filter((d) => d.decorators.some((re) => re.test(decorator)))) out.push({ kind: row.kind, evidence: `@${decorator} on ${record.name}` });
    }
  }
  for (const file of program.files) {
    if (file.factsLanguage !== 'python') continue;
    for (const site of urlConfViews(program, file)) {
      if (site.view.cls?.name !== view.cls.name) continue;
      for (const wrapper of site.view.wrappers) {
        const rows = facts.dischargers.filter((d) => d.decorators.some((re) => re.test(wrapper)));
        // A wrapper of the repository's own is judged nowhere here: taken as a check rather than guessed away.
        if (rows.length === 0) out.push({ kind: 'path_guard', evidence: `${wrapper}(...) around the view in ${file.path}:${site.line}` });
        for (const row of rows) out.push({ kind: row.kind, evidence: `${wrapper}(...) around the view in ${file.path}:${site.line}` });
      }
    }
  }
  return out;
}

/** The finding for one view class, or null when the write is the repository's, not the caller's object, or bound. */
function judgeView(input: CheckInput & { facts: Facts }, facts: LanguageFacts, row: OperationFact, view: ViewClass): ProverFinding | null {
  const { program } = input;
  const deletion = row.kind === 'data_deletion';
  const drf = row.id.startsWith('python.drf-');
  const base = lineageNames(program, view.cls.name, view.file.path).find((n) => row.calls.some((re) => re.test(n))) ?? 'the generic view';
  // The handlers that reach the library's write; one overridden without super() writes in the repository.
  const written = drf ? (deletion ? ['destroy', 'perform_destroy'] : ['update', 'partial_update', 'perform_update']) : deletion ? ['post', 'delete', 'form_valid'] : ['post', 'put', 'form_valid'];
  const handler = written[0] ?? 'post';
  for (const name of written) {
    const own = methodOf(view, name);
    if (own && !new RegExp(String.raw`\bsuper\([^)]*\)\.${name}\(`).test(bodyOf(program, own))) return null;
  }
  // Whatever decides the object or refuses before the handler binds it.
  if (userScopedQuerysetOf(program, facts, view.cls.name, view.file.path) !== null) return null;
  // DRF picks its permissions per action in get_permissions(): not read here, taken as deciding.
  if (drf && methodOf(view, 'get_permissions') !== null) return null;
  for (const name of ['get_object', 'dispatch']) {
    const own = methodOf(view, name);
    if (own && (REFUSES.test(bodyOf(program, own)) || facts.currentUser.some((re) => re.test(bodyOf(program, own))))) return null;
  }
  const declared = declaredChecks(program, facts, view, drf);
  const binding = declared.filter((c) => (c.kind === 'path_guard' || c.kind === 'ownership_check') && !staffOnly({ evidence: c.evidence } as Witness));
  if (binding.length > 0) return null;
  // Only an object that belongs to a user is at risk of being another user's.
  const model = modelOf(program, view);
  const field = model === null ? null : ownerField(program, model, view.file.path);
  const test = handlerTest(input, view, new Set(written));
  const ownerTest = test?.witness.kind === 'ownership_check' ? test : null;
  if (field === null && ownerTest === null) return null;
  const object = model ?? 'object';
  const whose = field !== null ? `${object}.${field} says each one belongs to a user` : `the class's own handler tests it against the logged-in user`;
  const weaker = declared.filter((c) => !binding.includes(c)).map((c) => `${c.evidence} (${c.kind === 'authn' ? 'a login' : c.kind === 'public' ? 'declared public' : 'staff status'})`);
  const testText = test ? (view.file.lines[(test.witness.line ?? 0) - 1] ?? '').trim() : '';
  const uncovered = test ? ` The test \`${testText}\` in ${test.ref.fn.qualifiedName} (line ${test.witness.line ?? 0}) covers that handler only: the write goes to the inherited ${handler}() instead.` : '';
  const write = deletion ? 'deletes' : 'saves a form over';
  const sentence =
    `\`self.get_object()\` is the ${object} the URL's key picks, and ${view.cls.name} inherits ${handler}() from ${base}, which ${write} it; ${whose}, but no get_queryset() keeps the user's rows, ` +
    `no get_object() or dispatch() override decides or refuses, and no permission ${drf ? 'class' : 'mixin or decorator'} covers the view${weaker.length > 0 ? ` (${weaker.join('; ')} only)` : ''}.${uncovered}`;
  const functionName = `${view.cls.name}.${handler}`;
  const call = `${base}.${handler}() → self.get_object()${deletion ? '.delete()' : drf ? ' saved by its serializer' : ' saved by form_valid()'} (inherited)`;
  const id = createHash('sha256').update(`${PROVER_RULE}\0${view.file.path}::${functionName}\0${row.id}\0${call}`).digest('hex').slice(0, 12);
  return {
    id,
    rule: PROVER_RULE,
    label: 'resource_unbound',
    path: view.file.path,
    line: view.line,
    function: functionName,
    entry: { path: view.file.path, function: functionName, line: view.line, framework: 'django', evidence: `${handler}() inherited from ${base}, the handler ${drf ? 'DRF' : 'Django'} runs for a ${drf ? (deletion ? 'DELETE' : 'PUT or PATCH') : 'POST'} to ${view.cls.name}` },
    hops: test ? [{ function: test.ref.fn.qualifiedName, path: view.file.path, callLine: test.witness.line ?? test.ref.fn.startLine, relation: `${test.ref.fn.qualifiedName} tests \`${testText}\` for ${test.ref.fn.name.toUpperCase()} requests only; the write runs the inherited ${handler}()` }] : [],
    operation: { id: row.id, kind: row.kind, line: view.line, call },
    missing: row.requires.join('|'),
    weakerChecks: weaker,
    severity: row.severity,
    confidence: 0.8,
    cwe: 'CWE-639',
    evidence: (view.file.lines[view.line - 1] ?? '').trim(),
    unboundResource: { variable: 'self.get_object()', sentence },
  };
}
