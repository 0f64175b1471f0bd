/**
 * Programmatic registration sites: a call in the repository's own code that registers a handler class
 * (`addServlet(..., X.class)`, `new ServletHolder(new X())`, `setHandler(new X())`). The vocabulary of
 * registration calls and request methods is data (`[[registration]]` rows of the facts). The registered
 * class's request methods become entries at their declarations, with the registration site as evidence;
 * a registration naming no class of the repository is counted `registration_unresolved`.
 */
import { callSignature, findMethod, lookupClass } from '../resolution.js';
import { nothing, type Recogniser } from './types.js';

/** Class names a registration call's text names: `X.class`, `new X(`, `X::new`. */
function registeredClasses(text: string, ownCallee: string): string[] {
  const names = new Set<string>();
  for (const match of text.matchAll(/\b([A-Z]\w*)\.class\b/g)) if (match[1]) names.add(match[1]);
  for (const match of text.matchAll(/\bnew\s+([A-Z][\w.]*)\s*[(<]/g)) if (match[1]) names.add(match[1].split('.').pop() ?? match[1]);
  for (const match of text.matchAll(/\b([A-Z]\w*)::new\b/g)) if (match[1]) names.add(match[1]);
  names.delete(ownCallee);
  return [...names];
}

export const registration: Recogniser = {
  id: 'registration',
  languages: ['java'],
  // The call names of the `[[registration]]` facts rows, and deployment descriptors.
  registrationFiles: {
    paths: [/(^|\/)WEB-INF\/web\.xml$/],
    markers: [/\b(?:addServlet|addServletWithMapping|ServletHolder|setServlet|setHandler|addHandler|HandlerList|HandlerCollection|Handler\.Sequence|addMapping)\b/],
  },
  recognise(file, { program, facts }) {
    const result = nothing();
    const seen = new Set<string>(); // nested registrations (addServlet(new ServletHolder(X.class))) name X twice
    const rows = facts[file.factsLanguage].registrations;
    if (rows.length === 0) return result;
    for (const call of file.ir.calls) {
      const signature = callSignature(call);
      const row = rows.find((r) => r.calls.some((re) => re.test(signature)));
      if (!row) continue;
      const named = registeredClasses(call.text, call.callee);
      let resolvedAny = false;
      for (const name of named) {
        const cls = lookupClass(program.table, name, file.path);
        if (!cls) continue;
        for (const method of row.requestMethods) {
          const found = findMethod(program.table, cls, method, null);
          for (const ref of found?.methods ?? []) {
            resolvedAny = true;
            if (seen.has(ref.id)) continue;
            seen.add(ref.id);
            result.entries.push({
              functionId: ref.id,
              path: ref.path,
              function: ref.fn.qualifiedName,
              line: ref.fn.startLine,
              framework: 'registration',
              kind: 'route',
              access: 'protected',
              evidence: `${cls.name} registered by ${call.text.split('\n')[0] ?? ''} at ${file.path}:${call.line}`,
              registeredBy: `${file.path}:${call.line}`,
            });
          }
        }
      }
      // A registration of a variable or of a class the repository does not define: coverage, no entry.
      if (!resolvedAny) {
        result.unresolved.registration_unresolved = (result.unresolved.registration_unresolved ?? 0) + 1;
      }
    }
    return result;
  },
};
