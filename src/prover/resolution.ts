/**
 * Call resolution: the class table of the repository's own classes, and `qualify`/`resolveCall`, which
 * turn a call site into the repository functions it targets. A call resolves through its receiver
 * (`this`/`self`/`$this`, a class name, a variable whose declared type is a repository class) to
 * `Class.name`, or `Class.name/arity` when the class overloads the name; an unresolvable receiver keeps
 * the bare name and is counted, never silently merged with every method of that name.
 *
 * Base-class attachment: a method declared on a class is reached only through that class or an
 * in-repository subclass of it, so an abstract base's method never projects onto unrelated classes.
 */
import { aliasedModuleFiles } from './module-aliases.js';
import { isRuntimeGlobal } from './js-globals.js';
import { declaredTypesOf } from './declared-types.js';
import type { CallIR, FileIR, FunctionIR } from '../syntax/ir-types.js';
import { routeClosureName, routeClosures } from './laravel-route-closures.js';
import { withImplementations } from './implementations.js';
import { chooseOverloads, type LibrarySupertypes, type OverloadContext } from './overloads.js';
import type { FunctionRef, ProgramFile } from './types.js';
import { parameterRouteLines } from './recognisers/express.js';

/** One class of the repository. */
export interface ClassRecord {
  path: string;
  name: string;
  superclass: string | null;
  /** The class the superclass is nested in, when written qualified (`BaseCloud.DescriptorImpl` → `BaseCloud`). */
  superclassOwner?: string;
  interfaces: string[];
  abstract: boolean;
  /** Methods declared directly in the class, overloads included. */
  methods: FunctionRef[];
}

/** Bare class name → every class of that name (two files may declare the same name). */
export type ClassTable = Map<string, ClassRecord[]>;

/** Everything resolution and the later steps read: files, functions and the class table, built once. */
export interface Program {
  files: ProgramFile[];
  byPath: Map<string, ProgramFile>;
  functions: Map<string, FunctionRef>;
  /** The IR function object → its node in the call graph (anonymous lambdas fold into their owner). */
  nodeOf: Map<FunctionIR, FunctionRef>;
  table: ClassTable;
  /** Functions outside classes, by file then name. */
  moduleFunctions: Map<string, Map<string, FunctionRef[]>>;
  /** Every function name declared anywhere (methods and module functions), for cheap pre-filtering. */
  byName: Map<string, FunctionRef[]>;
  /** Supertypes of library types (facts), for the choice among same-arity overloads. */
  librarySupertypes: LibrarySupertypes;
}

const SELF_RECEIVERS = new Set(['this', 'self', '$this', 'static', 'cls']);
const PARENT_RECEIVERS = new Set(['super', 'parent']);

/** `path::qualifiedName@line`: unique for overloads and for the same name in two files. */
export function functionId(path: string, fn: FunctionIR): string {
  return `${path}::${fn.qualifiedName}@${fn.startLine}`;
}

function isAnonymous(fn: FunctionIR): boolean {
  return fn.isLambda && fn.name.startsWith('<lambda@');
}

const MODULE_CONSTANT = /^(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\b/;

/** A module-level anonymous lambda as a node: named `NAME` when it sits in `const NAME = ...` (nearest such line above at column 0). */
function moduleLambdaNode(file: ProgramFile, fn: FunctionIR): FunctionRef {
  let name: string | null = null;
  for (let line = fn.startLine; line >= Math.max(1, fn.startLine - 40); line--) {
    const text = file.lines[line - 1] ?? '';
    const match = MODULE_CONSTANT.exec(text);
    if (match?.[1]) name = match[1];
    if (match || (/^\S/.test(text) && !/^[)}\]]/.test(text))) break;
  }
  return name === null ? { id: functionId(file.path, fn), path: file.path, fn } : renamedNode(file, fn, name);
}

/** An anonymous function as a node of the given name. */
function renamedNode(file: ProgramFile, fn: FunctionIR, name: string): FunctionRef {
  const named = { ...fn, name, qualifiedName: name };
  return { id: functionId(file.path, named), path: file.path, fn: named };
}

/** Build the program model: function nodes, the class table and the name indexes. */
export function buildProgram(files: ProgramFile[], librarySupertypes: LibrarySupertypes = new Map()): Program {
  const program: Program = {
    librarySupertypes,
    files,
    byPath: new Map(files.map((f) => [f.path, f])),
    functions: new Map(),
    nodeOf: new Map(),
    table: new Map(),
    moduleFunctions: new Map(),
    byName: new Map(),
  };
  for (const file of files) {
    const named: FunctionRef[] = [];
    for (const fn of file.ir.functions) {
      if (isAnonymous(fn)) continue;
      const ref: FunctionRef = { id: functionId(file.path, fn), path: file.path, fn };
      program.functions.set(ref.id, ref);
      program.nodeOf.set(fn, ref);
      named.push(ref);
      push(program.byName, fn.name, ref);
      if (fn.className === null) {
        let inFile = program.moduleFunctions.get(file.path);
        if (!inFile) program.moduleFunctions.set(file.path, (inFile = new Map<string, FunctionRef[]>()));
        push(inFile, fn.name, ref);
      }
    }
    // An anonymous lambda belongs to the innermost named function around it. The owner depends only
    // on the lambda's lines, so it is found once per line span (a minified file has all on line 1).
    const ownerBySpan = new Map<string, FunctionRef | null>();
    const closureRoutes = file.factsLanguage === 'php' ? new Map(routeClosures(file).map((route) => [route.fn, route] as const)) : null;
    let routeLines: Set<number> | undefined;
    // Outer lambdas first, so one inside a module-level handler belongs to that handler.
    const anonymous = file.ir.functions.filter(isAnonymous).sort((a, b) => a.startLine - b.startLine || b.endLine - a.endLine);
    for (const fn of anonymous) {
      const span = `${fn.startLine}:${fn.endLine}`;
      let owner = ownerBySpan.get(span);
      if (owner === undefined) {
        owner = null;
        for (const ref of named) {
          if (ref.fn.startLine <= fn.startLine && ref.fn.endLine >= fn.endLine) {
            if (!owner || ref.fn.startLine >= owner.fn.startLine) owner = ref;
          }
        }
        ownerBySpan.set(span, owner);
      }
      // A route handler written in a function that registers routes on its parameter (`function
      // endpoints(app) { app.get('/x', async (req, res) => ...) }`) is its own node, named after its owner and line.
      if (owner && file.factsLanguage === 'typescript' && (routeLines ??= parameterRouteLines(file)).has(fn.startLine)) {
        const ref = renamedNode(file, fn, `${owner.fn.name}.route@L${fn.startLine}`);
        program.functions.set(ref.id, ref);
        program.nodeOf.set(fn, ref);
        named.push(ref);
        ownerBySpan.set(span, ref);
        continue;
      }
      if (owner) {
        program.nodeOf.set(fn, owner);
        continue;
      }
      // A handler written in place is its own node: at TypeScript module level (`procedure.mutation(async
      // () => ...)`, `app.get('/x', (req, res) => ...)`), named after the constant it builds; a Laravel
      // route closure, named after its route.
      const closureRoute = closureRoutes?.get(fn);
      const ref = closureRoute ? renamedNode(file, fn, routeClosureName(closureRoute)) : file.factsLanguage === 'typescript' ? moduleLambdaNode(file, fn) : null;
      if (!ref) continue;
      program.functions.set(ref.id, ref);
      program.nodeOf.set(fn, ref);
      named.push(ref);
      ownerBySpan.set(span, ref);
    }
    for (const cls of file.ir.classes) {
      const methods = named.filter((ref) => ref.fn.className === cls.name && ref.fn.startLine >= cls.startLine && ref.fn.endLine <= cls.endLine && !ref.fn.isLambda);
      push(program.table, cls.name, {
        path: file.path,
        name: cls.name,
        superclass: cls.superclass === null ? null : simpleName(cls.superclass),
        ...ownerPart(cls.superclass),
        interfaces: cls.interfaces.map(simpleName),
        abstract: cls.isAbstract,
        methods,
      });
    }
  }
  return program;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** `a.b.Foo`, `\App\Foo`, `Foo<T>` → `Foo`. */
function simpleName(name: string): string {
  const noGenerics = name.replace(/<.*$/s, '').replace(/\(.*$/s, '').trim();
  const parts = noGenerics.split(/[.\\:]+/).filter((p) => p.length > 0);
  return parts[parts.length - 1] ?? noGenerics;
}

/** A class record for a name, preferring one declared in `nearPath`. */
export function lookupClass(table: ClassTable, name: string, nearPath?: string): ClassRecord | null {
  const records = table.get(simpleName(name));
  if (!records || records.length === 0) return null;
  return records.find((r) => r.path === nearPath) ?? records[0] ?? null;
}

/**
 * The repository class a class extends. A nested superclass written qualified (Jenkins'
 * `class DescriptorImpl extends BaseCloud.DescriptorImpl`) is the one in the file of its outer class;
 * a class never extends itself, so a same-name base is looked for among the other records first.
 */
export function superclassOf(table: ClassTable, cls: ClassRecord): ClassRecord | null {
  if (cls.superclass === null) return null;
  const others = (table.get(cls.superclass) ?? []).filter((r) => r !== cls);
  if (cls.superclassOwner !== undefined) {
    const owner = lookupClass(table, cls.superclassOwner, cls.path);
    const nested = owner ? others.find((r) => r.path === owner.path) : undefined;
    if (nested) return nested;
  }
  return others.find((r) => r.path === cls.path) ?? others[0] ?? null;
}

/** `a.b.Outer.Inner<T>` → `{ superclassOwner: 'Outer' }`; nothing for an unqualified name or a package path. */
function ownerPart(written: string | null): { superclassOwner?: string } {
  // PHP namespaces are capitalised too (`\App\Http\Controller`): only a dotted name nests classes.
  if (written === null || written.includes('\\')) return {};
  const parts = written.replace(/<[\s\S]*$/, '').split('.').filter((p) => p !== '');
  const owner = parts.length >= 2 ? parts[parts.length - 2] : undefined;
  return owner !== undefined && /^[A-Z]/.test(owner) ? { superclassOwner: owner } : {};
}

/** The class and its in-repository ancestors, nearest first (cycles cut). */
export function superChain(table: ClassTable, cls: ClassRecord): ClassRecord[] {
  const chain: ClassRecord[] = [];
  const seen = new Set<ClassRecord>();
  let current: ClassRecord | null = cls;
  while (current && !seen.has(current)) {
    chain.push(current);
    seen.add(current);
    current = superclassOf(table, current);
  }
  return chain;
}

/** Names of every ancestor (superclasses and interfaces, in repository or not) of a class. */
export function ancestorNames(table: ClassTable, cls: ClassRecord): Set<string> {
  const names = new Set<string>();
  const queue: ClassRecord[] = [cls];
  const seen = new Set<ClassRecord>();
  while (queue.length > 0) {
    const current = queue.shift()!; // length checked
    if (seen.has(current)) continue;
    seen.add(current);
    for (const base of [current.superclass, ...current.interfaces]) {
      if (base === null) continue;
      names.add(base);
      const record = base === current.superclass ? superclassOf(table, current) : lookupClass(table, base, current.path);
      if (record) queue.push(record);
    }
  }
  return names;
}

/** The call signature facts match: `receiver.callee` with `->`, `::`, `?->`, `?.` written as `.`; `new X` for constructors. */
export function callSignature(call: CallIR): string {
  if (call.kind === 'new') return `new ${simpleName(call.callee)}`;
  if (call.receiver === null) return call.callee;
  return `${normaliseReceiver(call.receiver)}.${call.callee}`;
}

/** Receiver text with PHP and optional-chaining arrows as dots and blanks removed. */
export function normaliseReceiver(receiver: string): string {
  return receiver.replace(/\?->|->|::|\?\./g, '.').replace(/\s+/g, '');
}

/** Input of `qualify`. */
export interface QualifyInput {
  /** The receiver text, or null for a bare call. */
  receiver: string | null;
  /** The class of the calling function, or null. */
  enclosingClass: string | null;
  name: string;
  arity: number | null;
  table: ClassTable;
  /** The declared type of the receiver when the caller found one. */
  receiverType?: string | null;
  /** The calling file: of several same-name classes (Jenkins' many `DescriptorImpl`), `this` is the one declared there. */
  path?: string;
}

/** The class a receiver binds to, or null when it cannot be told. */
function receiverClass(input: QualifyInput): ClassRecord | null {
  const { receiver, enclosingClass, table } = input;
  if (receiver === null || SELF_RECEIVERS.has(receiver) || receiver === 'self::' || receiver === 'static::') {
    return enclosingClass === null ? null : lookupClass(table, enclosingClass, input.path);
  }
  if (PARENT_RECEIVERS.has(receiver)) {
    const own = enclosingClass === null ? null : lookupClass(table, enclosingClass, input.path);
    return own ? superclassOf(table, own) : null;
  }
  if (input.receiverType) return lookupClass(table, input.receiverType);
  if (/^[A-Z][\w.\\]*$/.test(receiver)) return lookupClass(table, receiver);
  return null;
}

/** The methods of `cls` (or its nearest ancestor declaring it) named `name`, narrowed by arity. */
export function findMethod(table: ClassTable, cls: ClassRecord, name: string, arity: number | null): { owner: ClassRecord; methods: FunctionRef[] } | null {
  for (const record of superChain(table, cls)) {
    const named = record.methods.filter((m) => m.fn.name === name);
    if (named.length === 0) continue;
    if (named.length === 1 || arity === null) return { owner: record, methods: named };
    const byArity = named.filter((m) => m.fn.parameters.length === arity);
    return { owner: record, methods: byArity.length > 0 ? byArity : named };
  }
  return null;
}

/**
 * The qualified key of a callee: `Class.name` when the receiver binds to a repository class (the class
 * that declares the method, walking up the in-repository superclasses), `Class.name/arity` when that
 * class declares same-name methods with different parameter counts, and the bare `name` otherwise.
 */
export function qualify(input: QualifyInput): string {
  const cls = receiverClass(input);
  if (!cls) return input.name;
  const found = findMethod(input.table, cls, input.name, input.arity);
  if (!found) return input.name;
  const overloads = found.owner.methods.filter((m) => m.fn.name === input.name);
  const arities = new Set(overloads.map((m) => m.fn.parameters.length));
  return arities.size > 1 && input.arity !== null ? `${found.owner.name}.${input.name}/${input.arity}` : `${found.owner.name}.${input.name}`;
}

/** Why a call resolved to nothing in the repository. */
type Unresolved = 'receiver_unresolved' | 'library_receiver' | 'external';

/** The result of resolving one call. */
export interface Resolution {
  key: string;
  targets: FunctionRef[];
  unresolved: Unresolved | null;
}

const typeCache = new WeakMap<ProgramFile, ReadonlyMap<string, string>>();

/** The declared type of a variable or field named `name` in a file, by the common declaration shapes. */
function declaredType(file: ProgramFile, fn: FunctionIR | null, name: string): string | null {
  const bare = name.replace(/^\$/, '');
  if (!/^\w+$/.test(bare)) return null;
  if (fn) {
    const param = fn.parameters.find((p) => p.name.replace(/^\$/, '') === bare);
    if (param?.type) return param.type.replace(/^\?/, '').replace(/^\\/, '');
  }
  let types = typeCache.get(file);
  if (!types) typeCache.set(file, (types = declaredTypesOf(file.text)));
  return types.get(bare) ?? null;
}

/** The variable a receiver expression starts from: `$this->sdk->createLambda()` → `sdk`, `client.x` → `client`. */
function rootVariable(receiver: string): string | null {
  const match = /^(?:(?:this|self|\$this)\.)?(\$?\w+)/.exec(normaliseReceiver(receiver));
  const root = match?.[1] ?? null;
  return root === null || SELF_RECEIVERS.has(root) ? null : root;
}

/** Fully qualified names (`App\Support\Client`, `com.acme.Store`) of the repository's own classes, per program. */
const ownQualifiedNames = new WeakMap<Program, Set<string>>();

/** The namespace (PHP) or package (Java) a file declares, or ''. */
export function namespaceOf(file: ProgramFile): string {
  return /^\s*(?:namespace|package)\s+([\w.\\]+)\s*;/m.exec(file.text)?.[1] ?? '';
}

function qualifiedClassNames(program: Program): Set<string> {
  let names = ownQualifiedNames.get(program);
  if (names) return names;
  names = new Set();
  for (const file of program.files) {
    const space = namespaceOf(file);
    const separator = file.language === 'php' ? '\\' : '.';
    for (const cls of file.ir.classes) {
      // Java imports a nested class through its outer one: `a.b.Outer.Inner`.
      let nested = cls.name;
      for (let outer = cls.enclosingClass; outer !== null; outer = file.ir.classes.find((c) => c.name === outer)?.enclosingClass ?? null) {
        nested = `${outer}${separator}${nested}`;
        if (nested.split(separator).length > 8) break;
      }
      for (const own of new Set([cls.name, nested])) names.add(space === '' ? own : `${space}${separator}${own}`);
      // A class declared without a namespace may be loaded under any name: never call an import of it a library.
      if (space === '') names.add(`*${cls.name}`);
    }
  }
  ownQualifiedNames.set(program, names);
  return names;
}

/**
 * True when `name` (a type or a variable) is bound in `file` by an import from outside the repository: a
 * PHP `use` or Java `import` of a class no repository file declares, or a TypeScript/Python import from a
 * package. A fully qualified PHP name (`\\Aws\\Lambda\\LambdaClient`) is judged the same way.
 */
function isLibraryName(program: Program, file: ProgramFile, name: string): boolean {
  const bare = name.replace(/^\$/, '');
  let byFile = libraryNames.get(program);
  if (!byFile) libraryNames.set(program, (byFile = new WeakMap<ProgramFile, Map<string, boolean>>()));
  let names = byFile.get(file);
  if (!names) byFile.set(file, (names = new Map<string, boolean>()));
  let library = names.get(bare);
  if (library === undefined) names.set(bare, (library = judgedLibraryName(program, file, bare)));
  return library;
}

/** Asked once per receiver name and file: every call on the receiver asks again. */
const libraryNames = new WeakMap<Program, WeakMap<ProgramFile, Map<string, boolean>>>();

function judgedLibraryName(program: Program, file: ProgramFile, bare: string): boolean {
  if (file.language === 'php' && /\\/.test(bare)) {
    const own = qualifiedClassNames(program);
    return !own.has(bare.replace(/^\\/, '')) && !own.has(`*${bare.split('\\').pop() ?? ''}`);
  }
  for (const imp of file.ir.imports) {
    const last = imp.module.split(/[.\\/]/).pop();
    if (!imp.names.includes(bare) && !(imp.names.length === 0 && last === bare)) continue;
    if (file.language === 'php' || file.language === 'java') {
      const own = qualifiedClassNames(program);
      return !own.has(imp.module.replace(/^\\/, '')) && !own.has(`*${last ?? ''}`);
    }
    // Only a package specifier names a library; relative paths and project aliases (`~/`, `#app/`, `@/`) do not.
    if (!/^(@[\w.-]+\/)?[\w][\w.-]*(\/|$)/.test(imp.module) || /^@\//.test(imp.module)) return false;
    return moduleFiles(program, file.path, imp.module).length === 0;
  }
  return false;
}

/** The local name a receiver stands for: `store`, `$store`, `this.store`, `$this->store`, `self.store`. */
function receiverVariable(receiver: string): string | null {
  const match = /^(?:(?:this|self|\$this)\.)?(\$?\w+)$/.exec(normaliseReceiver(receiver));
  return match?.[1] ?? null;
}

/** Resolve a call made in `caller` (a function of `file`) to repository functions. */
export function resolveCall(program: Program, file: ProgramFile, caller: FunctionIR | null, call: CallIR): Resolution {
  const name = call.kind === 'new' ? simpleName(call.callee) : call.callee;
  const candidates = program.byName.get(name);
  if (call.kind === 'new') {
    const cls = lookupClass(program.table, name, file.path);
    if (!cls) return { key: `new ${name}`, targets: [], unresolved: 'external' };
    const ctor = cls.methods.filter((m) => ['constructor', '__construct', '__init__', cls.name].includes(m.fn.name));
    return { key: `${cls.name}.<init>`, targets: ctor, unresolved: null };
  }
  if (!candidates || candidates.length === 0) return { key: name, targets: [], unresolved: 'external' };
  const receiver = call.receiver === null ? null : normaliseReceiver(call.receiver);
  const enclosingClass = caller?.className ?? null;

  // Bare calls outside a class (or in languages where a bare call is a module function).
  if (receiver === null && (enclosingClass === null || file.language !== 'java')) {
    const local = program.moduleFunctions.get(file.path)?.get(name);
    if (local && local.length > 0) return { key: `${file.path}::${name}`, targets: local, unresolved: null };
    const imported = importedModuleFunction(program, file, name);
    if (imported) return { key: `${imported[0]?.path ?? ''}::${name}`, targets: imported, unresolved: null };
    if (enclosingClass === null || file.language === 'php') {
      const modules = candidates.filter((c) => c.fn.className === null);
      if (modules.length === 1) return { key: name, targets: modules, unresolved: null };
      return { key: name, targets: [], unresolved: modules.length > 1 ? 'receiver_unresolved' : 'external' };
    }
  }

  // `new Store().wipe()`: the receiver is a fresh instance of a class.
  const constructed = call.receiver === null ? null : /^new\s+([A-Z][\w.\\]*)\s*\(/.exec(call.receiver.trim());
  // The type as written (`\Aws\Lambda\LambdaClient`, `Foo<T>`) tells a library type; its simple name finds a class.
  let writtenType: string | null = constructed?.[1] ?? null;
  if (writtenType === null && receiver !== null && !SELF_RECEIVERS.has(receiver) && !PARENT_RECEIVERS.has(receiver) && !/^[A-Z][\w.\\]*$/.test(receiver)) {
    const variable = receiverVariable(receiver);
    if (variable !== null) writtenType = declaredType(file, caller, variable);
    // `module.fn()` where `module` is an imported module of the repository.
    if (writtenType === null && variable !== null) {
      const viaModule = moduleAlias(program, file, variable, name);
      if (viaModule) return { key: `${viaModule[0]?.path ?? ''}::${name}`, targets: viaModule, unresolved: null };
    }
  }
  const receiverType = writtenType === null ? null : simpleName(writtenType);
  // A receiver whose type, or whose own binding, comes from a package is a library object: none of its
  // methods is a project method, whatever its name (an SDK client's `execute`).
  if (receiver !== null && !SELF_RECEIVERS.has(receiver) && !PARENT_RECEIVERS.has(receiver)) {
    const root = rootVariable(receiver);
    const rootType = writtenType ?? (root === null ? null : declaredType(file, caller, root));
    const named = /^[A-Z][\w.\\]*$/.test(receiver) ? receiver : null;
    const names = [rootType?.replace(/<.*$/s, '').trim() ?? null, named, root];
    if (names.some((n) => n !== null && isLibraryName(program, file, n)) || (root !== null && receiver.startsWith(root) && isRuntimeGlobal(file, root))) return { key: name, targets: [], unresolved: 'library_receiver' };
  }
  const input: QualifyInput = { receiver, enclosingClass, name, arity: call.arity, table: program.table, receiverType, path: file.path };
  const cls = receiverClass(input);
  if (cls) {
    // A bare call in a Java nested class may name a method of a lexically enclosing class.
    const found = findMethod(program.table, cls, name, call.arity) ?? (receiver === null && file.language === 'java' ? enclosingClassMethod(program, file, cls.name, name, call.arity) : null);
    const chosen = found ? chooseOverloads(found.methods, call, overloadContext(program, file, caller)) : [];
    // A Java interface or abstract method runs as its repository implementation (implementations.ts).
    return { key: qualify(input), targets: found ? withImplementations(program.table, program.byPath, found.owner, chosen, name, call.arity) : [], unresolved: null };
  }
  // Receiver names no repository class: a framework or library object, or a dynamic value. Repository
  // methods with this name exist, so the call might reach one: count it, and follow it only when exactly
  // one method carries the name (no silent merge of same-name methods).
  const methods = candidates.filter((c) => c.fn.className !== null);
  if (receiverType !== null && !program.table.has(receiverType)) return { key: name, targets: [], unresolved: 'external' };
  if (methods.length === 1) return { key: name, targets: methods, unresolved: 'receiver_unresolved' };
  return { key: name, targets: [], unresolved: methods.length > 0 ? 'receiver_unresolved' : 'external' };
}

/** Types at a call site: declared variable types, and the supertypes of repository and library classes. */
function overloadContext(program: Program, file: ProgramFile, caller: FunctionIR | null): OverloadContext {
  return {
    typeOf: (name) => declaredType(file, caller, name),
    supertypesOf: (type) => {
      const own = lookupClass(program.table, type);
      const bases = own ? [own.superclass, ...own.interfaces].filter((b): b is string => b !== null) : [];
      return [...bases, ...(program.librarySupertypes.get(type) ?? [])];
    },
  };
}

/** `name` declared in a class of `file` that lexically encloses class `inner`, innermost first. */
function enclosingClassMethod(program: Program, file: ProgramFile, inner: string, name: string, arity: number | null): { owner: ClassRecord; methods: FunctionRef[] } | null {
  const own = file.ir.classes.find((c) => c.name === inner);
  if (!own) return null;
  const outers = file.ir.classes.filter((c) => c !== own && c.startLine <= own.startLine && c.endLine >= own.endLine).sort((a, b) => b.startLine - a.startLine);
  for (const outer of outers) {
    const record = lookupClass(program.table, outer.name, file.path);
    const found = record ? findMethod(program.table, record, name, arity) : null;
    if (found) return found;
  }
  return null;
}

/** Repository files an import's module text may name (relative TS/JS paths, Python dotted modules). */
/** Non-relative imports resolve the same from every file: remember them per program. */
const absoluteModules = new WeakMap<Program, Map<string, ProgramFile[]>>();

export function moduleFiles(program: Program, fromPath: string, module: string): ProgramFile[] {
  if (module.startsWith('.')) return resolveModuleFiles(program, fromPath, module);
  const files = cachedModules(program, `module\0${module}`, () => resolveModuleFiles(program, fromPath, module));
  if (files.length > 0 || !/\.(ts|tsx|js|jsx|mjs|cjs)$/.test(fromPath)) return files;
  // `import { throwErr } from 'src/utils'`: a path from the package's own root (tsconfig baseUrl), in a monorepo a folder above the importer.
  const dir = fromPath.includes('/') ? fromPath.slice(0, fromPath.lastIndexOf('/')) : '';
  return cachedModules(program, `rooted\0${dir}\0${module}`, () => fromPackageRoot(program, dir, module));
}

/** Absolute specifiers are resolved once per program (and per importing folder where the answer depends on it). */
function cachedModules(program: Program, key: string, resolve: () => ProgramFile[]): ProgramFile[] {
  let cache = absoluteModules.get(program);
  if (!cache) absoluteModules.set(program, (cache = new Map<string, ProgramFile[]>()));
  let files = cache.get(key);
  if (!files) cache.set(key, (files = resolve()));
  return files;
}

/** The files `module` names from the nearest folder above `dir` that holds them (a TypeScript baseUrl). */
function fromPackageRoot(program: Program, dir: string, module: string): ProgramFile[] {
  const parts = dir === '' ? [] : dir.split('/');
  for (let depth = parts.length - 1; depth >= 1; depth--) {
    const found = resolveModuleFiles(program, `${parts.slice(0, depth).join('/')}/x.ts`, `./${module}`);
    if (found.length > 0) return found;
  }
  return [];
}

/**
 * `moduleFiles`, and when the specifier names no file, the project file an alias (`@/lib/auth`,
 * `@acme/lib/users`) names nearest the importer. Read for the wrappers and middleware an entry names,
 * whose checks are the entry's; call resolution does not follow aliases (ADR 0054: a path it could not
 * see before would be judged by check readings that miss a project's own helpers).
 */
export function moduleFilesThroughAliases(program: Program, fromPath: string, module: string): ProgramFile[] {
  const files = moduleFiles(program, fromPath, module);
  if (files.length > 0 || module.startsWith('.')) return files;
  const dir = fromPath.slice(0, fromPath.lastIndexOf('/') + 1);
  return cachedModules(program, `alias\0${dir}\0${module}`, () => aliasedModuleFiles(program.files, fromPath, module));
}

function resolveModuleFiles(program: Program, fromPath: string, module: string): ProgramFile[] {
  const dir = fromPath.includes('/') ? fromPath.slice(0, fromPath.lastIndexOf('/')) : '';
  const bases: string[] = [];
  if (module.startsWith('.')) {
    if (module.startsWith('./') || module.startsWith('../')) bases.push(joinPath(dir, module));
    else {
      // Python relative import: `.b`, `..pkg.b`
      const dots = /^\.+/.exec(module)?.[0].length ?? 1;
      let base = dir;
      for (let i = 1; i < dots; i++) base = base.includes('/') ? base.slice(0, base.lastIndexOf('/')) : '';
      bases.push(joinPath(base, module.slice(dots).replace(/\./g, '/')));
    }
  } else if (module.startsWith('~/')) {
    bases.push(`app/${module.slice(2)}`);
  } else {
    bases.push(module.replace(/\./g, '/'));
  }
  const out: ProgramFile[] = [];
  for (const base of bases) {
    const clean = base.replace(/\.(js|mjs|cjs|ts|tsx|jsx)$/, '');
    for (const suffix of ['.ts', '.tsx', '.js', '.jsx', '.mjs', '/index.ts', '/index.tsx', '/index.js', '.py', '/__init__.py']) {
      const file = program.byPath.get(`${clean}${suffix}`);
      if (file) out.push(file);
    }
    // Python absolute modules may be rooted below a source folder (src/pkg/b.py for pkg.b).
    if (out.length === 0 && !module.startsWith('.')) {
      for (const file of program.files) {
        if (file.path.endsWith(`/${clean}.py`) || file.path.endsWith(`/${clean}/__init__.py`)) out.push(file);
      }
    }
  }
  return out;
}

function joinPath(dir: string, relative: string): string {
  const parts = dir === '' ? [] : dir.split('/');
  for (const part of relative.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return parts.join('/');
}

/** A module function `name` imported by name into `file`. */
function importedModuleFunction(program: Program, file: ProgramFile, name: string): FunctionRef[] | null {
  for (const imp of file.ir.imports) {
    if (!imp.names.includes(name)) continue;
    for (const target of moduleFiles(program, file.path, imp.module)) {
      const fns = topLevelFirst(program.moduleFunctions.get(target.path)?.get(name));
      if (fns && fns.length > 0) return fns;
    }
  }
  return null;
}

/** An import binds a module's top-level declaration, never a function nested in another (`getSession.getUser`). */
function topLevelFirst(fns: FunctionRef[] | undefined): FunctionRef[] | undefined {
  const top = fns?.filter((f) => f.fn.qualifiedName === f.fn.name);
  return top && top.length > 0 ? top : fns;
}

/** `alias.name()` where `alias` binds an imported repository module. */
function moduleAlias(program: Program, file: ProgramFile, alias: string, name: string): FunctionRef[] | null {
  for (const imp of file.ir.imports) {
    const last = imp.module.split(/[./]/).pop();
    if (!imp.names.includes(alias) && !(imp.names.length === 0 && last === alias)) continue;
    for (const target of moduleFiles(program, file.path, imp.module)) {
      const fns = topLevelFirst(program.moduleFunctions.get(target.path)?.get(name));
      if (fns && fns.length > 0) return fns;
    }
  }
  return null;
}

/** The call-graph node (named function) a line of a file belongs to, or null at top level. */
/**
 * The methods a class-level line governs: a line in no function, in a class's head (its decorators,
 * annotations or attributes, or its declaration, before the first member). A guard written there
 * (`#[IsGranted('ROLE_ADMIN')]`, `@PreAuthorize`, `@UseGuards`) stands before every method, so a change
 * to it is a change to each of them. Empty for any other line.
 */
export function nodesUnderClassHead(program: Program, ir: FileIR, line: number): FunctionRef[] {
  // (a line in a method is after that member's start, so the member test below answers it too)
  let cls: FileIR['classes'][number] | null = null;
  for (const c of ir.classes) if (c.startLine <= line && line <= c.endLine && (!cls || c.startLine >= cls.startLine)) cls = c;
  if (!cls) return [];
  const members = ir.functions.filter((fn) => fn.className === cls.name && fn.startLine >= cls.startLine && fn.endLine <= cls.endLine);
  if (members.some((fn) => fn.startLine <= line)) return [];
  return members.map((fn) => program.nodeOf.get(fn)).filter((ref): ref is FunctionRef => ref !== undefined);
}

export function nodeAt(program: Program, ir: FileIR, line: number): FunctionRef | null {
  let best: FunctionIR | null = null;
  for (const fn of ir.functions) {
    if (fn.startLine > line || fn.endLine < line) continue;
    if (!best || fn.startLine > best.startLine || (fn.startLine === best.startLine && fn.endLine < best.endLine)) best = fn;
  }
  return best ? (program.nodeOf.get(best) ?? null) : null;
}
