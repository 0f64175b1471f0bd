/**
 * NestJS guards, judged by what their `canActivate` does. A handler runs behind the global guards
 * (`app.useGlobalGuards(new X())`, `{ provide: APP_GUARD, useClass: X }`), then its controller's
 * `@UseGuards(...)`, then its own. A guard the repository defines:
 * - is no check when every `return` of `canActivate` is `true` and nothing throws;
 * - skips handlers carrying a metadata decorator when it returns `true` on that metadata
 *   (`if (isPublic) return true` over `reflector.getAllAndOverride(IS_PUBLIC_KEY, ...)`: `@Public()`);
 * - checks only handlers carrying a metadata decorator when it returns `true` without it (a `RolesGuard`
 *   with `if (!roles) return true`: a handler without `@Roles(...)` gets nothing from it), and then it
 *   compares the user with what the handler declares: a permission;
 * - otherwise is a check of the kind its refusals say (`ForbiddenException`: a permission,
 *   `UnauthorizedException`: a login), or of the kind its test names (a role test, or a login);
 * - extending `AuthGuard('jwt')` without its own decision is a login.
 * A guard the repository does not define is read by name (`AuthGuard('jwt')`) through the discharger rows'
 * `middleware` patterns.
 */
import type { LanguageFacts } from './facts.js';
import { strongest } from './alternative-checks.js';
import { lookupClass, type ClassRecord, type Program } from './resolution.js';
import type { DischargeKind, EntryPoint, FunctionRef, Witness } from './types.js';

/** What one guard class decides. */
interface GuardJudgement {
  kind: DischargeKind | null;
  /** Metadata key the guard needs on the handler to check anything (roles). */
  requires: string | null;
  /** Metadata key that makes the guard let the handler through (`@Public()`). */
  bypass: string | null;
  evidence: string;
}

interface GuardUse {
  name: string;
  text: string;
  scope: 'router' | 'class' | 'decorator';
  where: string;
  /** A guard decides in `canActivate`; an interceptor can only refuse, in `intercept` before `next.handle()`. */
  method: HookMethod;
}

type HookMethod = 'canActivate' | 'intercept';

const ROLE_TEST = /[Aa]dmin|[Ss]uperuser|[Rr]ole|[Pp]ermission|[Pp]rivilege|[Ss]cope|[Oo]wner|\bcan[A-Z(]|[Aa]bilit|[Pp]olic/;
const NOT_A_CHECK = /Throttl|RateLimit|Quota|Cache|Metric|Logging/;
const METADATA_READ = /(?:const|let|var)\s+(\w+)\s*(?::[^=]+)?=\s*(?:await\s+)?this\.\w+\.(?:get|getAllAndOverride|getAllAndMerge)\s*(?:<[^>]*>)?\s*\(\s*([\w'"`.-]+)/g;

/** Witnesses of the guards in front of every NestJS entry. */
export function nestGuardWitnesses(program: Program, facts: LanguageFacts, entries: readonly EntryPoint[], statementWitnesses: ReadonlyMap<string, readonly Witness[]>): Witness[] {
  const nest = entries.filter((e) => e.framework === 'nestjs');
  if (nest.length === 0) return [];
  const metadata = metadataDecorators(program);
  const globals = globalGuards(program);
  const composed = composedDecorators(program);
  const memo = new Map<string, GuardJudgement | null>();
  const out: Witness[] = [];
  for (const entry of nest) {
    const ref = program.functions.get(entry.functionId);
    const file = program.byPath.get(entry.path);
    if (!ref || !file) continue;
    const cls = file.ir.classes.find((c) => c.name === ref.fn.className);
    // `@Auth('admin')` built with applyDecorators(...) carries what it composes.
    const onClass = expand(cls?.decorators ?? [], composed);
    const onMethod = expand(ref.fn.decorators, composed);
    const carried = new Set([...onMethod, ...onClass].map((d) => metadataKeyOf(d, metadata)).filter((k): k is string => k !== null));
    const uses: GuardUse[] = [
      ...globals,
      ...onClass.flatMap((d) => guardsOf(d, 'class', `${entry.path}:${cls?.startLine ?? 0}`)),
      ...onMethod.flatMap((d) => guardsOf(d, 'decorator', `${entry.path}:${ref.fn.startLine}`)),
    ];
    for (const use of uses) {
      const key = `${use.method}:${use.name}@${entry.path}`;
      if (!memo.has(key)) memo.set(key, judgeGuard({ program, facts, statementWitnesses, metadata }, use.name, entry.path, 0, use.method));
      const judged = memo.get(key);
      if (!judged || judged.kind === null) continue;
      if (judged.bypass !== null && carried.has(judged.bypass)) continue;
      if (judged.requires !== null && !carried.has(judged.requires)) continue;
      out.push({ kind: judged.kind, scope: use.scope, functionId: entry.functionId, line: null, dischargerId: 'nestjs.guard', evidence: `${use.method === 'intercept' ? 'interceptor' : 'guard'} ${use.text} (${use.where}): ${judged.evidence}` });
    }
  }
  return out;
}

/** `UseGuards(AuthGuard('jwt'), RolesGuard)`, `UseInterceptors(X)` → the guards or interceptors it names. */
function guardsOf(decorator: string, scope: GuardUse['scope'], where: string): GuardUse[] {
  const use = /^Use(Guards|Interceptors)\s*\((.*)\)\s*$/s.exec(decorator);
  if (!use?.[2]) return [];
  const method: HookMethod = use[1] === 'Guards' ? 'canActivate' : 'intercept';
  return splitTopLevel(use[2]).flatMap((text) => {
    const name = /^(?:new\s+)?([A-Za-z_$][\w$]*)/.exec(text.trim())?.[1];
    return name === undefined ? [] : [{ name, text: text.trim(), scope, where, method }];
  });
}

/** Guards and interceptors every handler runs behind: `useGlobalGuards(new X(...))`, `useGlobalInterceptors(...)`, `APP_GUARD` and `APP_INTERCEPTOR` providers. */
function globalGuards(program: Program): GuardUse[] {
  const out: GuardUse[] = [];
  for (const file of program.files) {
    if (file.factsLanguage !== 'typescript' || !/useGlobal(Guards|Interceptors)|APP_(GUARD|INTERCEPTOR)/.test(file.text)) continue;
    for (const [index, line] of file.lines.entries()) {
      const global = /useGlobal(Guards|Interceptors)\s*\((.*)\)/.exec(line);
      const method: HookMethod = global?.[1] === 'Interceptors' ? 'intercept' : 'canActivate';
      for (const text of global ? splitTopLevel(global[2] ?? '') : []) {
        const name = /^(?:new\s+)?([A-Za-z_$][\w$]*)/.exec(text.trim())?.[1];
        if (name) out.push({ name, text: text.trim(), scope: 'router', where: `${file.path}:${index + 1}`, method });
      }
    }
    for (const match of file.text.matchAll(/provide\s*:\s*(APP_GUARD|APP_INTERCEPTOR)\s*,\s*use(?:Class|Existing)\s*:\s*([A-Za-z_$][\w$]*)|use(?:Class|Existing)\s*:\s*([A-Za-z_$][\w$]*)\s*,\s*provide\s*:\s*(APP_GUARD|APP_INTERCEPTOR)/g)) {
      const name = match[2] ?? match[3] ?? '';
      const token = match[1] ?? match[4] ?? 'APP_GUARD';
      const line = file.text.slice(0, match.index ?? 0).split('\n').length;
      out.push({ name, text: `${token} ${name}`, scope: 'router', where: `${file.path}:${line}`, method: token === 'APP_INTERCEPTOR' ? 'intercept' : 'canActivate' });
    }
  }
  return out;
}

/**
 * Decorators composed with `applyDecorators(...)` (NestJS decorator composition): `export function
 * Auth(...roles) { return applyDecorators(SetMetadata('roles', roles), UseGuards(AuthGuard, RolesGuard)); }`,
 * or the same as an arrow constant. Name → the decorators it applies.
 */
function composedDecorators(program: Program): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const file of program.files) {
    if (file.factsLanguage !== 'typescript' || !file.text.includes('applyDecorators')) continue;
    for (const m of file.text.matchAll(/\b(?:function\s+([A-Za-z_$][\w$]*)\s*\([^)]*\)[^{]*\{\s*return|const\s+([A-Za-z_$][\w$]*)\s*=\s*\([^)]*\)\s*(?::[^=]+)?=>)\s*applyDecorators\s*\(/g)) {
      const name = m[1] ?? m[2];
      const args = name ? callArgumentsAt(file.text, (m.index ?? 0) + m[0].length) : null;
      if (name && args) out.set(name, splitTopLevel(args).map((d) => d.trim()));
    }
  }
  return out;
}

/** The text between the `(` just before `from` and its closing `)`. */
function callArgumentsAt(text: string, from: number): string | null {
  let depth = 1;
  for (let i = from; i < text.length; i++) {
    const ch = text[i];
    if (ch === '(') depth++;
    else if (ch === ')' && --depth === 0) return text.slice(from, i);
  }
  return null;
}

/** The decorators as written, each followed by what it composes (two levels). */
function expand(decorators: readonly string[], composed: ReadonlyMap<string, string[]>, depth = 0): string[] {
  return decorators.flatMap((d) => {
    const inner = composed.get(/^([A-Za-z_$][\w$]*)/.exec(d)?.[1] ?? '');
    return inner && depth < 2 ? [d, ...expand(inner, composed, depth + 1)] : [d];
  });
}

/** Metadata decorators of the repository: name → key, and the string constants keys are written with. */
interface Metadata {
  decorators: Map<string, string>;
  constants: Map<string, string>;
}

/** `export const Public = () => SetMetadata(IS_PUBLIC_KEY, true)`, `Reflector.createDecorator`, with `IS_PUBLIC_KEY = 'isPublic'` resolved. */
function metadataDecorators(program: Program): Metadata {
  const constants = new Map<string, string>();
  const decorators = new Map<string, string>();
  for (const file of program.files) {
    if (file.factsLanguage !== 'typescript') continue;
    for (const m of file.text.matchAll(/\bconst\s+([A-Z_][A-Z0-9_]*)\s*=\s*(['"`])([^'"`]+)\2/g)) constants.set(m[1] ?? '', m[3] ?? '');
    if (!/SetMetadata|createDecorator/.test(file.text)) continue;
    for (const m of file.text.matchAll(/\bconst\s+([A-Za-z_$][\w$]*)\s*=\s*(?:\([^)]*\)\s*(?::\s*[^=]+)?=>\s*)?SetMetadata\s*(?:<[^>]*>)?\s*\(\s*([\w'"`.-]+)/g)) decorators.set(m[1] ?? '', m[2] ?? '');
    for (const m of file.text.matchAll(/\bconst\s+([A-Za-z_$][\w$]*)\s*=\s*Reflector\.createDecorator\b/g)) decorators.set(m[1] ?? '', m[1] ?? '');
    for (const m of file.text.matchAll(/\bfunction\s+([A-Za-z_$][\w$]*)\s*\([^)]*\)\s*(?::[^{]+)?\{\s*return\s+SetMetadata\s*(?:<[^>]*>)?\s*\(\s*([\w'"`.-]+)/g)) decorators.set(m[1] ?? '', m[2] ?? '');
  }
  for (const [name, key] of decorators) decorators.set(name, normaliseKey(key, constants));
  return { decorators, constants };
}

function normaliseKey(key: string, constants: ReadonlyMap<string, string>): string {
  const bare = key.replace(/^['"`]|['"`]$/g, '');
  return constants.get(bare) ?? bare;
}

/** The metadata key a decorator on a handler or controller sets, or null. */
function metadataKeyOf(decorator: string, metadata: Metadata): string | null {
  const direct = /^SetMetadata\s*\(\s*([\w'"`.-]+)/.exec(decorator);
  if (direct) return normaliseKey(direct[1] ?? '', metadata.constants);
  return metadata.decorators.get(/^([A-Za-z_$][\w$]*)/.exec(decorator)?.[1] ?? '') ?? null;
}

/** What judging a guard reads. */
interface GuardContext {
  program: Program;
  facts: LanguageFacts;
  statementWitnesses: ReadonlyMap<string, readonly Witness[]>;
  metadata: Metadata;
}

function judgeGuard(ctx: GuardContext, name: string, nearPath: string, depth: number, method: HookMethod = 'canActivate'): GuardJudgement | null {
  const { program, facts } = ctx;
  const record = lookupClass(program.table, name, nearPath);
  if (!record || program.byPath.get(record.path)?.factsLanguage !== 'typescript') {
    if (method === 'intercept') return null; // a library interceptor is read by nothing
    const row = facts.dischargers.find((d) => d.middleware.some((re) => re.test(name)));
    return row && row.kind !== 'public' && row.kind !== 'csrf_guard' ? { kind: row.kind, requires: null, bypass: null, evidence: `${name} (${row.description})` } : null;
  }
  return method === 'intercept' ? judgeInterceptorClass(ctx, record, depth) : judgeGuardClass(ctx, record, depth);
}

/**
 * An interceptor of the repository checks when its `intercept` refuses before it hands the request on
 * (`next.handle()`): a refusal after it, or inside the pipe of the handler's answer, comes too late.
 * The metadata it reads scopes it like a guard's (`if (!roles) return next.handle()`).
 */
function judgeInterceptorClass(ctx: GuardContext, record: ClassRecord, depth: number): GuardJudgement | null {
  const { program, statementWitnesses, metadata } = ctx;
  const file = program.byPath.get(record.path);
  if (!file) return null;
  if (NOT_A_CHECK.test(record.name)) return { kind: null, requires: null, bypass: null, evidence: `${record.name} limits volume, it checks no caller` };
  const intercept = record.methods.find((m) => m.fn.name === 'intercept');
  if (!intercept) return record.superclass && depth < 3 ? judgeGuard(ctx, record.superclass, record.path, depth + 1, 'intercept') : null;
  const body = bodyOf(file.lines, intercept);
  const handOn = body.split('\n').findIndex((l) => /\bnext\.handle\s*\(/.test(l));
  const before = handOn < 0 ? intercept.fn.endLine : intercept.fn.startLine + handOn;
  const helpers = record.methods.filter((m) => m !== intercept && new RegExp(String.raw`\bthis\.${m.fn.name}\s*\(`).test(file.lines.slice(intercept.fn.startLine - 1, before).join('\n')));
  const refusals = strongest([
    ...(statementWitnesses.get(intercept.id) ?? []).filter((w) => w.scope === 'statement' && w.line !== null && w.line < before).map((w) => w.kind),
    ...helpers.flatMap((m) => (statementWitnesses.get(m.id) ?? []).filter((w) => w.scope === 'statement').map((w) => w.kind)),
  ]);
  if (refusals === null) return { kind: null, requires: null, bypass: null, evidence: `${record.name}.intercept refuses nothing before it hands the request on` };
  const { requires, bypass } = metadataScope(body, metadata, String.raw`(?:true|next\.handle\s*\(\s*\))`);
  const evidence = `${record.name}.intercept refuses (${refusals === 'authn' ? 'a login' : 'a permission'}) before next.handle()${requires !== null ? ` on handlers marked ${requires}` : ''}${bypass !== null ? `, except handlers marked ${bypass}` : ''}`;
  return { kind: requires !== null ? 'path_guard' : refusals, requires, bypass, evidence };
}

/** The metadata a hook's body reads and what it does without it: required (`if (!roles) return ...`) or a bypass (`if (isPublic) return ...`). */
function metadataScope(body: string, metadata: Metadata, allowed: string): { requires: string | null; bypass: string | null } {
  let requires: string | null = null;
  let bypass: string | null = null;
  for (const read of body.matchAll(METADATA_READ)) {
    const variable = read[1] ?? '';
    const key = normaliseKey(read[2] ?? '', metadata.constants);
    // A comment may sit between the test and its `return true` (`// No specific permissions required`).
    const allows = String.raw`\)\s*\{?\s*(?:\/\/[^\n]*\s*)*return\s+${allowed}`;
    if (new RegExp(String.raw`\bif\s*\(\s*!\s*${variable}\b[^)]*${allows}`).test(body)) requires = key;
    else if (new RegExp(String.raw`\bif\s*\(\s*${variable}\s*${allows}`).test(body)) bypass = key;
  }
  return { requires, bypass };
}

function judgeGuardClass(ctx: GuardContext, record: ClassRecord, depth: number): GuardJudgement | null {
  const { program, statementWitnesses, metadata } = ctx;
  const file = program.byPath.get(record.path);
  const cls = file?.ir.classes.find((c) => c.name === record.name);
  if (!file || !cls) return null;
  // Rate limits and quotas refuse by volume, not by who calls (framework reference 0.2).
  if (NOT_A_CHECK.test(record.name)) return { kind: null, requires: null, bypass: null, evidence: `${record.name} limits volume, it checks no caller` };
  const canActivate = record.methods.find((m) => m.fn.name === 'canActivate');
  const header = file.lines.slice(cls.startLine - 1, cls.startLine + 1).join(' ');
  const extendsAuthGuard = /\bextends\s+(?:\w+\.)?AuthGuard\s*\(/.test(header);
  if (!canActivate) {
    if (extendsAuthGuard) return { kind: 'authn', requires: null, bypass: null, evidence: `${record.name} extends AuthGuard (passport): a login` };
    if (record.superclass && depth < 3) return judgeGuard(ctx, record.superclass, record.path, depth + 1);
    return null;
  }
  // The decision: canActivate and the methods of the class it calls through `this`.
  const helpers = record.methods.filter((m) => m !== canActivate && new RegExp(String.raw`\bthis\.${m.fn.name}\s*\(`).test(bodyOf(file.lines, canActivate)));
  const body = [canActivate, ...helpers].map((m) => bodyOf(file.lines, m)).join('\n');
  const returns = [...body.matchAll(/\breturn\s+([^;\n]+)/g)].map((m) => (m[1] ?? '').trim());
  // A refusal through a project helper that always throws (`throwErr(...)`) is a statement check of its own.
  const throws = /\bthrow\b/.test(body) || [canActivate, ...helpers].some((m) => (statementWitnesses.get(m.id) ?? []).some((w) => w.scope === 'statement'));
  if (!throws && returns.every((r) => /^(true|Promise\.resolve\(\s*true\s*\)|of\(\s*true\s*\))$/.test(r))) {
    return { kind: null, requires: null, bypass: null, evidence: `${record.name}.canActivate always returns true` };
  }
  const { requires, bypass } = metadataScope(body, metadata, String.raw`true\b`);
  const refusals = strongest([canActivate, ...helpers].flatMap((m) => (statementWitnesses.get(m.id) ?? []).filter((w) => w.scope === 'statement').map((w) => w.kind)));
  // A decision returned rather than thrown: `return roles.some(...)`, `return super.canActivate(context)` (passport: a login).
  const decides = returns.some((r) => !/^(true|Promise\.resolve\(\s*true\s*\)|of\(\s*true\s*\))$/.test(r));
  const tested = body.replace(/\bcanActivate\b/g, '');
  const decided: DischargeKind | null = requires !== null ? 'path_guard' : (refusals ?? (extendsAuthGuard ? 'authn' : decides ? (ROLE_TEST.test(tested) ? 'path_guard' : 'authn') : null));
  if (decided === null) return { kind: null, requires: null, bypass: null, evidence: `${record.name}.canActivate refuses nothing a check would` };
  const evidence = requires !== null ? `${record.name}.canActivate compares the user with the handler's ${requires} metadata` : `${record.name}.canActivate refuses (${decided === 'authn' ? 'a login' : 'a permission'})${bypass !== null ? `, except handlers marked ${bypass}` : ''}`;
  return { kind: decided, requires, bypass, evidence };
}

function bodyOf(lines: readonly string[], ref: FunctionRef): string {
  return lines.slice(ref.fn.startLine - 1, ref.fn.endLine).join('\n');
}

/** Split a list of arguments at top-level commas. */
function splitTopLevel(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if ('([{'.includes(ch)) depth++;
    else if (')]}'.includes(ch)) depth--;
    if (ch === ',' && depth === 0) {
      out.push(current);
      current = '';
    } else current += ch;
  }
  if (current.trim() !== '') out.push(current);
  return out.filter((t) => t.trim() !== '');
}
