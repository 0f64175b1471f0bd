/**
 * Symfony: controller methods carrying `#[Route(...)]` (or a docblock `@Route(...)`), methods a
 * `config/routes*.yaml` route names (`controller: App\Controller\X::method`), and public methods of
 * classes extending `AbstractController` (not those of an abstract controller every concrete subclass
 * overrides: abstract-entries.ts). The route path (class prefix + method path) is
 * kept so `security.yaml` `access_control` can be matched against it (enforcement.ts).
 */
import { overriddenByEveryConcreteSubclass } from '../abstract-entries.js';
import { lookupClass, namespaceOf, superclassOf, type Program } from '../resolution.js';
import { yamlRoutes, type YamlRoute } from '../symfony-routes.js';
import { docCommentAbove, lineage, methodsOf } from './shared.js';
import { nothing, type Recogniser } from './types.js';

const ROUTES = new WeakMap<ReadonlyMap<string, string>, YamlRoute[]>();

/** The routes the routes files declare with a controller, read once per run. */
function declaredRoutes(configTexts: ReadonlyMap<string, string> | undefined): YamlRoute[] {
  if (!configTexts) return [];
  let routes = ROUTES.get(configTexts);
  if (!routes) ROUTES.set(configTexts, (routes = yamlRoutes(configTexts)));
  return routes;
}

/** Base classes whose public methods are actions: Symfony's, and FOSRestBundle's (which extend Symfony's, outside the repository). */
const CONTROLLER_BASES = ['AbstractController', 'FOSRestController', 'AbstractFOSRestController'];

/** Symfony's `Controller` base class (deprecated in 4.2, removed in 5.0; Mautic 4 and other 3.x/4.x applications extend it), imported under that name. */
const LEGACY_CONTROLLER = /^\\?Symfony\\Bundle\\FrameworkBundle\\Controller\\Controller$/;

/** True when the class or an ancestor extends Symfony's legacy `Controller`, which routes its public actions as `AbstractController` does. */
function extendsLegacyController(program: Program, className: string, path: string): boolean {
  const seen = new Set<string>();
  for (let record = lookupClass(program.table, className, path); record !== null && !seen.has(`${record.path}\0${record.name}`); record = superclassOf(program.table, record)) {
    seen.add(`${record.path}\0${record.name}`);
    if (record.superclass === null) return false;
    const imports = program.byPath.get(record.path)?.ir.imports ?? [];
    if (LEGACY_CONTROLLER.test(record.superclass) || (record.superclass === 'Controller' && imports.some((i) => LEGACY_CONTROLLER.test(i.module)))) return true;
  }
  return false;
}

/** The path of a `Route(...)` attribute or annotation text, or null. */
function routePath(text: string): string | null {
  const match = /Route\(\s*(?:path\s*:\s*|path\s*=\s*)?['"]([^'"]*)['"]/.exec(text);
  return match?.[1] ?? null;
}

export const symfony: Recogniser = {
  id: 'symfony',
  languages: ['php'],
  registrationFiles: { paths: [/(^|\/)config\/packages\/([\w-]+\/)?security\.ya?ml$/, /(^|\/)config\/routes(\/[^/]+)*\.ya?ml$/] },
  recognise(file, { program, configTexts }) {
    const result = nothing();
    const routes = declaredRoutes(configTexts);
    const space = routes.length > 0 ? namespaceOf(file) : '';
    for (const cls of file.ir.classes) {
      if (cls.kind !== 'class') continue;
      // A route of config/routes*.yaml naming this class (`controller: App\Controller\X::method`).
      const qualified = space === '' ? cls.name : `${space}\\${cls.name}`;
      const classRoutes = routes.filter((r) => r.controller === qualified);
      const ancestors = lineage(program, cls.name, file.path);
      const isController = CONTROLLER_BASES.some((base) => ancestors.has(base)) || extendsLegacyController(program, cls.name, file.path);
      const record = cls.isAbstract ? lookupClass(program.table, cls.name, file.path) : null;
      const overridden = (method: string): boolean => record !== null && overriddenByEveryConcreteSubclass(program, record, method);
      const classRoute = cls.decorators.find((d) => /^Route\(/.test(d)) ?? (/@Route\(/.test(docCommentAbove(file, cls.startLine)) ? docCommentAbove(file, cls.startLine) : undefined);
      const prefix = classRoute === undefined ? '' : (routePath(classRoute) ?? '');
      for (const ref of methodsOf(program, file, cls.name)) {
        const fn = ref.fn;
        if (fn.name.startsWith('__') && fn.name !== '__invoke') continue;
        const attribute = fn.decorators.find((d) => /^Route\(/.test(d));
        const doc = attribute === undefined ? docCommentAbove(file, fn.startLine) : '';
        const annotation = /@Route\(/.test(doc) ? doc.slice(doc.indexOf('@Route(')) : undefined;
        const declared = attribute ?? annotation;
        const yaml = declared === undefined ? classRoutes.find((r) => r.method === fn.name) : undefined;
        if (yaml) {
          result.entries.push({ functionId: ref.id, path: file.path, function: fn.qualifiedName, line: fn.startLine, framework: 'symfony', kind: 'route', access: 'protected', evidence: `route ${yaml.path} at ${yaml.evidence}`, registeredBy: yaml.evidence, route: yaml.path });
          continue;
        }
        if (declared === undefined && !(isController && fn.modifiers.includes('public') && !fn.modifiers.includes('static'))) continue;
        if (declared === undefined && cls.isAbstract && overridden(fn.name)) continue;
        const path = declared === undefined ? null : routePath(declared);
        result.entries.push({
          functionId: ref.id,
          path: file.path,
          function: fn.qualifiedName,
          line: fn.startLine,
          framework: 'symfony',
          kind: 'route',
          access: 'protected',
          evidence: declared !== undefined ? `${attribute !== undefined ? '#[' : '@'}${(declared.split('\n')[0] ?? '').replace(/^@/, '')}${attribute !== undefined ? ']' : ''}` : `public method of an AbstractController`,
          ...(path !== null || prefix !== '' ? { route: `${prefix}${path ?? ''}` || '/' } : {}),
        });
      }
    }
    return result;
  },
};
