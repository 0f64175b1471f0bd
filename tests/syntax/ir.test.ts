/**
 * The IR per language, on small fixtures with the edge cases later steps rely on. Each table row is
 * one fact that must be present in the IR of its fixture (matched as a subset of the IR object).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildIR, enclosingClass, enclosingFunction, type FileIR } from '../../src/syntax/ir.js';
import { LANGUAGES, type Language } from '../../src/syntax/languages.js';
import { loadGrammars } from '../../src/syntax/parser.js';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'syntax');

type Fact =
  | { what: string; function: Record<string, unknown> }
  | { what: string; class: Record<string, unknown> }
  | { what: string; call: Record<string, unknown> }
  | { what: string; import: Record<string, unknown> };

interface FixtureTable {
  language: Language;
  file: string;
  facts: Fact[];
}

const TABLES: FixtureTable[] = [
  {
    language: 'python',
    file: 'tornado-handler.py',
    facts: [
      { what: 'handler class with dotted base', class: { name: 'BaseHandler', superclass: 'tornado.web.RequestHandler', kind: 'class', startLine: 7, methods: ['post', 'fetch_all'] } },
      { what: 'decorated method starts at its decorator', function: { qualifiedName: 'BaseHandler.post', className: 'BaseHandler', decorators: ['tornado.web.authenticated'], startLine: 8, bodyStartLine: 10, parameters: [{ name: 'self', type: null, annotations: [] }] } },
      { what: 'async static method with typed default and splats', function: { qualifiedName: 'BaseHandler.fetch_all', modifiers: ['async', 'static'], decorators: ['staticmethod'], parameters: [{ name: 'limit', type: 'int' }, { name: 'args' }, { name: 'kwargs' }] } },
      { what: 'nested class', class: { name: 'Meta', enclosingClass: 'BaseHandler', methods: ['describe'] } },
      { what: 'method of the nested class', function: { qualifiedName: 'Meta.describe', className: 'Meta' } },
      { what: 'abstract class through ABC', class: { name: 'Storage', superclass: 'ABC', isAbstract: true } },
      { what: 'abstractmethod gives the abstract modifier', function: { qualifiedName: 'Storage.save', modifiers: ['abstract'] } },
      { what: 'lambda takes its assigned name', function: { name: 'keep', qualifiedName: 'make_filter.keep', isLambda: true, parameters: [{ name: 'value' }] } },
      { what: 'closure', function: { qualifiedName: 'make_filter.inner', isLambda: false, className: null } },
      { what: 'method call on self attribute', call: { callee: 'delete_user', receiver: 'self.db', arity: 1, line: 11, enclosingFunction: 'BaseHandler.post', text: 'self.db.delete_user(user_id)' } },
      { what: 'bare call inside a closure', call: { callee: 'keep', receiver: null, enclosingFunction: 'make_filter.inner' } },
      { what: 'plain import', import: { module: 'os', names: ['os'], kind: 'import', line: 1 } },
      { what: 'aliased import', import: { module: 'os.path', names: ['osp'] } },
      { what: 'relative from-import with alias', import: { module: '.auth', names: ['require_admin', 'log_audit'], line: 3 } },
    ],
  },
  {
    language: 'java',
    file: 'PluginAction.java',
    facts: [
      { what: 'annotated abstract class', class: { name: 'PluginAction', superclass: 'AbstractAction', interfaces: ['Describable', 'Serializable'], isAbstract: true, decorators: ['Extension'], startLine: 6 } },
      { what: 'overloads are listed twice', class: { name: 'PluginAction', methods: ['doDelete', 'doDelete', 'count', 'refresh', 'PluginAction', 'listener'] } },
      { what: 'annotated method with annotated parameter', function: { qualifiedName: 'PluginAction.doDelete', decorators: ['RequirePOST'], modifiers: ['public'], startLine: 9, parameters: [{ name: 'name', type: 'String', annotations: ['QueryParameter'] }, { name: 'req', type: 'StaplerRequest', annotations: [] }] } },
      { what: 'the overload with one parameter', function: { qualifiedName: 'PluginAction.doDelete', startLine: 16, parameters: [{ name: 'name', annotations: ['QueryParameter'] }] } },
      { what: 'static synchronized varargs', function: { name: 'count', modifiers: ['protected', 'static', 'synchronized'], parameters: [{ name: 'values', type: 'int...' }] } },
      { what: 'abstract method', function: { name: 'refresh', modifiers: ['abstract'] } },
      { what: 'constructor', function: { qualifiedName: 'PluginAction.PluginAction', startLine: 26 } },
      { what: 'lambda named by its variable', function: { qualifiedName: 'PluginAction.doDelete.cleanup', isLambda: true } },
      { what: 'anonymous class', class: { name: '<anonymous@L31>', kind: 'anonymous', superclass: 'ActionListener', enclosingClass: 'PluginAction', methods: ['actionPerformed'] } },
      { what: 'method of the anonymous class', function: { qualifiedName: '<anonymous@L31>.actionPerformed', className: '<anonymous@L31>' } },
      { what: 'nested static class', class: { name: 'Holder', enclosingClass: 'PluginAction' } },
      { what: 'nested interface', class: { name: 'Callback', kind: 'interface', interfaces: ['Runnable'], methods: ['done'] } },
      { what: 'enum with a method', class: { name: 'Mode', kind: 'enum', methods: ['writes'] } },
      { what: 'call on a call receiver', call: { callee: 'checkPermission', receiver: 'Jenkins.get()', arity: 1, line: 11, enclosingFunction: 'PluginAction.doDelete' } },
      { what: 'call inside a lambda', call: { callee: 'remove', receiver: 'store', enclosingFunction: 'PluginAction.doDelete.cleanup' } },
      { what: 'constructor call', call: { callee: 'Thread', kind: 'new', arity: 1 } },
      { what: 'overload call arity', call: { callee: 'doDelete', receiver: null, arity: 2 } },
      { what: 'import', import: { module: 'java.util.List', names: ['List'], kind: 'import', line: 3 } },
      { what: 'static wildcard import', import: { module: 'org.junit.Assert.*', names: ['*'] } },
    ],
  },
  {
    language: 'php',
    file: 'user-controller.php',
    facts: [
      { what: 'class with PHP 8 attributes', class: { name: 'UserController', superclass: 'Controller', interfaces: ['HasMiddleware', 'Auditable'], isAbstract: true, decorators: ["Route('/admin/users', methods: ['DELETE'])", "IsGranted('ROLE_ADMIN')"], startLine: 9 } },
      { what: 'static method with attribute and attributed parameter', function: { qualifiedName: 'UserController.destroy', decorators: ["Route('/users/{id}', methods: ['POST'])"], modifiers: ['public', 'static'], startLine: 13, bodyStartLine: 15, parameters: [{ name: '$user', type: 'User', annotations: ['MapEntity'] }, { name: '$force', type: '?int', annotations: [] }] } },
      { what: 'abstract method', function: { qualifiedName: 'UserController.authorizeAction', modifiers: ['abstract', 'protected'] } },
      { what: 'arrow function named by assignment', function: { qualifiedName: 'UserController.destroy.$notify', isLambda: true } },
      { what: 'closure with use clause', function: { qualifiedName: 'UserController.destroy.$log', isLambda: true, parameters: [{ name: '$msg' }] } },
      { what: 'anonymous class', class: { name: '<anonymous@L20>', kind: 'anonymous', superclass: 'BaseHandler', enclosingClass: 'UserController', methods: ['handle'] } },
      { what: 'interface', class: { name: 'Auditable', kind: 'interface', methods: ['audit'] } },
      { what: 'trait', class: { name: 'Loggable', kind: 'trait' } },
      { what: 'enum', class: { name: 'Status', kind: 'enum', methods: ['label'] } },
      { what: 'member call on $this property', call: { callee: 'check', receiver: '$this->auth', arity: 1, enclosingFunction: 'UserController.destroy' } },
      { what: 'static call', call: { callee: 'findOrFail', receiver: 'User' } },
      { what: 'route registration with receiver Route', call: { callee: 'get', receiver: 'Route', arity: 2, line: 28, enclosingFunction: null } },
      { what: 'chained middleware call', call: { callee: 'middleware', receiver: "Route::get('/x', [UserController::class, 'destroy'])", arity: 1 } },
      { what: 'call inside arrow function', call: { callee: 'mail', receiver: null, arity: 2, enclosingFunction: 'UserController.destroy.$notify' } },
      { what: 'use', import: { module: 'App\\Models\\User', names: ['User'], kind: 'use', line: 4 } },
      { what: 'group use with alias', import: { module: 'Illuminate\\Support\\Facades\\Auth', names: ['Guard'], kind: 'use' } },
      { what: 'require_once of an expression', import: { module: "__DIR__ . '/helpers.php'", kind: 'require', line: 7 } },
    ],
  },
  {
    language: 'typescript',
    file: 'route-action.ts',
    facts: [
      { what: 'exported async function', function: { qualifiedName: 'action', modifiers: ['async'], isLambda: false, parameters: [{ name: '{ request }', type: 'ActionArgs' }, { name: 'retries', type: 'number' }] } },
      { what: 'decorated class', class: { name: 'UsersController', superclass: 'BaseController', interfaces: ['OnInit'], decorators: ["Controller('users')"], startLine: 12 } },
      { what: 'stacked method decorators and a parameter decorator', function: { qualifiedName: 'UsersController.findOne', decorators: ["Get(':id')", 'UseGuards(AuthGuard)'], modifiers: ['static', 'async'], startLine: 14, bodyStartLine: 16, parameters: [{ name: 'id', type: 'string', annotations: ["Param('id')"] }] } },
      { what: 'arrow function class field is a method', function: { qualifiedName: 'UsersController.onClick', isLambda: true, parameters: [{ name: 'event', type: 'MouseEvent' }] } },
      { what: 'class expression in a static field', class: { name: 'Nested', enclosingClass: 'UsersController', methods: ['run'] } },
      { what: 'abstract class', class: { name: 'Repository', isAbstract: true, methods: ['save'] } },
      { what: 'abstract method signature', function: { qualifiedName: 'Repository.save', modifiers: ['abstract'] } },
      { what: 'interface', class: { name: 'Service', kind: 'interface', interfaces: ['Disposable'], methods: ['find'] } },
      { what: 'callback arrow gets a synthetic name', function: { name: '<lambda@L36>', isLambda: true } },
      { what: 'route registration', call: { callee: 'get', receiver: 'app', arity: 3, line: 36, enclosingFunction: null } },
      { what: 'call inside the callback', call: { callee: 'send', receiver: 'res', enclosingFunction: '<lambda@L36>' } },
      { what: 'call with a member-chain receiver', call: { callee: 'delete', receiver: 'db.user', enclosingFunction: 'action' } },
      { what: 'named import', import: { module: '@remix-run/node', names: ['redirect'], kind: 'import', line: 1 } },
      { what: 'namespace import', import: { module: './db.server', names: ['db'] } },
      { what: 'destructured require', import: { module: 'child_process', names: ['exec'], kind: 'require', line: 4 } },
      { what: 'dynamic import', import: { module: './lazy', kind: 'dynamic', line: 35 } },
    ],
  },
  {
    language: 'javascript',
    file: 'server.js',
    facts: [
      { what: 'class extending a member expression', class: { name: 'Router', superclass: 'express.Router', methods: ['create', 'handle'] } },
      { what: 'static method with default and rest parameters', function: { qualifiedName: 'Router.create', modifiers: ['static'], parameters: [{ name: 'options' }, { name: 'middleware' }] } },
      { what: 'async method', function: { qualifiedName: 'Router.handle', modifiers: ['async'] } },
      { what: 'function expression named by its assignment target', function: { name: 'start', isLambda: true } },
      { what: 'anonymous class expression named by its variable', class: { name: 'Anonymous' } },
      { what: 'exports.handler arrow', function: { name: 'handler', modifiers: ['async'], isLambda: true } },
      { what: 'new expression', call: { callee: 'Router', kind: 'new', arity: 1, enclosingFunction: 'Router.create' } },
      { what: 'call inside a nested arrow', call: { callee: 'log', receiver: 'console', enclosingFunction: 'start.<lambda@L14>' } },
      { what: 'require', import: { module: 'express', names: ['express'], kind: 'require', line: 1 } },
      { what: 'default import', import: { module: 'fs', names: ['fs'], kind: 'import' } },
    ],
  },
  {
    language: 'go',
    file: 'server.go',
    facts: [
      { what: 'struct with its method attached', class: { name: 'Server', kind: 'class', methods: ['Serve'] } },
      { what: 'interface type', class: { name: 'Handler', kind: 'interface' } },
      { what: 'method by receiver', function: { qualifiedName: 'Server.Serve', className: 'Server', parameters: [{ name: 'w', type: 'h.ResponseWriter' }, { name: 'r', type: '*h.Request' }] } },
      { what: 'func literal named by :=', function: { qualifiedName: 'Server.Serve.done', isLambda: true, className: 'Server' } },
      { what: 'package call', call: { callee: 'Fprintln', receiver: 'fmt', arity: 2, enclosingFunction: 'Server.Serve' } },
      { what: 'call through an import alias', call: { callee: 'ListenAndServe', receiver: 'h', enclosingFunction: 'main' } },
      { what: 'aliased import', import: { module: 'net/http', names: ['h'], kind: 'import' } },
      { what: 'plain import', import: { module: 'fmt', names: ['fmt'] } },
    ],
  },
  {
    language: 'ruby',
    file: 'users_controller.rb',
    facts: [
      { what: 'module as trait', class: { name: 'Admin', kind: 'trait' } },
      { what: 'class in module with mixin', class: { name: 'UsersController', superclass: 'ApplicationController', interfaces: ['Auditing'], enclosingClass: 'Admin', methods: ['destroy', 'build'] } },
      { what: 'method with optional parameter', function: { qualifiedName: 'UsersController.destroy', parameters: [{ name: 'id' }, { name: 'force' }] } },
      { what: 'singleton method', function: { qualifiedName: 'UsersController.build', modifiers: ['static'] } },
      { what: 'block as lambda', function: { name: '<lambda@L11>', isLambda: true } },
      { what: 'call on a constant', call: { callee: 'find', receiver: 'User', arity: 1, enclosingFunction: 'UsersController.destroy' } },
      { what: 'call on an instance variable', call: { callee: 'destroy!', receiver: '@user', arity: 0 } },
      { what: 'require', import: { module: 'json', kind: 'require', line: 1 } },
      { what: 'require_relative', import: { module: './policy', kind: 'require', line: 2 } },
    ],
  },
];

const irs = new Map<string, FileIR>();

beforeAll(async () => {
  await loadGrammars(LANGUAGES);
  for (const table of TABLES) {
    const text = readFileSync(join(FIXTURES, table.file), 'utf8');
    irs.set(table.file, await buildIR(table.file, table.language, text));
  }
});

describe.each(TABLES)('IR of $language ($file)', ({ file, language, facts }) => {
  it('parses without errors or degradations', () => {
    const ir = irs.get(file)!;
    expect(ir.language).toBe(language);
    expect(ir.hasErrors).toBe(false);
    expect(ir.degradations).toEqual([]);
  });

  it.each(facts)('$what', (fact) => {
    const ir = irs.get(file)!;
    if ('function' in fact) expect(ir.functions).toContainEqual(expect.objectContaining(subset(fact.function)));
    else if ('class' in fact) expect(ir.classes).toContainEqual(expect.objectContaining(subset(fact.class)));
    else if ('call' in fact) expect(ir.calls).toContainEqual(expect.objectContaining(subset(fact.call)));
    else expect(ir.imports).toContainEqual(expect.objectContaining(subset(fact.import)));
  });
});

/** Arrays of objects compare element-wise as subsets (parameters list only the fields a row names). */
function subset(expected: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(expected)) {
    out[key] = Array.isArray(value) ? value.map((v: unknown) => (typeof v === 'object' && v !== null ? expect.objectContaining(v) : v)) : value;
  }
  return out;
}

describe('IR helpers', () => {
  it('enclosingFunction returns the innermost function for a line', () => {
    const ir = irs.get('tornado-handler.py')!;
    expect(enclosingFunction(ir, 11)?.qualifiedName).toBe('BaseHandler.post');
    expect(enclosingFunction(ir, 8)?.qualifiedName).toBe('BaseHandler.post'); // the decorator line
    expect(enclosingFunction(ir, 29)?.qualifiedName).toBe('make_filter.keep');
    expect(enclosingFunction(ir, 31)?.qualifiedName).toBe('make_filter.inner');
    expect(enclosingFunction(ir, 5)).toBeNull();
  });

  it('enclosingClass returns the innermost class for a line', () => {
    const ir = irs.get('PluginAction.java')!;
    expect(enclosingClass(ir, 33)?.name).toBe('<anonymous@L31>');
    expect(enclosingClass(ir, 39)?.name).toBe('Holder');
    expect(enclosingClass(ir, 11)?.name).toBe('PluginAction');
    expect(enclosingClass(ir, 1)).toBeNull();
  });

  it('every function and call of every fixture has lines inside the file', () => {
    for (const table of TABLES) {
      const ir = irs.get(table.file)!;
      const lineCount = readFileSync(join(FIXTURES, table.file), 'utf8').split('\n').length;
      for (const f of ir.functions) {
        expect(f.startLine).toBeGreaterThanOrEqual(1);
        expect(f.endLine).toBeGreaterThanOrEqual(f.bodyStartLine);
        expect(f.bodyStartLine).toBeGreaterThanOrEqual(f.startLine);
        expect(f.endLine).toBeLessThanOrEqual(lineCount);
      }
      for (const c of ir.calls) expect(c.text.length).toBeLessThanOrEqual(200);
    }
  });
});
