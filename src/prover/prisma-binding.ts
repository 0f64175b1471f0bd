/**
 * Resource binding for Prisma-style writes and lookups (TypeScript; ADR 0034). A write names its rows by
 * a `where` object (`prisma.teamGroup.delete({ where: { id: teamGroupId, teamId } })`), not by a
 * variable, and the checks in front of it are lookups that bind a team or organisation to the caller
 * (`prisma.team.findFirst({ where: { id: teamId, members: { some: { userId } } } })`,
 * `buildTeamWhereQuery({ teamId, userId, roles })`, a helper such as `getTeamById({ userId, teamId })`
 * that throws when the caller is no member). This module says, for resource-binding.ts:
 * - what such a write acts on: the values of its `where` (every one of them; Prisma ANDs them, so a row
 *   keyed by the checked team's id is inside that team), followed back along the path to the request
 *   (tRPC `input`, Next.js `params`, a body) through assignments, destructuring and the object
 *   arguments handed to a helper's destructured parameters;
 * - what a lookup or a thrower helper binds: the values of its `where` (or of its object argument) and
 *   the variable its result lands in (`team`, then `team.id`).
 * A write whose own `where` names the caller (`userId`, `user.id`) is scoped by itself and left to the
 * ownership reading. Textual, like the rest of resource-binding.ts.
 */
import { blankStrings } from './string-literals.js';
import type { CallIR, FunctionIR } from '../syntax/ir-types.js';
import type { LanguageFacts } from './facts.js';
import { callArguments, destructured, objectProperties } from './ownership.js';
import type { Program } from './resolution.js';
import { enterHop } from './resource-binding.js';
import { statementAt } from './recognisers/shared.js';
import type { PathRecord, ProgramFile } from './types.js';

/** Values that are the caller, not a resource: a write or check naming them is scoped by the user. */
const CALLER = /^(user|userId|currentUser|currentUserId|ctx|context|session|me|self|actor|actorId)$/;
/** Names that are never a resource (the client, literals, enums and constant maps written in capitals). */
const NOT_A_RESOURCE = /^(prisma|db|tx|trx|undefined|null|true|false|this|[A-Z][A-Z0-9_]*)$/;
/** Where a handler's request data lives: tRPC `input`, Next.js `params`/`searchParams`, bodies and forms. */
const REQUEST_ROOT = /^(input|params|searchParams|body|query|formData|args|data)$/;
const REQUEST_EXPRESSION = /\b(req|request)\.(body|params|query)\b|\b(request|req)\.(json|formData)\s*\(|^\s*(await\s+)?(input|params|searchParams|body|query|formData)\b/;
const MAX_STEPS = 40;
/**
 * A Prisma client expression: the client itself (`prisma`, `db`, a transaction `tx`, an injected
 * `this.prisma`), reached through the request context a tRPC or GraphQL resolver gets (`ctx.prisma`,
 * `ctx.db`), or wrapped in a module object that holds it (`prisma.client`).
 */
export const PRISMA_CLIENT = String.raw`(?:this\.|ctx\.|context\.)?(?:prisma|db|tx|trx|prismaService)(?:\.client)?`;

/** The `where` object of a Prisma call's first argument, or null when the call has none written in place. */
export function whereOf(call: CallIR): string | null {
  const first = (callArguments(call.text, call.callee) ?? [])[0]?.trim();
  if (first === undefined || !first.startsWith('{')) return null;
  const where = objectProperties(first).find(([key]) => key === 'where')?.[1]?.trim();
  return where ?? null;
}

/**
 * The variables a `where` object (or any object literal) holds as values, nested objects and spread
 * calls included (`...buildTeamWhereQuery({ teamId, userId })` gives `teamId`, `userId`); keys are not values.
 */
export function objectValueNames(literal: string): string[] {
  const out = new Set<string>();
  const visit = (text: string, depth: number): void => {
    const trimmed = text.trim();
    if (depth > 6) return;
    if (trimmed.startsWith('{')) {
      for (const entry of callArguments(`o(${trimmed.replace(/^\{|\}$/g, '')})`, 'o') ?? []) {
        const spread = /^\.\.\.\s*([\s\S]+)$/.exec(entry.trim());
        if (spread?.[1]) visit(spread[1], depth + 1);
      }
      for (const [, value] of objectProperties(trimmed)) visit(value, depth + 1);
      return;
    }
    // A call's object arguments hold values too (`buildTeamWhereQuery({ teamId })`, `In(ids)`).
    const call = /^(?:await\s+)?[\w$.]+\s*\(([\s\S]*)\)\s*$/.exec(trimmed);
    if (call) {
      for (const arg of callArguments(trimmed, /^(?:await\s+)?([\w$.]+)/.exec(trimmed)?.[1]?.split('.').pop() ?? '') ?? []) visit(arg, depth + 1);
      return;
    }
    for (const name of valueRoots(trimmed)) out.add(name);
  };
  visit(literal, 0);
  return [...out];
}

/** The variables an expression reads as values: the root of each member chain, not properties or callees. */
function valueRoots(expression: string): string[] {
  const text = blankStrings(expression, '""');
  const out: string[] = [];
  for (const m of text.matchAll(/(?<![\w$.?])([A-Za-z_$][\w$]*)\b(?!\s*[(:])/g)) {
    const name = m[1] ?? '';
    if (!NOT_A_RESOURCE.test(name) && !/^(typeof|await|new|as|in|of|instanceof|void)$/.test(name)) out.push(name);
  }
  return out;
}

/** True when a `where` names the caller (a user id, the session's user): the write is scoped by the user itself. */
export function scopedByCaller(where: string): boolean {
  return objectValueNames(where).some((n) => CALLER.test(n)) || /\bctx\.user\b|\bsession\.user\b|\buser\.id\b/.test(where);
}

/** Where a resource-bound Prisma write's rows were chosen, and the names they derive from per function. */
export interface PrismaRisk {
  expression: string;
  chain: Map<string, Set<string>>;
  origin: string;
}

/**
 * For a write with a `where` written in place: its rows and where the request chose them; null when the
 * request did not (or the write is scoped by the caller); undefined when the call is not of that shape.
 */
export function prismaRisk(program: Program, facts: LanguageFacts, path: PathRecord, call: CallIR, line: number): PrismaRisk | null | undefined {
  const where = whereOf(call);
  if (where === null) return undefined;
  if (scopedByCaller(where)) return null;
  const chain = new Map<string, Set<string>>();
  const budget = { steps: MAX_STEPS };
  const last = path.hops.length - 1;
  let origin: string | null = null;
  // Every value is traced, not only the first chosen one: a check bound to any of them covers the write.
  for (const name of objectValueNames(where)) origin = traceName(program, facts, path, last, name, line, chain, budget) ?? origin;
  if (origin === null) return null;
  path.hops.forEach((hop, i) => tieLookups(program, hop.functionId, chain, i === last ? line : (hop.callLine ?? 0)));
  return { expression: `where ${where.replace(/\s+/g, ' ').slice(0, 80)}`, chain, origin };
}

const LOOKUP = new RegExp(String.raw`^\s*(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*(?:await\s+)?${PRISMA_CLIENT}\.\w+\.(?:findFirst|findUnique|findFirstOrThrow|findUniqueOrThrow)\s*\(`);

/**
 * A record looked up by a value the rows derive from is that record (`attachment = findFirst({ where: {
 * id } })` before `delete({ where: { id } })`): a check bound to it, or to the parent it names, covers them.
 */
function tieLookups(program: Program, functionId: string, chain: Map<string, Set<string>>, before: number): void {
  const ref = program.functions.get(functionId);
  const file = ref ? program.byPath.get(ref.path) : undefined;
  const names = chain.get(functionId);
  if (!ref || !file || !names) return;
  for (let line = ref.fn.bodyStartLine + 1; line < before && line <= ref.fn.endLine; line++) {
    const found = LOOKUP.exec(file.lines[line - 1] ?? '')?.[1];
    const call = found === undefined ? undefined : file.ir.calls.find((c) => c.line === line && /^find(First|Unique)/.test(c.callee));
    const where = call ? whereOf(call) : null;
    if (found !== undefined && where !== null && objectValueNames(where).some((n) => names.has(n))) names.add(found);
  }
}

const declaration = (name: string): RegExp => new RegExp(String.raw`^\s*(?:(?:const|let|var)\s+)?${name}\s*(?::[^=]+)?(?:\?\?)?=(?![=>])\s*(.+)$`);
const DESTRUCTURING = /^\s*(?:const|let|var)\s*(\{[^}]*\})\s*(?::[^=]+)?=(?![=>])\s*(.+)$/;

/** Follow `name` in hop `index` back to where it was chosen: the request's choice (its origin), or null. */
function traceName(program: Program, facts: LanguageFacts, path: PathRecord, index: number, name: string, bound: number, chain: Map<string, Set<string>>, budget: { steps: number }): string | null {
  if (budget.steps-- <= 0 || CALLER.test(name)) return null;
  const at = enterHop(program, path, index, name, chain);
  if (!at) return null;
  const { ref, file } = at;
  if (REQUEST_ROOT.test(name) && index === 0) return `\`${name}\` (request input of the entry ${ref.fn.qualifiedName})`;
  const assigned = declaration(name);
  for (let line = Math.min(bound - 1, ref.fn.endLine); line > ref.fn.bodyStartLine; line--) {
    const text = file.lines[line - 1] ?? '';
    const plain = assigned.exec(text);
    const pattern = DESTRUCTURING.exec(text);
    const local = pattern?.[1] ? destructured(pattern[1]).find(([, l]) => l === name) : undefined;
    const rhs = plain?.[1] ?? (local ? pattern?.[2] : undefined);
    if (rhs === undefined) continue;
    const statement = statementAt(file, line, 8).slice(text.indexOf(rhs));
    return originOf(program, facts, path, index, local && local[0] !== '...' ? `${statement.replace(/;[\s\S]*$/, '').trim()}.${local[0]}` : statement.replace(/;[\s\S]*$/, ''), line, chain, budget);
  }
  const position = ref.fn.parameters.findIndex((p) => p.name === name || destructured(p.name).some(([, l]) => l === name));
  const parameter = ref.fn.parameters[position];
  if (!parameter) return null;
  const property = destructured(parameter.name).find(([, l]) => l === name)?.[0];
  if (index === 0) return property !== undefined && !REQUEST_ROOT.test(property) ? null : `a parameter of the entry ${ref.fn.qualifiedName} (the request chooses it)`;
  const caller = path.hops[index - 1];
  const callerRef = caller ? program.functions.get(caller.functionId) : undefined;
  const callerFile = callerRef ? program.byPath.get(callerRef.path) : undefined;
  if (!caller || !callerRef || !callerFile || caller.callLine === null) return null;
  const argument = (callArguments(statementAt(callerFile, caller.callLine, 8), ref.fn.name) ?? [])[position]?.trim();
  if (argument === undefined) return null;
  // A destructured parameter takes the property of the object argument (`getTeamById({ userId, teamId })`).
  const value = property === undefined ? argument : argument.startsWith('{') ? objectProperties(argument).find(([key]) => key === property)?.[1] : `${argument}.${property}`;
  return value === undefined ? null : originOf(program, facts, path, index - 1, value, caller.callLine, chain, budget);
}

function originOf(program: Program, facts: LanguageFacts, path: PathRecord, index: number, rhs: string, line: number, chain: Map<string, Set<string>>, budget: { steps: number }): string | null {
  // The logged-in user's records and the request's own creations are judged by ownership.ts.
  if (facts.currentUser.some((re) => re.test(rhs)) || facts.createdObjects.some((re) => re.test(rhs))) return null;
  const ref = program.functions.get(path.hops[index]?.functionId ?? '');
  if (REQUEST_EXPRESSION.test(rhs) && (index === 0 || !/^\s*(await\s+)?(input|params|searchParams|body|query|formData)\b/.test(rhs))) return `\`${rhs.trim().slice(0, 80)}\` (request input, in ${ref?.fn.qualifiedName ?? 'the path'})`;
  let origin: string | null = null;
  for (const name of valueRoots(rhs)) origin = traceName(program, facts, path, index, name, line, chain, budget) ?? origin;
  return origin;
}

const RECORD_LOOKUP_RECEIVER = new RegExp(String.raw`^${PRISMA_CLIENT}\.\w+$`);

/** A Prisma lookup (`prisma.team.findFirst(...)`, `tx.member.findUniqueOrThrow(...)`), the one kind of statement check whose where binds rows. */
export function isRecordLookup(call: CallIR): boolean {
  return /^find(First|Unique|Many)(OrThrow)?$/.test(call.callee) && RECORD_LOOKUP_RECEIVER.test(call.receiver ?? '');
}

/**
 * What a Prisma lookup or a thrower helper's call binds: its where's (or object argument's) values, the
 * variable its result lands in, and what those were derived from above it in the function (through
 * multi-line statements and destructuring: `const { envelopeWhereInput } = await getEnvelopeWhereInput({
 * id: { id: attachment.envelopeId } })` makes a lookup by `envelopeWhereInput` bind `attachment`).
 */
export function prismaCheckNames(file: ProgramFile, fn: FunctionIR, call: CallIR): string[] | null {
  const where = whereOf(call);
  const args = callArguments(call.text, call.callee) ?? [];
  const literal = where ?? args.find((a) => a.trim().startsWith('{'))?.trim() ?? null;
  if (literal === null) return null;
  const names = new Set(objectValueNames(literal).filter((n) => !CALLER.test(n)));
  const result = /^\s*(?:const|let|var)?\s*([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*(?:await\s+)?/.exec(file.lines[call.line - 1] ?? '')?.[1];
  if (result !== undefined) names.add(result);
  const queue = [...names].map((name) => ({ name, before: call.line }));
  while (queue.length > 0 && names.size < MAX_STEPS) {
    const next = queue.shift();
    if (!next) break;
    const assigned = declaration(next.name);
    for (let line = next.before - 1; line > fn.bodyStartLine; line--) {
      const text = file.lines[line - 1] ?? '';
      const pattern = DESTRUCTURING.exec(text);
      const rhs = assigned.exec(text)?.[1] ?? (pattern?.[1] && destructured(pattern[1]).some(([, l]) => l === next.name) ? pattern[2] : undefined);
      if (rhs === undefined) continue;
      const statement = statementAt(file, line, 12).slice(text.indexOf(rhs)).replace(/;[\s\S]*$/, '');
      for (const name of objectValueNames(statement)) {
        if (CALLER.test(name) || names.has(name)) continue;
        names.add(name);
        queue.push({ name, before: line });
      }
      break;
    }
  }
  return [...names];
}
