/**
 * NestJS controllers: methods of `@Controller('prefix')` classes carrying a route decorator (`@Get()`,
 * `@Post(':id')`, `@Put`, `@Patch`, `@Delete`, `@All`, `@Options`, `@Head`) in a module that imports
 * `@nestjs/common`. The route is the controller's prefix joined to the handler's path. GraphQL resolvers
 * of `@nestjs/graphql` are entries too: the `@Query`, `@Mutation`, `@Subscription` and `@ResolveField`
 * methods of `@Resolver()` classes, each answering any client that sends the operation (a field resolver
 * runs for every object of its type a query returns, also another user's). Guards (`@UseGuards`, global
 * guards) are judged by what their `canActivate` does (nest-guards.ts).
 */
import type { Program } from '../resolution.js';
import type { EntryPoint, ProgramFile } from '../types.js';
import { methodsOf } from './shared.js';
import { nothing, type Recogniser } from './types.js';
import { joinRoute } from './spring.js';

const ROUTE = /^(Get|Post|Put|Patch|Delete|All|Options|Head)\s*\(/;
const GRAPHQL_OPERATION = /^(Query|Mutation|Subscription|ResolveField|ResolveProperty)\s*\(/;

export const nestjs: Recogniser = {
  id: 'nestjs',
  languages: ['typescript'],
  // Guards judge entries declared elsewhere: global guards and interceptors, their classes, the metadata
  // decorators they read and the decorators composed from them (applyDecorators).
  registrationFiles: { markers: [/\bAPP_(GUARD|INTERCEPTOR)\b|\buseGlobal(Guards|Interceptors)\s*\(/, /\bimplements\s+(CanActivate|NestInterceptor)\b|\bextends\s+(\w+\.)?AuthGuard\s*\(/, /\bSetMetadata\s*[(<]|\bReflector\.createDecorator\b|\bapplyDecorators\s*\(/] },
  recognise(file, { program }) {
    const result = nothing();
    const imports = (module: string): boolean => file.ir.imports.some((imp) => imp.module === module);
    // A controller's route is its prefix joined to the handler's path; a resolver's is the GraphQL operation's name.
    if (imports('@nestjs/common')) result.entries.push(...decoratedEntries(file, program, /^Controller\s*\(/, ROUTE, (controller, route) => joinRoute(decoratorPath(controller), decoratorPath(route))));
    if (imports('@nestjs/graphql')) result.entries.push(...decoratedEntries(file, program, /^Resolver\s*[(<]/, GRAPHQL_OPERATION, (_resolver, _operation, name) => `graphql:${name}`));
    return result;
  },
};

/** Methods carrying a `handler` decorator in classes carrying a `owner` decorator. */
function decoratedEntries(file: ProgramFile, program: Program, owner: RegExp, handler: RegExp, routeOf: (ownerDecorator: string, handlerDecorator: string, name: string) => string): EntryPoint[] {
  const entries: EntryPoint[] = [];
  for (const cls of file.ir.classes) {
    const onClass = cls.decorators.find((d) => owner.test(d));
    if (cls.kind !== 'class' || onClass === undefined) continue;
    for (const ref of methodsOf(program, file, cls.name)) {
      const onMethod = ref.fn.decorators.find((d) => handler.test(d));
      if (onMethod === undefined) continue;
      entries.push({
        functionId: ref.id,
        path: file.path,
        function: ref.fn.qualifiedName,
        line: ref.fn.startLine,
        framework: 'nestjs',
        kind: 'route',
        access: 'protected',
        evidence: `@${onMethod.replace(/\s+/g, ' ').slice(0, 60)} handler of @${onClass.replace(/\s+/g, ' ').slice(0, 60)} ${cls.name}`,
        route: routeOf(onClass, onMethod, ref.fn.name),
      });
    }
  }
  return entries;
}

/** The path a decorator names: `('users')`, `({ path: 'users' })`; '' when none. */
function decoratorPath(decorator: string): string {
  const args = /\((.*)\)\s*$/s.exec(decorator)?.[1] ?? '';
  return /^\s*\{?[^'"`]*?(?:path\s*:\s*)?(['"`])([^'"`]*)\1/.exec(args)?.[2] ?? '';
}
