/**
 * Django and Django REST framework: views a URLconf names (`path`, `re_path`, legacy `url`, with the
 * wrappers written around them there, `login_required(views.edit)`), the handler methods of class-based
 * views (verb methods, the edit views' `form_valid`, DRF viewset actions and `perform_*` hooks, `@action`
 * extras) wherever the class derives from a Django or DRF view, and `@api_view` functions.
 */
import { superChain, lookupClass, type Program } from '../resolution.js';
import type { ProgramFile } from '../types.js';
import { callArgumentsOf, callText, handlerMethods, HTTP_VERBS, importsFramework, lineageNames, namedView, pushOnce, viewEntry, type NamedView } from './python-views.js';
import { nothing, type Recogniser } from './types.js';

const DJANGO = /^(django|rest_framework)(\.|$)/;
/** Library classes a view derives from (Django's generic views, DRF's API views and viewsets). */
const VIEW_BASES = /^(View|TemplateView|RedirectView|FormView|CreateView|UpdateView|DeleteView|DetailView|ListView|ProcessFormView|BaseFormView|BaseCreateView|BaseUpdateView|BaseDeleteView|DeletionMixin|APIView|GenericAPIView|\w*APIView|ViewSet|GenericViewSet|ModelViewSet|ReadOnlyModelViewSet|ViewSetMixin)$/;
const VIEWSET_BASES = /^(ViewSet|GenericViewSet|ModelViewSet|ReadOnlyModelViewSet|ViewSetMixin)$/;
const VIEWSET_ACTIONS = new Set(['list', 'retrieve', 'create', 'update', 'partial_update', 'destroy']);
/** Methods the generic views call while handling a request: where their writes are. */
const GENERIC_HOOKS = new Set(['form_valid', 'perform_create', 'perform_update', 'perform_destroy']);
const URL_CALLS = new Set(['path', 're_path', 'url']);

/** True when a class or one of its repository ancestors is declared in a file importing Django or DRF. */
function djangoLineage(program: Program, file: ProgramFile, className: string): boolean {
  if (importsFramework(file, DJANGO)) return true;
  const record = lookupClass(program.table, className, file.path);
  return record !== null && superChain(program.table, record).some((r) => {
    const home = program.byPath.get(r.path);
    return home !== undefined && importsFramework(home, DJANGO);
  });
}

/** True for a URLconf: `urls.py`, or a module defining `urlpatterns`. */
function isUrlConf(file: ProgramFile): boolean {
  return /(^|\/)urls\.py$/.test(file.path) || /^urlpatterns\s*[+]?=/m.test(file.text);
}

/** One `path(route, view)` of a URLconf. */
export interface UrlConfView {
  line: number;
  callee: string;
  route: string;
  view: NamedView;
}

/** The views a URLconf names, with the wrappers written around them (`login_required(views.x)`). */
export function urlConfViews(program: Program, file: ProgramFile): UrlConfView[] {
  if (!isUrlConf(file)) return [];
  const out: UrlConfView[] = [];
  for (const call of file.ir.calls) {
    if (!URL_CALLS.has(call.callee) || (call.receiver !== null && !/^(django\.urls|django\.conf\.urls)$/.test(call.receiver))) continue;
    const args = callArgumentsOf(callText(file, call.line, call.callee), call.callee);
    const view = args[1];
    if (view === undefined || /^include\s*\(/.test(view)) continue;
    const route = /^[rbu]?['"]([^'"]*)['"]/.exec(args[0] ?? '')?.[1] ?? '';
    out.push({ line: call.line, callee: call.callee, route, view: namedView(program, file, view) });
  }
  return out;
}

export const django: Recogniser = {
  id: 'django',
  languages: ['python'],
  // URLconfs, settings (DRF's default permission classes, MIDDLEWARE), the repository's own view
  // decorators, and models whose random primary key makes a lookup a secret link.
  registrationFiles: { paths: [/(^|\/)urls\.py$/, /(^|\/)settings(\/[\w-]+)?\.py$/], markers: [/^urlpatterns\s*[+]?=/m, /\bDEFAULT_PERMISSION_CLASSES\b/, /^MIDDLEWARE\s*[+]?=/m, /@(functools\.)?wraps\(/, /primary_key\s*=\s*True/] },
  recognise(file, { program }) {
    const result = nothing();
    const seen = new Set<string>();
    // Class-based views, wherever they are declared.
    for (const cls of file.ir.classes) {
      const names = lineageNames(program, cls.name, file.path);
      const base = names.find((n) => VIEW_BASES.test(n) && n !== cls.name);
      if (base === undefined || !djangoLineage(program, file, cls.name)) continue;
      const viewset = names.some((n) => VIEWSET_BASES.test(n));
      const wanted = (name: string, decorators: string[]): boolean =>
        HTTP_VERBS.has(name) || GENERIC_HOOKS.has(name) || (viewset && (VIEWSET_ACTIONS.has(name) || decorators.some((d) => /^action\b/.test(d))));
      for (const ref of handlerMethods(program, file, cls.name, (name, r) => wanted(name, r.fn.decorators))) {
        pushOnce(result.entries, seen, viewEntry(ref, 'django', `${ref.fn.name}() of ${cls.name}, a ${base}`));
      }
    }
    // `@api_view(['POST'])` function views.
    for (const fn of file.ir.functions) {
      const ref = program.nodeOf.get(fn);
      if (!ref || ref.fn !== fn || !fn.decorators.some((d) => /^api_view\b/.test(d))) continue;
      pushOnce(result.entries, seen, viewEntry(ref, 'django', `@${fn.decorators.find((d) => /^api_view\b/.test(d)) ?? 'api_view'}`));
    }
    for (const site of urlConfViews(program, file)) {
      const evidence = `${site.callee}('${site.route}') at ${file.path}:${site.line}`;
      if (site.view.fn) {
        const known = result.entries.find((e) => e.functionId === site.view.fn?.id);
        if (known) Object.assign(known, { registeredBy: `${file.path}:${site.line}`, route: site.route });
        else pushOnce(result.entries, seen, viewEntry(site.view.fn, 'django', evidence, { registeredBy: `${file.path}:${site.line}`, route: site.route }));
      } else if (!site.view.cls) {
        // A view the repository does not define (a library view, a variable): coverage, no entry.
        result.unresolved.registration_unresolved = (result.unresolved.registration_unresolved ?? 0) + 1;
      }
      // A view class's handler methods are entries through its lineage (above).
    }
    return result;
  },
};
