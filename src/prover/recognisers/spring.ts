/**
 * Spring MVC annotated controllers: methods of `@RestController`/`@Controller` classes carrying a request
 * mapping (`@RequestMapping`, `@GetMapping`, `@PostMapping`, `@PutMapping`, `@DeleteMapping`,
 * `@PatchMapping`). The route is the class-level `@RequestMapping` prefix joined to the method's first
 * path, so that `SecurityFilterChain` matchers (spring-security.ts) can be bound to it. Method-security
 * annotations (`@PreAuthorize`, `@Secured`, `@RolesAllowed`) are discharger rows, read like any
 * decorator.
 */
import { methodsOf } from './shared.js';
import { nothing, type Recogniser } from './types.js';

const CONTROLLER = /^(RestController|Controller)\b/;
const MAPPING = /^(Request|Get|Post|Put|Delete|Patch)Mapping\b/;

export const spring: Recogniser = {
  id: 'spring',
  languages: ['java'],
  // The filter chain that guards the routes sits in a configuration class of its own.
  registrationFiles: { markers: [/\bauthorize(HttpRequests|Requests|Exchange)\b/, /\bignoring\s*\(\s*\)/] },
  recognise(file, { program }) {
    const result = nothing();
    for (const cls of file.ir.classes) {
      const controller = cls.decorators.find((d) => CONTROLLER.test(d));
      if (cls.kind !== 'class' || controller === undefined) continue;
      const prefix = mappingPath(cls.decorators.find((d) => /^RequestMapping\b/.test(d)) ?? '');
      for (const ref of methodsOf(program, file, cls.name)) {
        const mapping = ref.fn.decorators.find((d) => MAPPING.test(d));
        if (mapping === undefined) continue;
        result.entries.push({
          functionId: ref.id,
          path: file.path,
          function: ref.fn.qualifiedName,
          line: ref.fn.startLine,
          framework: 'spring',
          kind: 'route',
          access: 'protected',
          evidence: `@${annotationName(mapping)} method of @${annotationName(controller)} ${cls.name}`,
          route: joinRoute(prefix, mappingPath(mapping)),
        });
      }
    }
    return result;
  },
};

/** The first path a mapping annotation names: `("/x")`, `(value = "/x")`, `(path = {"/x", "/y"})`; '' when none. */
export function mappingPath(annotation: string): string {
  const args = /\((.*)\)\s*$/s.exec(annotation)?.[1] ?? '';
  const named = /\b(?:value|path)\s*=\s*\{?\s*"([^"]*)"/.exec(args);
  if (named) return named[1] ?? '';
  const positional = /^\s*\{?\s*"([^"]*)"/.exec(args);
  return positional?.[1] ?? '';
}

/** `GetMapping("/x")` → `GetMapping`. */
function annotationName(annotation: string): string {
  return /^[\w.]+/.exec(annotation)?.[0] ?? annotation;
}

/** `/api/reports` + `{id}` → `/api/reports/{id}`. */
export function joinRoute(prefix: string, path: string): string {
  const parts = [prefix, path].map((p) => p.replace(/^\/+|\/+$/g, '')).filter((p) => p !== '');
  return `/${parts.join('/')}`;
}
