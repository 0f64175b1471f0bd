/**
 * Jetty handlers, servlets and JAX-RS resources declared by type or annotation: `handle` of classes
 * extending Jetty's handler bases, `doGet`/`doPost`/... and `service` of servlets, and JAX-RS resource
 * methods (`@GET`/`@POST`/... or sub-resource locators with `@Path`) of classes annotated `@Path`.
 */
import { lineage, methodsOf } from './shared.js';
import { nothing, type Recogniser } from './types.js';

const HANDLER_BASES = /^(AbstractHandler|HandlerWrapper|Handler\.Abstract|Abstract|NonBlocking|Handler\.Wrapper|ScopedHandler)$/;
const SERVLET_BASES = /^(HttpServlet|GenericServlet)$/;
const SERVLET_METHODS = /^(doGet|doPost|doPut|doDelete|doPatch|doHead|service)$/;
const DESIGNATORS = /^(GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS)$/;

export const jetty: Recogniser = {
  id: 'jetty',
  languages: ['java'],
  registrationFiles: { paths: [/(^|\/)WEB-INF\/web\.xml$/] },
  recognise(file, { program }) {
    const result = nothing();
    for (const cls of file.ir.classes) {
      if (cls.kind !== 'class') continue;
      const names = lineage(program, cls.name, file.path);
      const handlerBase = [...names].find((n) => HANDLER_BASES.test(n) || n === 'Handler');
      const servletBase = [...names].find((n) => SERVLET_BASES.test(n));
      const resourcePath = cls.decorators.find((d) => /^Path\(/.test(d));
      for (const ref of methodsOf(program, file, cls.name)) {
        const fn = ref.fn;
        let evidence: string | null = null;
        if (handlerBase && fn.name === 'handle') evidence = `handle() of a ${handlerBase}`;
        else if (servletBase && SERVLET_METHODS.test(fn.name)) evidence = `${fn.name}() of a ${servletBase}`;
        else {
          const designator = fn.decorators.find((d) => DESIGNATORS.test(d));
          const locator = fn.decorators.find((d) => /^Path\(/.test(d));
          if (designator && (resourcePath || locator)) evidence = `JAX-RS @${designator} method${resourcePath ? ` of @${resourcePath}` : ''}`;
          else if (resourcePath && locator && fn.modifiers.includes('public')) evidence = `JAX-RS sub-resource locator @${locator} of @${resourcePath}`;
        }
        if (evidence === null) continue;
        result.entries.push({
          functionId: ref.id,
          path: file.path,
          function: fn.qualifiedName,
          line: fn.startLine,
          framework: 'jetty',
          kind: 'route',
          access: 'protected',
          evidence,
        });
      }
    }
    return result;
  },
};
