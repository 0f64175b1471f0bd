/**
 * NestJS controllers: methods of `@Controller('prefix')` classes carrying a route decorator (`@Get()`,
 * `@Post(':id')`, `@Put`, `@Patch`, `@Delete`, `@All`, `@Options`, `@Head`) in a module that imports
 * `@nestjs/common`. The route is the controller's prefix joined to the handler's path. Guards
 * (`@UseGuards`, global guards) are judged by what their `canActivate` does (nest-guards.ts).
 */
import { methodsOf } from './shared.js';
import { nothing, type Recogniser } from './types.js';
import { joinRoute } from './spring.js';

const ROUTE = /^(Get|Post|Put|Patch|Delete|All|Options|Head)\s*\(/;

export const nestjs: Recogniser = {
  id: 'nestjs',
  languages: ['typescript'],
  // Guards judge entries declared elsewhere: global guards and interceptors, their classes, the metadata
  // decorators they read and the decorators composed from them (applyDecorators).
  registrationFiles: { markers: [/\bAPP_(GUARD|INTERCEPTOR)\b|\buseGlobal(Guards|Interceptors)\s*\(/, /\bimplements\s+(CanActivate|NestInterceptor)\b|\bextends\s+(\w+\.)?AuthGuard\s*\(/, /\bSetMetadata\s*[(<]|\bReflector\.createDecorator\b|\bapplyDecorators\s*\(/] },
  recognise(file, { program }) {
    const result = nothing();
    if (!file.ir.imports.some((imp) => imp.module === '@nestjs/common')) return result;
    for (const cls of file.ir.classes) {
      const controller = cls.decorators.find((d) => /^Controller\s*\(/.test(d));
      if (cls.kind !== 'class' || controller === undefined) continue;
      const prefix = decoratorPath(controller);
      for (const ref of methodsOf(program, file, cls.name)) {
        const route = ref.fn.decorators.find((d) => ROUTE.test(d));
        if (route === undefined) continue;
        result.entries.push({
          functionId: ref.id,
          path: file.path,
          function: ref.fn.qualifiedName,
          line: ref.fn.startLine,
          framework: 'nestjs',
          kind: 'route',
          access: 'protected',
          evidence: `@${route} handler of @${controller} ${cls.name}`,
          route: joinRoute(prefix, decoratorPath(route)),
        });
      }
    }
    return result;
  },
};

/** The path a decorator names: `('users')`, `({ path: 'users' })`; '' when none. */
function decoratorPath(decorator: string): string {
  const args = /\((.*)\)\s*$/s.exec(decorator)?.[1] ?? '';
  return /^\s*\{?[^'"`]*?(?:path\s*:\s*)?(['"`])([^'"`]*)\1/.exec(args)?.[2] ?? '';
}
