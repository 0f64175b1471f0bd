/**
 * Overload choice for a call that names several same-arity methods of one class (Java's
 * `listCredentials(Item, ...)` and `listCredentials(ItemGroup<?>, ...)`): the arguments whose type is
 * known (a parameter or variable with a declared type, a cast, `new X(...)`, a string literal) pick
 * the overloads whose parameter types they fit best, as the compiler does. A type fits a parameter
 * exactly (same simple name) or as a subtype: through the repository's own classes, or through the
 * library types the facts name (`library_supertypes`: Jenkins' `SCMSourceOwner` is an `Item`). When no
 * argument tells the overloads apart, every one stays a target (the call might reach any).
 */
import type { CallIR } from '../syntax/ir-types.js';
import type { Facts } from './facts.js';
import { callArguments } from './ownership.js';
import { resolveCall, type Program } from './resolution.js';
import type { DischargeKind, FunctionRef, ProgramFile, Witness } from './types.js';

/** Library type (simple name) → its direct supertypes (simple names), from the facts. */
export type LibrarySupertypes = ReadonlyMap<string, readonly string[]>;

/** The library supertypes of every facts file, in one map (a type names its language's libraries only). */
export function librarySupertypesOf(facts: Facts): LibrarySupertypes {
  const out = new Map<string, string[]>();
  for (const language of Object.values(facts)) for (const [type, bases] of language.librarySupertypes) out.set(type, [...(out.get(type) ?? []), ...bases]);
  return out;
}

/** What the chooser needs to know about types at the call. */
export interface OverloadContext {
  /** The declared type of a variable or parameter visible at the call, or null. */
  typeOf: (name: string) => string | null;
  /** The direct supertypes of a type by simple name (repository classes and library facts), or empty. */
  supertypesOf: (type: string) => readonly string[];
}

/** `ItemGroup<?>` → `ItemGroup`, `hudson.model.Item` → `Item`, `String...` → `String`, `final Foo` → `Foo`. */
export function simpleTypeName(type: string): string {
  const bare = type.replace(/<.*$/s, '').replace(/\[\]|\.\.\.$/g, '').replace(/^(?:final\s+)?(?:@\w+(?:\([^)]*\))?\s+)*/, '').trim();
  const parts = bare.split(/[.\\]+/).filter((p) => p.length > 0);
  return parts[parts.length - 1] ?? bare;
}

/** The static type of an argument expression when the text tells it, else null. */
export function argumentType(text: string, typeOf: OverloadContext['typeOf']): string | null {
  const arg = text.trim();
  if (/^"(?:[^"\\]|\\.)*"$/.test(arg)) return 'String';
  const cast = /^\(\s*([A-Z][\w.]*)(?:<[^>]*>)?\s*\)\s*[\w$.()]+$/.exec(arg);
  if (cast?.[1]) return simpleTypeName(cast[1]);
  const constructed = /^new\s+([A-Z][\w.]*)\s*[(<]/.exec(arg);
  if (constructed?.[1]) return simpleTypeName(constructed[1]);
  if (/^[a-z_$][\w$]*$/.test(arg) && arg !== 'null' && arg !== 'this') {
    const declared = typeOf(arg);
    return declared === null ? null : simpleTypeName(declared);
  }
  return null;
}

/** Every supertype of `type` (itself excluded), through repository classes and library facts. */
function supertypesClosure(type: string, supertypesOf: OverloadContext['supertypesOf']): Set<string> {
  const out = new Set<string>();
  const queue = [...supertypesOf(type)];
  while (queue.length > 0) {
    const next = simpleTypeName(queue.shift() ?? '');
    if (next === '' || out.has(next) || next === type) continue;
    out.add(next);
    queue.push(...supertypesOf(next));
  }
  return out;
}

/** How well an argument of type `arg` fits a parameter of type `param`: 2 exactly, 1 as a subtype, 0 unknown. */
function fit(arg: string, param: string, supertypesOf: OverloadContext['supertypesOf']): number {
  if (arg === param) return 2;
  return supertypesClosure(arg, supertypesOf).has(param) ? 1 : 0;
}

/**
 * The overloads of `candidates` (same name, same arity) that the call's argument types fit best; all
 * of them when the arguments tell nothing apart.
 */
export function chooseOverloads(candidates: FunctionRef[], call: CallIR, context: OverloadContext): FunctionRef[] {
  if (candidates.length < 2 || call.kind !== 'call') return candidates;
  const args = callArguments(call.text, call.callee);
  if (args === null || args.length === 0) return candidates;
  const types = args.map((a) => argumentType(a, context.typeOf));
  if (types.every((t) => t === null)) return candidates;
  const scored = candidates.map((ref) => {
    let score = 0;
    types.forEach((type, i) => {
      const param = ref.fn.parameters[i]?.type;
      if (type !== null && param) score += fit(type, simpleTypeName(param), context.supertypesOf);
    });
    return { ref, score };
  });
  const best = Math.max(...scored.map((s) => s.score));
  if (best === 0) return candidates;
  return scored.filter((s) => s.score === best).map((s) => s.ref);
}


/** What `guardedOwnWrapper` needs: the call site, the kinds the row requires, and how to tell a same-kind operation. */
export interface WrapperInput {
  program: Program;
  file: ProgramFile;
  caller: FunctionRef;
  call: CallIR;
  requires: readonly DischargeKind[];
  byFunction: ReadonlyMap<string, readonly Witness[]>;
  /** True when a call of the target is an operation of the row's kind. */
  sameKindOperation: (file: ProgramFile, call: CallIR) => boolean;
}

/**
 * True when a Java call an operation row names (`listCredentials`, a library API) resolves to methods
 * of the repository that each check (a required kind) and perform the operation themselves: such a
 * wrapper is judged by its body on the path through it, so the call site is no second operation.
 * A wrapper that does not check stays an operation where it is called too.
 */
export function guardedOwnWrapper(input: WrapperInput): boolean {
  const { program, file, call } = input;
  if (file.language !== 'java' || call.kind !== 'call') return false;
  const targets = resolveCall(program, file, input.caller.fn, call).targets;
  return (
    targets.length > 0 &&
    targets.every((target) => {
      const own = program.byPath.get(target.path);
      const checks = (input.byFunction.get(target.id) ?? []).some((w) => w.scope === 'statement' && input.requires.includes(w.kind));
      const operates = own?.ir.calls.some((c) => c.line >= target.fn.startLine && c.line <= target.fn.endLine && input.sameKindOperation(own, c)) ?? false;
      return checks && operates;
    })
  );
}
